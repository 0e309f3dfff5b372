/**
 * Token endpoint throughput, refresh grant with rotation (issue 3 "Tests and measurements"):
 * forgekit through adapter-koa — on the in-memory store and on SQLite — side by side in one run
 * with oidc-provider 8 (itself a koa app, its default in-memory adapter) doing the same grant:
 * client authentication by `client_secret_post` and a rotated refresh token in every response.
 * Measured twice: without an id_token (the grant itself) and with an RS256 id_token (`openid`:
 * both sign one per response). Each connection follows its own token chain, as a client does.
 * The same forgekit contender also runs on PostgreSQL when FORGEKIT_BENCH_POSTGRES_URL or
 * FORGEKIT_TEST_POSTGRES_URL names a server (a fresh schema, dropped afterwards).
 * Issue 12 rows: forgekit on SQLite (durable: WAL, `synchronous = NORMAL`, the store's default)
 * ≥ 1.5× oidc-provider on its in-memory adapter; forgekit's memory store ≥ 3×.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgekit as koaForgekit } from "../packages/adapter-koa/src/index.js";
import { createForgekit, type Forgekit } from "../packages/core/src/index.js";
import type { Store } from "../packages/core/src/ports/store.js";
import { memoryStore } from "../packages/core/src/memory-store/index.js";
import { kyselyStore, postgres, sqlite } from "../packages/store-kysely/src/index.js";
import { refreshLoad } from "./_oauth-load.js";

export interface OAuthTokenBenchOptions {
  /** Concurrent token chains (default 32). */
  connections?: number;
  warmupMs?: number;
  durationMs?: number;
  /** Interleaved rounds; each server's best counts (default 3). */
  rounds?: number;
  print?: (line: string) => void;
  /** PostgreSQL server for the same measurement (default: FORGEKIT_BENCH_POSTGRES_URL, else FORGEKIT_TEST_POSTGRES_URL); null skips it. */
  postgresUrl?: string | null;
}

/** A server under test and how to start `n` fresh refresh-token chains on it. */
export interface Contender {
  name: string;
  listener: RequestListener;
  form: Record<string, string>;
  freshTokens(n: number): Promise<string[]>;
  close(): Promise<void>;
}

type KoaApp = { use(mw: unknown): void; callback(): RequestListener };
const Koa = createRequire(new URL("../packages/adapter-koa/package.json", import.meta.url))("koa") as new () => KoaApp;

const REDIRECT = "https://app.example/cb";
const form = (body: Record<string, string>) => new TextEncoder().encode(new URLSearchParams(body).toString());

/** forgekit on `store`, mounted with adapter-koa; chains begin with the code grant of a trusted app. */
export async function forgekitContender(name: string, store: Store, idToken: boolean): Promise<Contender> {
  let userId = 0;
  const fk: Forgekit = createForgekit({ baseUrl: "http://127.0.0.1", store, session: { resolve: () => Promise.resolve(userId) }, logger: { log: () => undefined } });
  (await fk.migrate())._unsafeUnwrap();
  userId = (await fk.users.create({ username: "bench", name: "Bench", email: "bench@example.com" }))._unsafeUnwrap().id;
  const app = (await fk.oauth.applications.create({ name: "Bench", redirectUris: [REDIRECT], scopes: ["openid", "api"], trusted: true }))._unsafeUnwrap();
  const client = { client_id: app.application.uid, client_secret: app.clientSecret };
  const koa = new Koa();
  koa.use(koaForgekit(fk));
  const oneChain = async (): Promise<string> => {
    const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: REDIRECT, response_type: "code", scope: idToken ? "openid api" : "api" }).toString();
    const authorized = await fk.handle({ method: "GET", path: "/oauth/authorize", rawQuery: query, headers: { cookie: "_service_session=bench" } });
    const code = new URL(authorized.headers["Location"]!).searchParams.get("code")!;
    const body = form({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, ...client });
    const tokens = await fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    return (JSON.parse(String(tokens.body)) as { refresh_token: string }).refresh_token;
  };
  return {
    name,
    listener: koa.callback(),
    form: client,
    freshTokens: (n) => Promise.all(Array.from({ length: n }, oneChain)),
    close: async () => void (await fk.close()),
  };
}

/** oidc-provider (koa) with one confidential client; chains begin with refresh tokens minted through its models. */
export async function oidcProviderContender(idToken: boolean): Promise<Contender> {
  // oidc-provider 8 ships no type declarations: imported by a computed name, typed below.
  const specifier = "oidc-provider";
  const { default: Provider } = (await import(specifier)) as { default: new (issuer: string, config: object) => OidcProvider };
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const client = { client_id: "bench", client_secret: "bench-client-secret-0123456789abcdef" };
  const provider = new Provider("http://127.0.0.1", {
    clients: [{ ...client, grant_types: ["authorization_code", "refresh_token"], redirect_uris: [REDIRECT], response_types: ["code"], token_endpoint_auth_method: "client_secret_post" }],
    jwks: { keys: [{ ...key, alg: "RS256", use: "sig", kid: "bench" }] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    rotateRefreshToken: true,
    routes: { token: "/oauth/token" },
    ttl: { AccessToken: 7200, IdToken: 3600, RefreshToken: 90 * 86_400, Grant: 365 * 86_400 },
    cookies: { keys: ["bench-cookie-key"] },
    features: { devInteractions: { enabled: false } },
  });
  const registered = await provider.Client.find("bench");
  const oneChain = async (): Promise<string> => {
    const grant = new provider.Grant({ accountId: "bench-user", clientId: "bench" });
    const scope = idToken ? "openid offline_access" : "offline_access";
    grant.addOIDCScope(scope);
    const grantId = await grant.save();
    const token = new provider.RefreshToken({ client: registered, accountId: "bench-user", grantId, scope, gty: "authorization_code" });
    return token.save();
  };
  return { name: "oidc-provider", listener: provider.callback(), form: client, freshTokens: (n) => Promise.all(Array.from({ length: n }, oneChain)), close: () => Promise.resolve() };
}

interface OidcProvider {
  callback(): RequestListener;
  Client: { find(id: string): Promise<unknown> };
  Grant: new (input: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
  RefreshToken: new (input: Record<string, unknown>) => { save(): Promise<string> };
}

function listen(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port })));
}

