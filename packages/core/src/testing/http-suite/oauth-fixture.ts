/**
 * The world of the OAuth HTTP suites: a seeded instance (createTestForgekit) with host sessions,
 * registered applications, a captured log, and a ledger of every secret the suite saw issued or
 * sent (client secrets, codes, tokens, passwords) — so each suite can prove none reached the logs
 * (checklist H3). Helpers walk the authorization flow through the real endpoints.
 */
import { expect } from "vitest";
import type { OAuthApplication } from "../../ports/oauth-store.js";
import type { LogLevel } from "../../ports/runtime.js";
import { createTestForgekit, must, type TestForgekit, type TestForgekitOptions } from "../fixtures.js";
import type { HttpHarness, HttpResult, RequestOptions } from "../http-harness.js";
import { TEST_CHALLENGE, TEST_VERIFIER } from "../oauth-memory-store/flows.js";

export { TEST_CHALLENGE, TEST_VERIFIER };

/** A registered application and its plaintext secret. */
export interface RegisteredApp {
  app: OAuthApplication;
  secret: string;
  redirectUri: string;
}

export interface LogEntry {
  level: LogLevel;
  event: string;
  fields?: Record<string, unknown>;
}

/**
 * The instance the OAuth suites share: a confidential and a public application, signed-in users' cookies,
 * and the logs (which must never hold a secret).
 */
export interface OAuthWorld {
  t: TestForgekit;
  h: HttpHarness;
  logs: LogEntry[];
  /** Every secret seen: never allowed in `logs`. */
  secrets: Set<string>;
  /** Confidential web app (`api read_user openid profile email read_repository`), redirect `https://app.example/cb`. */
  web: RegisteredApp;
  /** Public app (PKCE), loopback redirect `http://127.0.0.1/callback`, `api read_user openid`. */
  spa: RegisteredApp;
  /** Cookie header of a signed-in user (by username). */
  cookie(username: string): string;
  /** `h.request` that records secrets found in the response (tokens, codes, secrets). */
  call(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /** POSTs a form (`application/x-www-form-urlencoded`), recording secrets it carries. */
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<HttpResult>;
  register(input: { name?: string; redirectUris?: string[]; scopes?: string[]; confidential?: boolean; trusted?: boolean; ropcEnabled?: boolean }): Promise<RegisteredApp>;
}


/** Values in a response that are secrets. */
function harvest(r: HttpResult, into: Set<string>): void {
  const json = r.json;
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    for (const key of ["access_token", "refresh_token", "id_token", "secret"]) {
      const v = (json as Record<string, unknown>)[key];
      if (typeof v === "string") into.add(v);
    }
  }
  const location = r.headers.location;
  if (location !== undefined) {
    const code = new URL(location, "https://placeholder.invalid").searchParams.get("code");
    if (code !== null) into.add(code);
  }
}

/** Builds the world and serves it on `h`. Call in `beforeAll`. */
export async function oauthWorld(h: HttpHarness, options: TestForgekitOptions = {}): Promise<OAuthWorld> {
  const logs: LogEntry[] = [];
  const secrets = new Set<string>(["root-password", "alice-password", "bob-password"]);
  let store: TestForgekit["store"] | null = null;
  const t = await createTestForgekit({
    logger: { log: (level, event, fields) => void logs.push({ level, event, ...(fields === undefined ? {} : { fields }) }) },
    session: {
      // `sess-<username>` is that user's session; anything else is signed out.
      resolve: async (cookie) => {
        if (!cookie.startsWith("sess-") || store === null) return null;
        return (await store.users.findByUsername(cookie.slice(5)))?.id ?? null;
      },
    },
    ...options,
  });
  store = t.store;
  for (const token of Object.values(t.tokens)) secrets.add(token);
  const register: OAuthWorld["register"] = async (input) => {
    const redirectUris = input.redirectUris ?? ["https://app.example/cb"];
    const { application, clientSecret } = await must(
      t.fk.oauth.applications.create({
        name: input.name ?? "Test app",
        redirectUris,
        scopes: input.scopes ?? ["api", "read_user", "openid"],
        confidential: input.confidential ?? true,
        trusted: input.trusted ?? false,
        ropcEnabled: input.ropcEnabled ?? false,
      }),
    );
    secrets.add(clientSecret);
    return { app: application, secret: clientSecret, redirectUri: redirectUris[0]! };
  };
  const call: OAuthWorld["call"] = async (method, path, options) => {
    const r = await h.request(method, path, options);
    harvest(r, secrets);
    return r;
  };
  const post: OAuthWorld["post"] = (path, form, headers = {}) => {
    for (const key of ["client_secret", "code", "refresh_token", "password", "code_verifier", "token"]) if (form[key] !== undefined) secrets.add(form[key]);
    return call("POST", path, { headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() });
  };
  const web = await register({ name: "Web App", scopes: ["api", "read_user", "openid", "profile", "email", "read_repository"] });
  const spa = await register({ name: "Single Page", confidential: false, redirectUris: ["http://127.0.0.1/callback"] });
  await h.serve(t.fk);
  return { t, h, logs, secrets, web, spa, cookie: (username) => `_service_session=sess-${username}`, call, post, register };
}

