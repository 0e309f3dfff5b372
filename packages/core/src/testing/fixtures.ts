/**
 * Test fixtures (`@forgekit/core/testing`): a settable clock, deterministic randomness, and
 * `createTestForgekit`, an instance on the in-memory store seeded with a small, known world.
 *
 * Repository shards get temporary directories (`testRepositoryStorages`): every project, group and
 * snippet of a test instance has a real bare repository.
 *
 * The seeded world (ids follow creation order, so they are stable):
 * - users `root` (admin), `alice`, `bob`; each has one personal token (scopes `api`; root's also
 *   `sudo`) whose plaintext is returned;
 * - group `grp` (public, alice Owner) with subgroup `grp/sub` (private, bob Developer), and the
 *   private top-level group `secret` (alice Owner);
 * - projects `grp/public-project` (public), `grp/internal-project` (internal, bob Reporter),
 *   `grp/sub/private-project` (private), `alice/personal` (private, alice's namespace),
 *   `secret/hidden` (private).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResultAsync } from "neverthrow";
import { AccessLevel, type AccessToken, type Group, type Project, type User } from "../accounts/types.js";
import type { CreateProjectInput } from "../accounts/projects.js";
import type { CreateGroupInput } from "../accounts/groups.js";
import type { CreateUserInput } from "../accounts/users.js";
import type { CreateTokenInput } from "../accounts/tokens.js";
import type { ForgekitOptions } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { createForgekit, type Forgekit } from "../forgekit.js";
import type { Clock, Random } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import { scryptPasswordHasher } from "../runtime/scrypt-password-hasher.js";
import { memoryStore } from "../memory-store/index.js";

/** A clock tests set and advance. */
export interface FixedClock extends Clock {
  set(time: string | Date): void;
  advance(ms: number): void;
}

