/**
 * The demo instance (shared by `forgekit seed-demo` and the examples): an administrator, two
 * ordinary users, a group with a subgroup, a public, an internal and a private project, memberships
 * at several roles, and one personal access token per user. Idempotent: existing records are found
 * and kept; each user keeps one active demo token whose plaintext lives in the local demo token file
 * (see demo-tokens-file.ts). A token that cannot be shown again (file lost) is revoked and replaced.
 */
import { createHash } from "node:crypto";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { errors, type AccessToken, type Forgekit, type ForgekitError, type Namespace, type Project, type User, type Visibility } from "@forgekit/core";
import { seedDemoOAuth, type DemoOAuthSeed } from "./demo-oauth.js";
import { readDemoTokens, writeDemoTokens, type DemoTokenEntry } from "./demo-tokens-file.js";
import { ACCESS_LEVELS } from "./values.js";

/** The services the seed uses. */
export type DemoServices = Pick<Forgekit, "users" | "groups" | "projects" | "members" | "tokens" | "oauth" | "store" | "config">;

/** Name of every demo token; tokens of this name are the seed's own. */
export const DEMO_TOKEN_NAME = "forgekit-demo";

const USERS = [
  { username: "admin", name: "Ada Admin", email: "admin@example.com", admin: true, scopes: ["api", "sudo"] },
  { username: "alice", name: "Alice Example", email: "alice@example.com", admin: false, scopes: ["api"] },
  { username: "bob", name: "Bob Example", email: "bob@example.com", admin: false, scopes: ["api"] },
] as const;
type DemoUsername = (typeof USERS)[number]["username"];

const GROUPS: { path: string; name: string; parent: string | null; visibility: Visibility; owner: DemoUsername }[] = [
  { path: "demo", name: "Demo", parent: null, visibility: "public", owner: "alice" },
  { path: "platform", name: "Platform", parent: "demo", visibility: "internal", owner: "alice" },
];

const PROJECTS: { namespace: string; path: string; name: string; visibility: Visibility; creator: DemoUsername; description: string }[] = [
  { namespace: "demo", path: "website", name: "Website", visibility: "public", creator: "alice", description: "A public project" },
  { namespace: "demo/platform", path: "api", name: "API", visibility: "internal", creator: "alice", description: "An internal project in a subgroup" },
  { namespace: "alice", path: "notes", name: "Notes", visibility: "private", creator: "alice", description: "A private project in a user namespace" },
];

const MEMBERS: { user: DemoUsername; group?: string; project?: string; level: keyof typeof ACCESS_LEVELS }[] = [
  { user: "bob", group: "demo/platform", level: "developer" },
  { user: "bob", project: "demo/website", level: "maintainer" },
  { user: "bob", project: "alice/notes", level: "reporter" },
  { user: "admin", group: "demo", level: "guest" },
];

/** What the seed made or found. */
export interface DemoSeed {
  users: { id: number; username: string; name: string; admin: boolean; token: string }[];
  groups: { id: number; fullPath: string; visibility: Visibility }[];
  projects: { id: number; fullPath: string; visibility: Visibility }[];
  /** How many records (users, groups, projects, memberships, tokens) this run created. */
  created: number;
  /** OAuth applications and demo passwords (demo-oauth.ts; counted in its own `created`). */
  oauth: DemoOAuthSeed;
}

/** Options of `seedDemo`: where the demo tokens are kept and under which database key. */
export interface SeedDemoOptions {
  /** The demo token file (plaintext, demo only). */
  tokensFile: string;
  /** The seeded database's key in the demo files (demo-tokens-file.ts `databaseKey`). */
  database: string;
}

const isNotFound = (e: ForgekitError): boolean => e.code === "not_found";

/** `find()`, or `create()` when it is not found; counts creations. */
function ensure<T>(counter: { created: number }, find: () => ResultAsync<T, ForgekitError>, create: () => ResultAsync<T, ForgekitError>) {
  return find().orElse((e) =>
    isNotFound(e)
      ? create().map((value) => {
          counter.created += 1;
          return value;
        })
      : errAsync(e),
  );
}

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");

/** Seeds (or completes) the demo instance; safe to run any number of times. */
export function seedDemo(fk: DemoServices, options: SeedDemoOptions): ResultAsync<DemoSeed, ForgekitError> {
  return ResultAsync.fromPromise(run(fk, options), (cause) => errors.internal(cause)).andThen((r) => r);
}

