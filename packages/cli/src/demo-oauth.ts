/**
 * The OAuth part of the demo: one confidential and one public application, and a demo password for
 * each demo user (so the example's sign-in page can approve a consent). Idempotent like the rest
 * of the seed: applications are found by name; a secret the local file no longer knows is rotated
 * (a real instance shows a secret once — the demo file keeps it so re-runs can print it again).
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { errors, type Forgekit, type ForgekitError, type OAuthApplication } from "@forgekit/core";
import { readDemoSection, writeDemoSection } from "./demo-tokens-file.js";

/** What the OAuth seed uses of an instance. */
export type DemoOAuthServices = Pick<Forgekit, "oauth" | "store" | "config">;

/** Demo passwords (demo only), set for demo users that have no password yet. */
export const DEMO_PASSWORDS: Readonly<Record<string, string>> = { admin: "admin-demo-password", alice: "alice-demo-password", bob: "bob-demo-password" };

/** The demo applications; the loopback redirect URI accepts any port (RFC 8252). */
export const DEMO_APPS = [
  {
    key: "web",
    name: "Demo web app",
    confidential: true,
    redirectUris: ["http://127.0.0.1/callback", "http://localhost:8000/callback"],
    scopes: ["api", "read_user", "read_repository", "openid", "profile", "email"],
  },
  {
    key: "spa",
    name: "Demo single-page app",
    confidential: false,
    redirectUris: ["http://127.0.0.1/callback", "http://localhost:8000/spa/callback"],
    scopes: ["read_user", "openid", "profile"],
  },
] as const;

/** One OAuth application the demo seeds (a confidential and a public one), with its client credentials. */
export interface DemoOAuthApp {
  id: number;
  name: string;
  clientId: string;
  /** Null for the public application (it uses PKCE). */
  clientSecret: string | null;
  confidential: boolean;
  redirectUris: string[];
  scopes: string[];
}

/**
 * What the demo's OAuth seeding left in place: the applications, the demo users' passwords and where the
 * secrets are kept.
 */
export interface DemoOAuthSeed {
  apps: DemoOAuthApp[];
  /** Demo users whose password is the demo password. */
  passwords: { username: string; password: string }[];
  /** Where the demo keeps the client secrets in plaintext (demo only). */
  file: string;
  /** Applications, secrets and passwords this run created. */
  created: number;
}

/** The demo's OAuth file: next to the demo token file. */
export function demoOAuthFile(tokensFile: string): string {
  return join(dirname(tokensFile), "demo-oauth-apps.json");
}

type Secrets = Record<string, { id: number; secret: string }>;

function readSecrets(file: string, database: string): Secrets {
  const apps = readDemoSection(file, database)["apps"];
  return typeof apps === "object" && apps !== null ? (apps as Secrets) : {};
}

function writeSecrets(file: string, database: string, apps: Secrets): void {
  writeDemoSection(file, database, { apps }, "forgekit demo OAuth client secrets: plaintext kept for the local demo only. Never do this for real secrets.");
}

const digest = (secret: string): string => createHash("sha256").update(secret).digest("hex");

async function ensureApp(fk: DemoOAuthServices, spec: (typeof DEMO_APPS)[number], known: Secrets, existing: OAuthApplication[], counter: { created: number }): Promise<Result<DemoOAuthApp, ForgekitError>> {
  const found = existing.find((a) => a.name === spec.name);
  const entry = known[spec.key];
  let app: OAuthApplication;
  let secret: string;
  if (found !== undefined && entry !== undefined && entry.id === found.id && digest(entry.secret) === found.secretDigest) {
    app = found;
    secret = entry.secret;
  } else {
    const result = found === undefined ? await fk.oauth.applications.create({ name: spec.name, confidential: spec.confidential, redirectUris: [...spec.redirectUris], scopes: [...spec.scopes] }) : await fk.oauth.applications.rotateSecret(found.id);
    if (result.isErr()) return err(result.error);
    ({ application: app, clientSecret: secret } = result.value);
    counter.created += 1;
  }
  known[spec.key] = { id: app.id, secret };
  return ok({ id: app.id, name: app.name, clientId: app.uid, clientSecret: app.confidential ? secret : null, confidential: app.confidential, redirectUris: app.redirectUris, scopes: app.scopes });
}

async function run(fk: DemoOAuthServices, users: readonly { id: number; username: string }[], tokensFile: string, database: string): Promise<Result<DemoOAuthSeed, ForgekitError>> {
  const counter = { created: 0 };
  const passwords: DemoOAuthSeed["passwords"] = [];
  for (const { id, username } of users) {
    const password = DEMO_PASSWORDS[username];
    const user = await fk.store.users.findById(id);
    if (password === undefined || user === null) continue;
    if (user.passwordHash === null) {
      await fk.store.users.update(id, { passwordHash: await fk.config.passwordHasher.hash(password) });
      counter.created += 1;
    } else if (!(await fk.config.passwordHasher.verify(user.passwordHash, password))) {
      continue; // Someone changed it: the demo password no longer applies.
    }
    passwords.push({ username, password });
  }
  const file = demoOAuthFile(tokensFile);
  const known = readSecrets(file, database);
  const existing = await fk.oauth.applications.list();
  if (existing.isErr()) return err(existing.error);
  const apps: DemoOAuthApp[] = [];
  for (const spec of DEMO_APPS) {
    const app = await ensureApp(fk, spec, known, existing.value, counter);
    if (app.isErr()) return err(app.error);
    apps.push(app.value);
  }
  writeSecrets(file, database, known);
  return ok({ apps, passwords, file, created: counter.created });
}

/** Seeds (or completes) the demo's OAuth applications and passwords for `users` (the seeded demo users). */
export function seedDemoOAuth(fk: DemoOAuthServices, users: readonly { id: number; username: string }[], tokensFile: string, database: string): ResultAsync<DemoOAuthSeed, ForgekitError> {
  return ResultAsync.fromPromise(run(fk, users, tokensFile, database), (cause) => errors.internal(cause)).andThen((r) => r);
}

/** Banner lines: the applications' credentials, the demo passwords and an authorization URL to try. */
export function demoOAuthLines(baseUrl: string, seed: DemoOAuthSeed): string[] {
  const web = seed.apps.find((a) => a.confidential);
  const lines = [`OAuth applications (demo only; secrets kept in plaintext in ${seed.file}):`];
  for (const app of seed.apps) {
    lines.push(`  ${app.name} (${app.confidential ? "confidential" : "public, PKCE"})`, `    client_id:     ${app.clientId}`);
    if (app.clientSecret !== null) lines.push(`    client_secret: ${app.clientSecret}`);
    lines.push(`    redirect URIs: ${app.redirectUris.join(" ")}   scopes: ${app.scopes.join(" ")}`);
  }
  if (seed.passwords.length > 0) lines.push(`Demo sign-in: ${seed.passwords.map((p) => `${p.username} / ${p.password}`).join(", ")}`);
  if (web !== undefined) {
    const query = new URLSearchParams({ client_id: web.clientId, redirect_uri: web.redirectUris[0] ?? "", response_type: "code", scope: "read_user openid", state: "demo" });
    lines.push("Approve a consent in a browser:", `  ${baseUrl}/oauth/authorize?${query.toString()}`);
  }
  return lines;
}