/** A clock stopped at `iso` until set or advanced. */
export function fixedClock(iso: string | Date = "2024-05-01T12:00:00.000Z"): FixedClock {
  let current = new Date(iso);
  return {
    now: () => new Date(current),
    set(time) {
      current = new Date(time);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** Deterministic bytes (xorshift32) so generated tokens repeat run to run. Not for production. */
export function seededRandom(seed = 0x9e3779b9): Random {
  let state = seed >>> 0 || 1;
  return {
    read(bytes) {
      for (let i = 0; i < bytes.length; i += 1) {
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        bytes[i] = state & 0xff;
      }
    },
  };
}

/** Awaits a service result, throwing (with the error's JSON) when it failed: for test setup only. */
export async function must<T>(result: ResultAsync<T, ForgekitError>): Promise<T> {
  const r = await result;
  if (r.isErr()) throw new Error(`fixture step failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** Options of {@link createTestForgekit}; any configuration field may be overridden. */
export type TestForgekitOptions = Partial<ForgekitOptions> & {
  /** Start time of the fixed clock (default 2024-05-01T12:00:00Z). */
  now?: string;
};

/** The seeded world. */
export interface TestWorld {
  users: { root: User; alice: User; bob: User };
  /** Plaintext personal tokens. */
  tokens: { root: string; alice: string; bob: string };
  groups: { grp: Group; sub: Group; secret: Group };
  projects: { publicProject: Project; internalProject: Project; privateProject: Project; personal: Project; hidden: Project };
}

/** A seeded instance plus helpers that create more records. */
export interface TestForgekit extends TestWorld {
  fk: Forgekit;
  store: Store;
  clock: FixedClock;
  /** Base URL the instance renders links with. */
  baseUrl: string;
  createUser(input: Partial<CreateUserInput> & { username: string }): Promise<User>;
  /** A personal token (or `kind: "impersonation"`, made by root) for the user; returns row and plaintext. */
  createToken(userId: number, input?: Partial<CreateTokenInput> & { kind?: "personal" | "impersonation" }): Promise<{ token: AccessToken; plaintext: string }>;
  createGroup(input: CreateGroupInput): Promise<Group>;
  createProject(input: CreateProjectInput): Promise<Project>;
  addMember(target: { project: Project } | { group: Group }, user: User, level: number): Promise<void>;
}

/** The base URL test instances use unless overridden. */
export const TEST_BASE_URL = "https://forge.example.com";

/**
 * Where test instances get their store when none is given: a fresh in-memory store by default. A
 * store package sets its own factory (`useTestStore`) to run the HTTP suites on a real database.
 */
let makeDefaultStore: () => Store | Promise<Store> = memoryStore;

/** Makes `createTestForgekit()` build instances on stores from `factory`; returns the previous one. */
export function useTestStore(factory: () => Store | Promise<Store>): () => Store | Promise<Store> {
  const previous = makeDefaultStore;
  makeDefaultStore = factory;
  return previous;
}

/**
 * The shards of a test instance: the names asked for (default one `default`), each without a
 * path given a fresh directory under this process's temporary folder, removed when the process
 * exits, so tests never write repositories into the working directory.
 */
export function testRepositoryStorages(requested: ForgekitOptions["repositoryStorages"] = ["default"]): Record<string, { path: string }> {
  // An invalid value is passed on untouched for the configuration to reject, as it would be in production.
  if (typeof requested !== "object" || requested === null) return requested;
  const entries: [string, { path?: string | undefined }][] = Array.isArray(requested) ? requested.map((name: string) => [name, {}]) : Object.entries(requested);
  let instance: string | undefined;
  const fresh = (name: string) => join((instance ??= mkdtempSync(join(testRepositoriesRoot(), "instance-"))), name);
  return Object.fromEntries(entries.map(([name, shard]) => [name, { path: shard.path ?? fresh(name) }]));
}

const ROOT_PREFIX = "forgekit-test-repositories-";
let repositoriesRoot: string | undefined;
/**
 * One temporary folder per test process for every instance's shards, named with the process id.
 * It is removed at exit when the process exits normally; test runners often end their workers
 * otherwise, so each new one also removes the folders of processes that no longer run.
 */
function testRepositoriesRoot(): string {
  if (repositoriesRoot === undefined) {
    removeFoldersOfEndedProcesses();
    const root = mkdtempSync(join(tmpdir(), `${ROOT_PREFIX}${process.pid}-`));
    process.once("exit", () => rmSync(root, { recursive: true, force: true }));
    repositoriesRoot = root;
  }
  return repositoriesRoot;
}

function removeFoldersOfEndedProcesses(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = name.startsWith(ROOT_PREFIX) ? Number(name.slice(ROOT_PREFIX.length).split("-")[0]) : Number.NaN;
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Builds an instance on a fresh store (in-memory unless `useTestStore` chose another) with a fixed clock and deterministic randomness. */
export async function createTestForgekit(options: TestForgekitOptions = {}): Promise<TestForgekit> {
  const { now, ...overrides } = options;
  const clock = fixedClock(now ?? "2024-05-01T12:00:00.000Z");
  const fk = createForgekit({
    baseUrl: TEST_BASE_URL,
    store: options.store ?? (await makeDefaultStore()),
    clock,
    random: seededRandom(),
    passwordHasher: scryptPasswordHasher({ cost: 1024 }),
    logger: { log: () => undefined },
    ...overrides,
    repositoryStorages: testRepositoryStorages(options.repositoryStorages),
  });
  await must(fk.migrate());

  const helpers = {
    createUser: (input: Partial<CreateUserInput> & { username: string }) =>
      must(fk.users.create({ name: input.username, email: `${input.username}@example.com`, ...input })),
    createToken: async (userId: number, input: Partial<CreateTokenInput> & { kind?: "personal" | "impersonation" } = {}) => {
      const { kind, ...rest } = input;
      const body = { name: "test token", scopes: ["api"], ...rest };
      if (kind !== "impersonation") return must(fk.tokens.createPersonal(userId, body));
      // Impersonation tokens are made by an administrator: the seeded `root`.
      const admin = await must(fk.users.findByUsername("root"));
      return must(fk.tokens.createImpersonation(admin, userId, body));
    },
    createGroup: (input: CreateGroupInput) => must(fk.groups.create(input)),
    createProject: (input: CreateProjectInput) => must(fk.projects.create(input)),
    addMember: async (target: { project: Project } | { group: Group }, user: User, level: number) => {
      const source = "project" in target ? { sourceType: "project" as const, sourceId: target.project.id } : { sourceType: "namespace" as const, sourceId: target.group.id };
      await must(fk.members.add({ ...source, userId: user.id, accessLevel: level }));
    },
  };

  return { fk, store: fk.store, clock, baseUrl: fk.config.baseUrl, ...helpers, ...(await seed(helpers)) };
}

async function seed(h: Pick<TestForgekit, "createUser" | "createToken" | "createGroup" | "createProject" | "addMember">): Promise<TestWorld> {
  const root = await h.createUser({ username: "root", name: "Administrator", admin: true, password: "root-password" });
  const alice = await h.createUser({ username: "alice", name: "Alice Liddell", password: "alice-password" });
  const bob = await h.createUser({ username: "bob", name: "Bob Builder", password: "bob-password" });

  const grp = await h.createGroup({ name: "Group", path: "grp", visibility: "public", ownerId: alice.id });
  const sub = await h.createGroup({ name: "Sub", path: "sub", parentId: grp.id, visibility: "private" });
  const secret = await h.createGroup({ name: "Secret", path: "secret", visibility: "private", ownerId: alice.id });
  await h.addMember({ group: sub }, bob, AccessLevel.Developer);

  const project = (namespaceId: number, path: string, visibility: Project["visibility"]) =>
    h.createProject({ namespaceId, path, name: path, visibility, creatorId: alice.id });
  const publicProject = await project(grp.id, "public-project", "public");
  const internalProject = await project(grp.id, "internal-project", "internal");
  const privateProject = await project(sub.id, "private-project", "private");
  const personal = await project(alice.namespaceId ?? -1, "personal", "private");
  const hidden = await project(secret.id, "hidden", "private");
  await h.addMember({ project: internalProject }, bob, AccessLevel.Reporter);

  const tokens = {
    root: (await h.createToken(root.id, { name: "root token", scopes: ["api", "sudo"] })).plaintext,
    alice: (await h.createToken(alice.id, { name: "alice token" })).plaintext,
    bob: (await h.createToken(bob.id, { name: "bob token" })).plaintext,
  };
  return {
    users: { root, alice, bob },
    tokens,
    groups: { grp, sub, secret },
    projects: { publicProject, internalProject, privateProject, personal, hidden },
  };
}
