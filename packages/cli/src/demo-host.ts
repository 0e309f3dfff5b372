/**
 * The demo host the examples run: listen, open the store named by `database`, build an
 * ultimate-tier instance with the host's sign-in sessions in its database, migrate, seed the demo (idempotent),
 * start a worker (background jobs: imports, storage moves, maintenance) and the forge stand-in the
 * banner's import command reads from (demo-import.ts), then hand requests to the framework app the
 * example builds around the instance. Each example only supplies that app (its adapter, its
 * sign-in routes, its own pages).
 */
import { mkdirSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { dirname } from "node:path";
import { createForgekit, type Forgekit, type ForgekitError, type JobRepository, type RateLimiter, type TrustProxy } from "@forgekit/core";
import { fromUrl, kyselyRateLimiter, kyselyStore } from "@forgekit/store-kysely";
import { databaseKey, databaseTarget, demoTokensFile, repositoryStorages, storeLocation, type DatabaseTarget } from "./database.js";
import { explainFailure, maskSecrets } from "./database-problem.js";
import { describeError } from "./describe-error.js";
import { demoBanner } from "./demo-banner.js";
import { checkGit, DEFAULT_DEMO_HOST, reservePort } from "./demo-preflight.js";
import { demoKeyEncryption, forgetDemoKeyFile, type DemoKeyEncryption } from "./key-encryption.js";
import { startDemoImport, type DemoImport } from "./demo-import.js";
import { seedDemo, type DemoSeed } from "./demo-seed.js";
import { withDemoStartLock } from "./demo-lock.js";
import type { HostSessions } from "./demo-sign-in.js";
import { databaseSessions } from "./demo-sessions.js";
import { importJobsBullmq, type JobsBullmqModule } from "./open-instance.js";

/** Options of `startDemoHost`: where to listen, which database to use and the external URL. */
export interface DemoHostOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** postgres://…, mysql://… or an SQLite file path (relative to `cwd`). */
  database: string;
  /** External URL; default `http://localhost:<port>`. */
  baseUrl?: string | undefined;
  /** Directory relative database paths are resolved against (default: the process's). */
  cwd?: string;
  /** Interface to listen on (default 127.0.0.1: this machine only; `0.0.0.0` for every interface). */
  host?: string;
  /**
   * Where FORGEKIT_KEY_ENCRYPTION_KEY / FORGEKIT_KEY_ENCRYPTION_KEY_FILE are read (default
   * `process.env`); without either, the database's key file is used, written on the first start.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Whether this process runs background-job workers (default true). Several instances behind a
   * load balancer may leave them to `forgekit worker` processes instead (issue 22).
   */
  workers?: boolean;
  /** forgekit's `trustProxy` (default false): the proxy hops whose `X-Forwarded-For` names the client. */
  trustProxy?: TrustProxy;
  /**
   * Redis for what every instance shares there (issue 22; env FORGEKIT_REDIS_URL,
   * FORGEKIT_REDIS_PREFIX, FORGEKIT_REDIS_UNAVAILABLE): background jobs on BullMQ and the password /
   * client-authentication throttle on `redisRateLimiter` (needs `@forgekit/jobs-bullmq`). While Redis
   * cannot be reached the throttle follows `whenUnavailable` (default `memory`: each instance counts
   * alone; `closed`: every throttled attempt is refused; `open`: nothing is counted).
   */
  redis?: { url: string; prefix?: string | undefined; whenUnavailable?: "memory" | "closed" | "open" | undefined };
  /** How `@forgekit/jobs-bullmq` is loaded (default: import by name). */
  loadJobsBullmq?: () => Promise<JobsBullmqModule>;
}

/** The demo's password and client-authentication throttle: counted in the database, shared by every instance. */
const DEMO_RATE_LIMIT = { maxFailures: 10, windowSeconds: 300 };

/** A demo host that is listening: its URL, the seeded demo data, the start-up banner, and `close()`. */
export interface RunningDemoHost {
  baseUrl: string;
  seed: DemoSeed;
  /** What to print at start-up: URL, tokens, OAuth applications, curl commands, the import command. */
  banner: string;
  /** The forge stand-in and the import command the banner prints (`unavailable`: why there is none). */
  demoImport: DemoImport | { unavailable: string };
  close(): Promise<void>;
}

/** Builds the host's request listener once the instance exists. */
export type DemoApp = (fk: Forgekit, sessions: HostSessions) => RequestListener;

/** Why the demo host could not start: `message` is the cause, then `hint: …` on its own line. */
export interface DemoStartError extends Error {
  /** What to do about it, when the failure is a known database problem. */
  readonly hint: string | undefined;
}

/**
 * The error startDemoHost rejects with for a failure at `stage`: a database problem explained
 * (cause, then the hint), else `fallback` (the failure's own description); secrets masked either way.
 */
function startError(stage: string, cause: unknown, fallback: string, target: DatabaseTarget): DemoStartError {
  const problem = explainFailure(cause, target);
  const detail = problem !== undefined ? `${problem.cause}\nhint: ${problem.hint}` : maskSecrets(fallback, target);
  const error = new Error(`${stage} failed: ${detail}`, { cause }) as Error & { hint: string | undefined };
  error.name = "DemoStartError";
  error.hint = problem?.hint;
  return error;
}

