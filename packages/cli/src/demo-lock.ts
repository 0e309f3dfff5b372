/**
 * Concurrent first starts (issue 22): several demo hosts started at the same moment on one
 * database migrate and seed one after another, under a lock every instance of that database sees —
 * a PostgreSQL advisory lock or a MySQL named lock (held by a connection of its own, so a process
 * that dies releases it), and for SQLite a lock file beside the database (the processes share its
 * folder). The seed is idempotent, so the second and third find what the first made, and the demo
 * tokens file it wrote.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { Kysely, sql } from "kysely";
import { fromUrl } from "@forgekit/store-kysely";
import type { DatabaseTarget } from "./database.js";

/** PostgreSQL advisory lock key of the demo seed (any fixed 64-bit number). */
const PG_LOCK_KEY = "7319862245010422";
/** MySQL named lock of the demo seed. */
const MYSQL_LOCK = "forgekit_demo_seed";
/** Longest wait for another instance's start-up. */
const WAIT_SECONDS = 600;

/** Runs `fn` while holding the demo start-up lock of `target`'s database. */
export async function withDemoStartLock<T>(target: DatabaseTarget, fn: () => Promise<T>): Promise<T> {
  if (target.kind === "sqlite") return target.path === ":memory:" ? fn() : withLockFile(`${target.path}.start-lock`, fn);
  const db = new Kysely<unknown>({ dialect: fromUrl(target.url, { postgres: { max: 1 }, mysql: { connectionLimit: 1 } }).dialect });
  try {
    // One connection holds the lock for the whole start-up; a process that dies drops it with the lock.
    return await db.connection().execute(async (connection) => {
      if (target.kind === "postgres") {
        // The store's connections give up on locks quickly; this one waits for the other instances.
        await sql`set lock_timeout = 0`.execute(connection);
        await sql`set statement_timeout = 0`.execute(connection);
        await sql`select pg_advisory_lock(${PG_LOCK_KEY}::bigint)`.execute(connection);
      } else {
        const { rows } = await sql<{ got: number | null }>`select get_lock(${MYSQL_LOCK}, ${WAIT_SECONDS}) as got`.execute(connection);
        if (Number(rows[0]?.got) !== 1) throw new Error(`another instance held the start-up lock for ${WAIT_SECONDS} s`);
      }
      try {
        return await fn();
      } finally {
        const release = target.kind === "postgres" ? sql`select pg_advisory_unlock(${PG_LOCK_KEY}::bigint)` : sql`select release_lock(${MYSQL_LOCK})`;
        await release.execute(connection).catch(() => undefined);
      }
    });
  } finally {
    await db.destroy();
  }
}

/** Whether process `pid` runs (on this machine). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An exclusive lock file holding the owner's pid; one left by a process that died is taken over. */
async function withLockFile<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const until = Date.now() + WAIT_SECONDS * 1000;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(path, "utf8"));
      } catch {
        continue; // Released meanwhile.
      }
      // An empty file is one being written right now; a dead owner's lock is stale.
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        try {
          unlinkSync(path);
        } catch {
          // Another waiter removed it first.
        }
        continue;
      }
      if (Date.now() > until) throw new Error(`another instance held the start-up lock ${path} for ${WAIT_SECONDS} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
}
