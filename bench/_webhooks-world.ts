/**
 * What bench/webhooks.ts measures against: a forgekit instance as a host runs it (SQLite file
 * database and git repository storage in a temporary folder, local-network webhook URLs allowed),
 * a user, a project whose repository holds three real commits pushed by `git push`, N project
 * hooks with push events on, and the receiver process (`_webhooks-receiver.mjs`) they point at.
 */
import { execFileSync, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit, type Forgekit } from "../packages/core/src/index.js";
import { kyselyStore, sqlite } from "../packages/store-kysely/src/index.js";

/** An instance with its project, the push to record (real shas of its repository) and its hooks. */
export interface WebhookWorld {
  fk: Forgekit;
  projectId: number;
  authorId: number;
  /** The push every recorded event reports: two commits, `from` (exclusive) to `to`. */
  push: { from: string; to: string; count: number };
  /** The SQLite database file (read by {@link deliveryTables}). */
  dbFile: string;
  close(): Promise<void>;
}

const ENV = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: tmpdir(), LC_ALL: "C" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, stdio: "pipe" }).toString("utf8").trim();

/** Three commits pushed with `git push` into the project's bare repository; the shas oldest first. */
function pushHistory(dir: string, bare: string): string[] {
  const work = join(dir, "work");
  mkdirSync(work);
  git(work, "init", "--quiet", "-b", "main");
  for (let i = 1; i <= 3; i += 1) {
    writeFileSync(join(work, `file-${i}.txt`), `content ${i}\n`.repeat(20));
    writeFileSync(join(work, "README.md"), `readme ${i}\n`);
    git(work, "add", ".");
    git(work, "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", `commit ${i}\n\nbody of commit ${i}`);
  }
  git(work, "push", "--quiet", bare, "main");
  return git(work, "rev-list", "--reverse", "main").split("\n");
}

/** A fresh instance in its own temporary folder, its project and `hooks` hooks pointing at `url(k)`. */
export async function startWorld(hooks: number, url: (k: number) => string): Promise<WebhookWorld> {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-bench-webhooks-"));
  const dbFile = join(dir, "forgekit.db");
  const store = kyselyStore(sqlite(dbFile));
  const fk = createForgekit({
    baseUrl: "http://localhost:3000",
    store,
    repositoryStorages: { default: { path: join(dir, "repositories") } },
    // Webhook URLs go through the imports URL guard: the receiver is on 127.0.0.1.
    imports: { allowLocalNetwork: true },
    logger: { log: () => undefined },
  });
  const close = async () => {
    await fk.workers.stop({ timeoutMs: 15_000 });
    (await fk.close())._unsafeUnwrap();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    (await fk.migrate())._unsafeUnwrap();
    const user = (await fk.users.create({ username: "bench", name: "Bench", email: "bench@example.com" }))._unsafeUnwrap();
    const project = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: "hooked", creatorId: user.id }))._unsafeUnwrap();
    const shas = pushHistory(dir, fk.config.repositoryStorage.localPath?.("default", { kind: "project", id: project.id }) ?? "");
    for (let k = 0; k < hooks; k += 1) (await fk.webHooks.add({ scope: "project", projectId: project.id }, { url: url(k), events: { push_events: true } }))._unsafeUnwrap();
    return { fk, projectId: project.id, authorId: user.id, push: { from: shas[0] ?? "", to: shas[2] ?? "", count: 2 }, dbFile, close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface ReadOnlyDatabase {
  prepare(sql: string): { all(...params: unknown[]): Record<string, number | string>[] };
  close(): void;
}
const BetterSqlite3 = createRequire(new URL("../packages/store-kysely/package.json", import.meta.url))("better-sqlite3") as new (file: string, options: { readonly: boolean }) => ReadOnlyDatabase;

/** What the tables say (read-only, beside the instance): delivery jobs by state with their attempts, deliveries by state. */
export function deliveryTables(dbFile: string, kind: string): { jobs: Record<string, { count: number; attempts: number; maxAttempts: number }>; deliveries: Record<string, number> } {
  const db = new BetterSqlite3(dbFile, { readonly: true });
  try {
    const jobs = db.prepare("select state, count(*) as count, sum(attempts) as attempts, max(attempts) as maxAttempts from forgekit_jobs where kind = ? group by state").all(kind);
    const deliveries = db.prepare("select state, count(*) as count from forgekit_web_hook_deliveries group by state").all();
    return {
      jobs: Object.fromEntries(jobs.map((r) => [String(r["state"]), { count: Number(r["count"]), attempts: Number(r["attempts"]), maxAttempts: Number(r["maxAttempts"]) }])),
      deliveries: Object.fromEntries(deliveries.map((r) => [String(r["state"]), Number(r["count"])])),
    };
  } finally {
    db.close();
  }
}

/** What the receiver recorded (see `_webhooks-receiver.mjs`). */
export interface ReceiverReport {
  arrived: number;
  duplicates: number;
  orderViolations: number;
  unmapped: number;
  /** Epoch ms of the first arrival of (hook k, push i) at `k * pushes + i`; 0: never arrived. */
  arrivals: Float64Array;
}

/** The receiver process: hook k's URL, the live arrival count, and its final report. */
export interface Receiver {
  url: (hook: number) => string;
  arrived(): number;
  report(): Promise<ReceiverReport>;
  /** Ends the process (when it has not reported). */
  close(): void;
}

/** Starts `_webhooks-receiver.mjs` for `hooks` hooks and `pushes` pushes. */
export async function startReceiver(hooks: number, pushes: number): Promise<Receiver> {
  const child = fork(new URL("./_webhooks-receiver.mjs", import.meta.url).pathname, [JSON.stringify({ hooks, pushes })], { execArgv: [], serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let arrived = 0;
  let onReport: (report: ReceiverReport) => void = () => undefined;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.on("message", (message: { port?: number; arrived?: number; report?: ReceiverReport }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.arrived !== undefined) arrived = message.arrived;
      if (message.report !== undefined) onReport(message.report);
    });
  });
  return {
    url: (hook) => `http://127.0.0.1:${port}/hook/${hook}`,
    arrived: () => arrived,
    report: () =>
      new Promise<ReceiverReport>((resolve) => {
        onReport = resolve;
        child.send("report");
      }),
    close: () => void (child.exitCode === null && child.kill()),
  };
}

/** Epoch ms with sub-millisecond resolution: comparable with the receiver process's arrival times. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** The `p`th percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