/** startError for a service's ForgekitError: its cause is what failed in the store. */
const serviceStartError = (stage: string, error: ForgekitError, target: DatabaseTarget): DemoStartError =>
  startError(stage, error.code === "internal" || error.code === "unavailable" ? error.cause : undefined, describeError(error), target);

/**
 * Starts the demo host; rejects with a {@link DemoStartError} when the database cannot be opened,
 * migrated or seeded, saying why and what to do (`createdb …`, `is the server running on …?`).
 */
export async function startDemoHost(options: DemoHostOptions, buildApp: DemoApp): Promise<RunningDemoHost> {
  const cwd = options.cwd ?? process.cwd();
  const target = databaseTarget(options.database, cwd);
  const host = options.host ?? DEFAULT_DEMO_HOST;
  // Before the database is touched: a start that cannot succeed leaves nothing migrated behind.
  // Listening waits until the instance is ready, so nothing ever answers "starting" (503); the
  // port is checked (and 0 resolved to a free one, since the base URL needs it) first.
  await checkGit();
  const port = await reservePort(options.port, host);
  if (target.kind === "sqlite" && target.path !== ":memory:") {
    try {
      mkdirSync(dirname(target.path), { recursive: true });
    } catch (error) {
      throw startError("opening the database", error, error instanceof Error ? error.message : String(error), target);
    }
  }

  let keys: DemoKeyEncryption;
  try {
    keys = demoKeyEncryption(options.env ?? process.env, target, cwd);
  } catch (error) {
    throw startError("reading the key-encryption key", undefined, error instanceof Error ? error.message : String(error), target);
  }

  // With Redis: jobs on BullMQ and the throttle on redisRateLimiter, from the companion package (loaded before anything is opened).
  let companion: (JobsBullmqModule & { redisRateLimiter: NonNullable<JobsBullmqModule["redisRateLimiter"]> }) | undefined;
  if (options.redis !== undefined) {
    const loaded = await (options.loadJobsBullmq ?? importJobsBullmq)().catch((error: unknown) => {
      throw startError("loading @forgekit/jobs-bullmq", undefined, error instanceof Error ? error.message : String(error), target);
    });
    const { redisRateLimiter } = loaded;
    if (redisRateLimiter === undefined) throw startError("loading @forgekit/jobs-bullmq", undefined, "this version of @forgekit/jobs-bullmq has no redisRateLimiter", target);
    companion = { ...loaded, redisRateLimiter };
  }

  const baseUrl = options.baseUrl ?? `http://localhost:${port}`;
  const store = kyselyStore(fromUrl(storeLocation(target)));
  // Sign-in sessions in the database: every instance on it sees them (demo-sessions.ts).
  const sessions = databaseSessions(storeLocation(target));
  let rateLimiter: RateLimiter & { close(): Promise<void> };
  let jobs: (JobRepository & { close(): Promise<void> }) | undefined;
  if (companion === undefined || options.redis === undefined) {
    rateLimiter = kyselyRateLimiter(fromUrl(storeLocation(target), { postgres: { max: 2 }, mysql: { connectionLimit: 2 } }), DEMO_RATE_LIMIT);
  } else {
    const prefix = options.redis.prefix ?? "forgekit";
    jobs = companion.bullmqJobs({ connection: options.redis.url, prefix });
    rateLimiter = companion.redisRateLimiter({ connection: options.redis.url, keyPrefix: `${prefix}:rl`, ...DEMO_RATE_LIMIT, whenUnavailable: options.redis.whenUnavailable ?? "memory" });
  }
  let server: Server | undefined;
  let fk: Forgekit | undefined;
  let demoImport: DemoImport | undefined;
  // Each part is closed even when an earlier one failed (the store last, so nothing writes after it);
  // the first failure is rethrown at the end, so `runDemoMain` reports it and exits non-zero.
  const close = async () => {
    const failures: unknown[] = [];
    const part = async (work: () => Promise<void> | undefined) => {
      try {
        await work();
      } catch (error) {
        failures.push(error);
      }
    };
    await part(async () => {
      if (server === undefined) return;
      // Idle keep-alive connections would hold close() open; requests in flight still finish.
      const closing = server;
      const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
      closing.closeIdleConnections();
      await closed;
    });
    // A running import is handed back to the queue (it resumes at its checkpoint on the next start).
    await part(() => (fk?.workers.running === true ? fk.workers.stop({ timeoutMs: 5000 }) : undefined));
    await part(() => demoImport?.close());
    await part(() => sessions.close());
    await part(() => rateLimiter.close());
    await part(() => jobs?.close());
    await part(() => store.close());
    if (failures.length > 0) throw failures[0];
  };
  try {
    // The demo shows every capability, tier-limited ones included.
    // Two shards (`default`, `secondary`) under repositories/ next to the database, so storage moves have somewhere to go.
    // Imports may reach 127.0.0.1: the banner's import command reads from the forge stand-in there.
    const instance = createForgekit({ baseUrl, store, session: sessions, rateLimiter, trustProxy: options.trustProxy ?? false, tier: "ultimate", repositoryStorages: repositoryStorages(target, cwd), ...(jobs === undefined ? {} : { jobs }), imports: { allowLocalNetwork: true }, oauth: { rateLimit: DEMO_RATE_LIMIT, ...(keys.keyEncryption === undefined ? {} : { keyEncryption: keys.keyEncryption }) } });
    fk = instance;
    const tokensFile = demoTokensFile(target, cwd);
    // Instances started at the same moment on one database take turns (demo-lock.ts).
    const seeded = await withDemoStartLock(target, async () => {
      const migrated = await instance.migrate();
      if (migrated.isErr()) throw serviceStartError("migration", migrated.error, target);
      await sessions.prepare();
      const seed = await seedDemo(instance, { tokensFile, database: databaseKey(target) });
      if (seed.isErr()) throw serviceStartError("demo seed", seed.error, target);
      return seed.value;
    }).catch((error: unknown) => {
      throw (error as Error).name === "DemoStartError" ? error : startError("taking the start-up lock", error, error instanceof Error ? error.message : String(error), target);
    });
    const alice = seeded.users.find((u) => u.username === "alice");
    const aliceEmail = alice === undefined ? null : await store.emails.primaryFor(alice.id);
    const imported = await startDemoImport(instance, baseUrl, alice?.token ?? "", aliceEmail?.email ?? "alice@example.com");
    if (!("unavailable" in imported)) demoImport = imported;
    // The worker runs the imports (and storage moves, maintenance) in this process.
    if (options.workers !== false) {
      const started = instance.workers.start({ pollIntervalMs: 250 });
      if (started.isErr()) throw new Error(`starting the worker failed: ${describeError(started.error)}`);
    }
    const listening = createServer(buildApp(instance, sessions));
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen({ port, host }, () => resolve());
    });
    server = listening;
    return { baseUrl, seed: seeded, banner: demoBanner(baseUrl, seeded, tokensFile, imported, host), demoImport: imported, close };
  } catch (error) {
    await close();
    // A database problem (unreachable, missing, wrong password): nothing was encrypted with a new key.
    if (keys.written !== undefined && (error as Partial<DemoStartError>).hint !== undefined) forgetDemoKeyFile(keys.written);
    throw error;
  }
}