/** The authorization request query for `app` (PKCE for public apps unless `pkce` says otherwise). */
export function authorizeQuery(app: RegisteredApp, extra: Record<string, string> = {}, pkce = !app.app.confidential): Record<string, string> {
  return {
    client_id: app.app.uid,
    redirect_uri: app.redirectUri,
    response_type: "code",
    state: "st-1",
    ...(pkce ? { code_challenge: TEST_CHALLENGE, code_challenge_method: "S256" } : {}),
    ...extra,
  };
}

/** The hidden fields of a rendered consent form. */
export function consentFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescape(m[1]!)] = unescape(m[2]!);
  return fields;
}

/** Signs in as `user`, opens the consent page and approves (or denies); returns the 302 response. */
export async function consent(w: OAuthWorld, app: RegisteredApp, decision: "approve" | "deny" = "approve", extra: Record<string, string> = {}, user: string = "alice"): Promise<HttpResult> {
  const page = await w.call("GET", "/oauth/authorize", { query: authorizeQuery(app, extra), headers: { cookie: w.cookie(user) } });
  expect(page.status, page.text).toBe(200);
  return w.post("/oauth/authorize", { ...consentFields(page.text), decision }, { cookie: w.cookie(user) });
}

/** Runs the flow up to the code (approved by `user`). */
export async function obtainHttpCode(w: OAuthWorld, app: RegisteredApp, extra: Record<string, string> = {}, user: string = "alice"): Promise<string> {
  const r = await consent(w, app, "approve", extra, user);
  expect(r.status).toBe(302);
  const code = new URL(r.headers.location!).searchParams.get("code");
  if (code === null) throw new Error(`no code in ${r.headers.location ?? "(no location)"}`);
  return code;
}

/** Client credentials as form fields (public apps send only their id). */
export function clientFields(app: RegisteredApp): Record<string, string> {
  return app.app.confidential ? { client_id: app.app.uid, client_secret: app.secret } : { client_id: app.app.uid };
}

/** Code exchanged at the token endpoint; returns the parsed token response. */
export async function obtainHttpTokens(w: OAuthWorld, app: RegisteredApp, extra: Record<string, string> = {}, user: string = "alice"): Promise<Record<string, unknown>> {
  const code = await obtainHttpCode(w, app, extra, user);
  const pkce: Record<string, string> = app.app.confidential ? {} : { code_verifier: TEST_VERIFIER };
  const r = await w.post("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, ...clientFields(app), ...pkce });
  expect(r.status, r.text).toBe(200);
  return r.json as Record<string, unknown>;
}

/** Every secret the world recorded that occurs in the captured log (serialised as JSON). */
export function leakedSecrets(logs: readonly LogEntry[], secrets: ReadonlySet<string>): string[] {
  const text = logs.map((entry) => JSON.stringify(entry)).join("\n");
  return [...secrets].filter((secret) => secret.length >= 8 && text.includes(secret));
}

/** The last test of every OAuth suite: nothing the suite issued or sent is in the log it captured. */
export function expectNoSecretsLogged(w: OAuthWorld): void {
  expect(w.logs.length).toBeGreaterThan(0);
  expect(w.secrets.size).toBeGreaterThan(5);
  expect(leakedSecrets(w.logs, w.secrets)).toEqual([]);
}