const MEMORY = "forgekit (adapter-koa, memory store)";
const SQLITE = "forgekit (adapter-koa, SQLite)";
const POSTGRES = "forgekit (adapter-koa, PostgreSQL)";
const OIDC = "oidc-provider";

type PgPool = { query(text: string): Promise<unknown>; end(): Promise<void> };
const pg = createRequire(new URL("../packages/store-kysely/package.json", import.meta.url))("pg") as { Pool: new (config: { connectionString: string; max: number }) => PgPool };

/** One issue-12 row: `<row>: <value> (goal ≥ <goal>) met|MISSED`. */
export function goalRow(row: string, value: number, goal: number): string {
  return `${row}: ${value.toFixed(2)}× (goal ≥ ${goal}×) ${value >= goal ? "met" : "MISSED"}`;
}

/** Best requests/s of each contender over interleaved rounds. */
export async function measure(contenders: Contender[], options: OAuthTokenBenchOptions, label: string): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const connections = options.connections ?? 32;
  const running = await Promise.all(contenders.map(async (c) => ({ contender: c, ...(await listen(c.listener)) })));
  const best: Record<string, number> = {};
  try {
    print(`POST /oauth/token grant_type=refresh_token, ${label}, ${connections} token chains:`);
    for (let round = 1; round <= (options.rounds ?? 3); round++) {
      for (const { contender, port } of running) {
        const result = await refreshLoad({
          port,
          path: "/oauth/token",
          refreshTokens: await contender.freshTokens(connections),
          form: contender.form,
          warmupMs: options.warmupMs ?? 300,
          durationMs: options.durationMs ?? 1500,
        });
        if (result.badStatus > 0 || result.socketErrors > 0) throw new Error(`${contender.name}: ${result.badStatus} bad answers, ${result.socketErrors} socket errors`);
        print(`  round ${round} ${contender.name.padEnd(38)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s`);
        best[contender.name] = Math.max(best[contender.name] ?? 0, result.requestsPerSecond);
      }
    }
  } finally {
    for (const { server } of running) {
      server.closeAllConnections();
      server.close();
    }
    for (const c of contenders) await c.close();
  }
  return best;
}

/** The benchmark: requests/s (best of the interleaved rounds) per server and scenario, and the ratios. */
export async function benchOAuthToken(options: OAuthTokenBenchOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const postgresUrl = options.postgresUrl === undefined ? (process.env["FORGEKIT_BENCH_POSTGRES_URL"] ?? process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? null) : options.postgresUrl;
  const dir = mkdtempSync(join(tmpdir(), "forgekit-bench-oauth-"));
  const pool = postgresUrl === null || postgresUrl === "" ? null : new pg.Pool({ connectionString: postgresUrl, max: 2 });
  const schemas: string[] = [];
  const out: Record<string, number> = {};
  const rows: string[] = [];
  try {
    for (const idToken of [false, true]) {
      const label = idToken ? "with id_token" : "no id_token";
      const contenders = [
        await forgekitContender(MEMORY, memoryStore(), idToken),
        await forgekitContender(SQLITE, kyselyStore(sqlite(join(dir, `bench-${label.replace(/\W/g, "")}.db`))), idToken),
      ];
      if (pool !== null && postgresUrl !== null) {
        const schema = `forgekit_bench_oauth_${process.pid}_${idToken ? "idt" : "plain"}`;
        schemas.push(schema);
        contenders.push(await forgekitContender(POSTGRES, kyselyStore(postgres(postgresUrl, { schema })), idToken));
      }
      contenders.push(await oidcProviderContender(idToken));
      const best = await measure(contenders, options, label);
      for (const [name, rps] of Object.entries(best)) out[`${name} [${label}]`] = rps;
      const oidc = best[OIDC] ?? 1;
      const ratios: [string, string, number][] = [
        [SQLITE, `refresh grant, forgekit on SQLite / oidc-provider in-memory [${label}]`, 1.5],
        [MEMORY, `refresh grant, forgekit memory store / oidc-provider [${label}]`, 3],
        ...(pool === null ? [] : ([[POSTGRES, `refresh grant, forgekit on PostgreSQL / oidc-provider in-memory [${label}]`, 1.5]] as [string, string, number][])),
      ];
      for (const [name, row, goal] of ratios) {
        const value = (best[name] ?? 0) / oidc;
        out[`${row} (goal ≥ ${goal})`] = value;
        rows.push(goalRow(row, value, goal));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pool !== null) {
      for (const schema of schemas) await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    }
  }
  if (pool === null) rows.push("refresh grant on PostgreSQL: skipped (set FORGEKIT_BENCH_POSTGRES_URL or FORGEKIT_TEST_POSTGRES_URL to a local server)");
  print("issue 12 rows (token endpoint):");
  for (const row of rows) print(`  ${row}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  console.log(await benchOAuthToken());
}