/** FORGEKIT_TRUST_PROXY: `true`, a number of hops, or a comma-separated list of addresses and CIDR ranges. */
function trustProxyFrom(value: string | undefined): TrustProxy | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

/** FORGEKIT_REDIS_UNAVAILABLE: what the throttle does while Redis is away (see DemoHostOptions.redis). */
function unavailablePolicy(value: string | undefined): "memory" | "closed" | "open" | undefined {
  if (value === undefined || value === "memory" || value === "closed" || value === "open") return value;
  console.error(`FORGEKIT_REDIS_UNAVAILABLE must be memory, closed or open, got "${value}"`);
  process.exit(2);
}

/**
 * The examples' `main`: reads PORT (default 3000), HOST (default 127.0.0.1), DATABASE_URL (default
 * `defaultDatabase`), FORGEKIT_BASE_URL, FORGEKIT_WORKERS (`false`: no workers in this process),
 * FORGEKIT_TRUST_PROXY (see `trustProxyFrom`), FORGEKIT_REDIS_URL / FORGEKIT_REDIS_PREFIX /
 * FORGEKIT_REDIS_UNAVAILABLE (jobs and the throttle on Redis) and the key-encryption key variables,
 * starts, prints the banner, and stops on SIGINT / SIGTERM.
 */
export async function runDemoMain(start: (options: DemoHostOptions) => Promise<RunningDemoHost>, defaultDatabase: string): Promise<void> {
  const env = (name: string): string | undefined => (process.env[name] === "" ? undefined : process.env[name]);
  const port = Number(env("PORT") ?? "3000");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer 0-65535, got "${process.env["PORT"]}"`);
    process.exit(2);
  }
  const host = env("HOST");
  const trustProxy = trustProxyFrom(env("FORGEKIT_TRUST_PROXY"));
  const workers = env("FORGEKIT_WORKERS") !== "false";
  const redisUrl = env("FORGEKIT_REDIS_URL");
  const redis = redisUrl === undefined ? undefined : { url: redisUrl, prefix: env("FORGEKIT_REDIS_PREFIX"), whenUnavailable: unavailablePolicy(env("FORGEKIT_REDIS_UNAVAILABLE")) };
  const running = await start({ port, database: env("DATABASE_URL") ?? defaultDatabase, baseUrl: env("FORGEKIT_BASE_URL"), workers, ...(redis === undefined ? {} : { redis }), ...(trustProxy === undefined ? {} : { trustProxy }), ...(host === undefined ? {} : { host }) }).catch((error: unknown) => {
    console.error(`forgekit example failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  console.log(running.banner);
  const stop = () =>
    void running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`forgekit example: stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exit(1);
      },
    );
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