async function run(fk: DemoServices, options: SeedDemoOptions): Promise<Result<DemoSeed, ForgekitError>> {
  const counter = { created: 0 };
  const users = new Map<string, User>();
  for (const u of USERS) {
    const user = await ensure(counter, () => fk.users.findByUsername(u.username), () =>
      fk.users.create({ username: u.username, name: u.name, email: u.email, admin: u.admin }),
    );
    if (user.isErr()) return err(user.error);
    users.set(u.username, user.value);
  }
  const userId = (name: DemoUsername): number => (users.get(name) as User).id;

  const groups: Namespace[] = [];
  for (const g of GROUPS) {
    const fullPath = g.parent === null ? g.path : `${g.parent}/${g.path}`;
    const parent = groups.find((p) => p.fullPath === g.parent);
    const group = await ensure(counter, () => fk.groups.findByFullPath(fullPath), () =>
      fk.groups.create({ name: g.name, path: g.path, parentId: parent?.id ?? null, visibility: g.visibility, ownerId: userId(g.owner) }),
    );
    if (group.isErr()) return err(group.error);
    groups.push(group.value);
  }

  const projects: Project[] = [];
  for (const p of PROJECTS) {
    const namespaceId = groups.find((g) => g.fullPath === p.namespace)?.id ?? users.get(p.namespace)?.namespaceId;
    if (namespaceId == null) return err(errors.notFound("Namespace"));
    const project = await ensure(counter, () => fk.projects.findByFullPath(`${p.namespace}/${p.path}`), () =>
      fk.projects.create({ namespaceId, name: p.name, path: p.path, visibility: p.visibility, description: p.description, creatorId: userId(p.creator) }),
    );
    if (project.isErr()) return err(project.error);
    projects.push(project.value);
  }

  for (const m of MEMBERS) {
    const sourceId = m.group !== undefined ? groups.find((g) => g.fullPath === m.group)?.id : projects.find((p) => p.fullPath === m.project)?.id;
    if (sourceId === undefined) return err(errors.notFound(m.group !== undefined ? "Group" : "Project"));
    const added = await fk.members.add({
      sourceType: m.group !== undefined ? "namespace" : "project",
      sourceId,
      userId: userId(m.user),
      accessLevel: ACCESS_LEVELS[m.level],
    });
    // An existing membership (409) is the idempotent case.
    if (added.isErr() && added.error.code !== "conflict") return err(added.error);
    if (added.isOk()) counter.created += 1;
  }

  const tokens = await ensureTokens(fk, users, options.tokensFile, options.database, counter);
  if (tokens.isErr()) return err(tokens.error);
  const oauth = await seedDemoOAuth(fk, [...users.values()], options.tokensFile, options.database);
  if (oauth.isErr()) return err(oauth.error);

  return ok({
    users: USERS.map((u) => {
      const user = users.get(u.username) as User;
      return { id: user.id, username: user.username, name: user.name, admin: user.admin, token: tokens.value[u.username]?.token ?? "" };
    }),
    groups: groups.map((g) => ({ id: g.id, fullPath: g.fullPath, visibility: g.visibility })),
    projects: projects.map((p) => ({ id: p.id, fullPath: p.fullPath, visibility: p.visibility })),
    created: counter.created,
    oauth: oauth.value,
  });
}

/** One active demo token per user, reusing those whose plaintext the file still has. */
async function ensureTokens(
  fk: DemoServices,
  users: Map<string, User>,
  file: string,
  database: string,
  counter: { created: number },
): Promise<Result<Record<string, DemoTokenEntry>, ForgekitError>> {
  const known = readDemoTokens(file, database);
  const result: Record<string, DemoTokenEntry> = {};
  for (const u of USERS) {
    const user = users.get(u.username) as User;
    const listed = await fk.tokens.list({ userId: user.id, kind: "personal", state: "active" });
    if (listed.isErr()) return err(listed.error);
    const active = listed.value.filter((t: AccessToken) => t.name === DEMO_TOKEN_NAME);
    const entry = known[u.username];
    const reusable = entry !== undefined ? active.find((t) => t.id === entry.id && t.digest === digest(entry.token)) : undefined;
    for (const stale of active.filter((t) => t !== reusable)) {
      const revoked = await fk.tokens.revoke(stale.id);
      if (revoked.isErr()) return err(revoked.error);
    }
    if (reusable !== undefined && entry !== undefined) {
      result[u.username] = entry;
      continue;
    }
    const created = await fk.tokens.createPersonal(user.id, { name: DEMO_TOKEN_NAME, scopes: [...u.scopes] });
    if (created.isErr()) return err(created.error);
    counter.created += 1;
    result[u.username] = { id: created.value.token.id, token: created.value.plaintext };
  }
  writeDemoTokens(file, database, result);
  return ok(result);
}
