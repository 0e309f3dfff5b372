/**
 * The example cluster (issue 22): N instances of the express example on one PostgreSQL database and
 * one data folder (repository shards, demo files), their workers left to one `forgekit worker`
 * process, and HAProxy round-robin in front (trusted for one X-Forwarded-For hop). Every part is a
 * child process; `stop()` ends them all.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Options of `startCluster`. */
export interface ClusterOptions {
  /** The proxy's port (0 picks a free one). */
  port: number;
  /** A PostgreSQL (or MySQL) URL of an existing database. */
  database: string;
  /** The shared data folder (working directory of every part). */
  dataDir: string;
  /** Instances behind the proxy (default 3). */
  instances?: number;
  /**
   * A `redis://` URL: jobs on BullMQ and the throttle on `redisRateLimiter` there (FORGEKIT_REDIS_URL
   * of every part); without it, both live in the database.
   */
  redis?: string;
  /** Prefix of every Redis key (FORGEKIT_REDIS_PREFIX, default `forgekit`). */
  redisPrefix?: string;
  /** The throttle while Redis is away (FORGEKIT_REDIS_UNAVAILABLE: `memory` (default), `closed`, `open`). */
  whenRedisUnavailable?: "memory" | "closed" | "open";
  /** The workers' `--lease` (default 60000 ms): how long a killed worker's job waits before another takes it over. */
  workerLeaseMs?: number;
  /**
   * The key-encryption key every part shares (FORGEKIT_KEY_ENCRYPTION_KEY, `<keyId>:<key>`): what one
   * instance encrypts (an import's credentials, OAuth keys) another instance or the worker must read.
   * Default: the one in the data folder's `cluster-key-encryption-key`, made before any part starts.
   * (Left to each part, they raced to write a key file, and a worker that started first ran imports
   * without any key.)
   */
  keyEncryptionKey?: string;
}

/** A `forgekit worker` process of the cluster. */
export interface ClusterWorker {
  process: ChildProcess;
  output: () => string;
}

/** A running cluster: the proxy URL, what the first instance printed, each part, and `stop()`. */
export interface RunningCluster {
  url: string;
  banner: string;
  instances: { port: number; process: ChildProcess; output: () => string }[];
  /** The first worker's process (`workers` holds every one). */
  worker: ChildProcess;
  workers: ClusterWorker[];
  /** Starts one more `forgekit worker` process (stopped with the rest). */
  startWorker(): ClusterWorker;
  proxy: ChildProcess;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, "..", "..", "..");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function child(command: string, args: string[], cwd: string, env: Record<string, string>): { process: ChildProcess; output: () => string } {
  const proc = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  proc.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { process: proc, output: () => output };
}

async function until(check: () => boolean | Promise<boolean>, what: () => string, limitMs = 300_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** HAProxy's configuration: round-robin over the instances, X-Forwarded-For added. */
export function haproxyConfig(port: number, instancePorts: number[]): string {
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 5s",
    "  timeout client 300s",
    "  timeout server 300s",
    "  option forwardfor",
    "  option redispatch",
    "  retries 3",
    "frontend forgekit",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    ...instancePorts.map((p, i) => `  server instance${i + 1} 127.0.0.1:${p} check inter 1s fall 2 rise 1`),
    "",
  ].join("\n");
}

/** The data folder's key-encryption key (`<keyId>:<key>`), made on the first start. */
function clusterKey(dataDir: string): string {
  const file = join(dataDir, "cluster-key-encryption-key");
  if (!existsSync(file)) writeFileSync(file, `cluster:${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

/** Starts every part and resolves once the proxy serves the API. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  mkdirSync(options.dataDir, { recursive: true });
  const port = options.port === 0 ? await freePort() : options.port;
  const url = `http://localhost:${port}`;
  // tsx as a loader inside the one node process (not the tsx CLI, which runs the server in a child):
  // a kill -9 of an instance then kills its server.
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "loader.mjs")).href;
  const main = join(root, "examples", "express-sqlite", "src", "main.ts");
  const count = options.instances ?? 3;
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const redis: Record<string, string> = options.redis === undefined ? {} : { FORGEKIT_REDIS_URL: options.redis, FORGEKIT_REDIS_PREFIX: options.redisPrefix ?? "forgekit", FORGEKIT_REDIS_UNAVAILABLE: options.whenRedisUnavailable ?? "memory" };
  const keys = { FORGEKIT_KEY_ENCRYPTION_KEY: options.keyEncryptionKey ?? clusterKey(options.dataDir) };
  const common = { DATABASE_URL: options.database, FORGEKIT_BASE_URL: url, FORGEKIT_WORKERS: "false", FORGEKIT_TRUST_PROXY: "1", HOST: "127.0.0.1", ...redis, ...keys };
  const instances = ports.map((p) => ({ port: p, ...child(process.execPath, ["--import", tsx, "--conditions=@forgekit/source", main], options.dataDir, { ...common, PORT: String(p) }) }));
  const workers: ClusterWorker[] = [];
  const workerArgs = [join(root, "tools", "forgekit.mjs"), "worker", "--database", options.database, "--poll-interval", "250", "--lease", String(options.workerLeaseMs ?? 60_000)];
  const startWorker = (): ClusterWorker => {
    // The demo servers import from the demo's local stand-in forge; the worker running those imports must allow it too.
    const started = child(process.execPath, workerArgs, options.dataDir, { ...redis, ...keys, FORGEKIT_IMPORTS_ALLOW_LOCAL_NETWORK: "true" });
    workers.push(started);
    all.push(started.process);
    return started;
  };
  const config = join(options.dataDir, "haproxy.cfg");
  writeFileSync(config, haproxyConfig(port, ports));
  const proxy = child("haproxy", ["-f", config, "-db"], options.dataDir, {});
  const all = [...instances.map((i) => i.process), proxy.process];
  const worker = startWorker();
  const stop = async () => {
    await Promise.all(
      all.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) return resolve();
            p.once("exit", () => resolve());
            p.kill("SIGTERM");
          }),
      ),
    );
  };
  try {
    const describeAll = () => [...instances.map((i, n) => `instance ${n + 1}:\n${i.output()}`), `worker:\n${worker.output()}`, `haproxy:\n${proxy.output()}`].join("\n----\n");
    await until(() => instances.every((i) => /Try:[\s\S]*git clone/.test(i.output())) || all.some((p) => p.exitCode !== null), describeAll);
    if (all.some((p) => p.exitCode !== null)) throw new Error(`a part of the cluster exited:\n${describeAll()}`);
    await until(async () => (await fetch(`${url}/api/v4/projects`).then((r) => r.status, () => 0)) === 200, () => `the proxy did not answer:\n${describeAll()}`);
    return { url, banner: instances[0]?.output() ?? "", instances: instances.map((i) => ({ port: i.port, process: i.process, output: i.output })), worker: worker.process, workers, startWorker, proxy: proxy.process, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
