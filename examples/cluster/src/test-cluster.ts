/**
 * What the cluster tests share: a PostgreSQL database of their own (dropped afterwards), a
 * redis-server of their own on a free port (so a test may stop and restart it — never the machine's
 * shared Redis), the cluster on both, and the banner's tokens. `why` says why the tests are skipped
 * (no haproxy, redis-server or PostgreSQL).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromUrl } from "@forgekit/store-kysely";
import { Kysely, sql } from "kysely";
import { startCluster, type ClusterOptions, type RunningCluster } from "./cluster.js";

// Creating and dropping a database waits for other sessions of the server (other tests make and drop theirs):
// on a loaded machine that outlasts the store's default 15 s statement timeout.
const ADMIN_LIMITS = { statementTimeoutMs: 170_000, lockTimeoutMs: 170_000 };

const pgUrl = process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? "";
const installed = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Why the cluster tests cannot run here, or null. */
export const why: string | null = !installed("haproxy", ["-v"])
  ? "haproxy is not installed (apt-get install -y haproxy)"
  : !installed("redis-server", ["--version"])
    ? "redis-server is not installed (apt-get install -y redis-server)"
    : pgUrl === ""
      ? "FORGEKIT_TEST_POSTGRES_URL is not set"
      : null;

/** Waits until `check` holds, polling; fails after `limitMs` with `what()`. */
export async function until(check: () => boolean | Promise<boolean>, what: () => string, limitMs = 120_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** A redis-server of the test's own, persisting to its folder (append-only file), so a restart keeps the queues. */
export interface OwnRedis {
  url: string;
  /** Stops it (SIGTERM: it writes its data and exits). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it answers. */
  start(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data: Buffer) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
  });
}

async function ownRedis(dir: string): Promise<OwnRedis> {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always"], { stdio: "ignore" });
    await until(() => answers(port), () => `redis-server on ${port} did not answer`, 30_000);
  };
  const stop = async () => {
    const running = proc;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}/0`, start, stop };
}

/** A started test cluster and what it needs afterwards. */
export interface TestCluster {
  cluster: RunningCluster;
  redis: OwnRedis;
  dir: string;
  /** The database's URL (its own). */
  database: string;
  /** Alice's token (a project owner) and the administrator's, from the banner. */
  token: string;
  adminToken: string;
  /** Runs a query on the cluster's database. */
  db: Kysely<unknown>;
  close(): Promise<void>;
}

/** Creates the database and the Redis server, then starts the cluster on them. */
export async function startTestCluster(label: string, options: Partial<ClusterOptions> = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), `forgekit-${label}-`));
  const name = `forgekit_test_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Kysely<unknown>({ dialect: fromUrl(pgUrl, { postgres: { max: 1, ...ADMIN_LIMITS } }).dialect });
  await sql`create database ${sql.id(name)}`.execute(admin);
  const target = new URL(pgUrl);
  target.pathname = `/${name}`;
  const database = target.toString();
  const db = new Kysely<unknown>({ dialect: fromUrl(database, { postgres: { max: 2 } }).dialect });
  const redis = await ownRedis(join(dir, "redis"));
  /** Stops and removes every part, each even when an earlier one failed; the first failure is thrown at the end. */
  const closeAll = async (cluster?: RunningCluster) => {
    const failures: unknown[] = [];
    const step = async (work: () => unknown) => {
      try {
        await work();
      } catch (error) {
        failures.push(error);
      }
    };
    await step(() => cluster?.stop());
    await step(() => redis.stop());
    await step(() => db.destroy());
    // A drop waits for a checkpoint, which a loaded machine can delay past the store's statement timeout.
    await step(async () => {
      await sql`set statement_timeout = 0`.execute(admin);
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    });
    await step(() => admin.destroy());
    rmSync(dir, { recursive: true, force: true });
    if (failures.length > 0) throw failures[0];
  };
  let cluster: RunningCluster;
  try {
    cluster = await startCluster({ port: 0, database, dataDir: join(dir, "data"), instances: 3, redis: redis.url, redisPrefix: `fk${process.pid}`, ...options });
  } catch (error) {
    // The start's own error is the one to see, not a clean-up failure after it.
    await closeAll().catch(() => undefined);
    throw error;
  }
  const token = /PRIVATE-TOKEN: (\S+)' \S+\/api\/v4\/user/.exec(cluster.banner)?.[1] ?? "";
  const adminToken = /@admin\s+\(admin\)\s+(\S+)/.exec(cluster.banner)?.[1] ?? "";
  return { cluster, redis, dir, database, token, adminToken, db, close: () => closeAll(cluster) };
}
