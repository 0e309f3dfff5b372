/**
 * Child process of sqlite-writers.test.ts: one "server" writing to a shared SQLite file. It opens
 * and migrates the store (racing the other child on a new file), says `ready`, waits for `go` on
 * stdin, then starts all its writes at once and prints one JSON line with what happened.
 *
 * argv: <file> <label> <writes>. Each write creates one user, in turn: through the service (user,
 * namespace and e-mail in one transaction that starts with a write), straight through the
 * repository (one autocommit insert), and in a store transaction that reads before it writes (the
 * shape that fails with SQLITE_BUSY when a deferred transaction tries to turn into a writer).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createForgekit } from "@forgekit/core";
import { kyselyStore, sqlite } from "../src/index.js";

const [file, label, writesArg] = process.argv.slice(2);
if (file === undefined || label === undefined || writesArg === undefined) throw new Error("usage: <file> <label> <writes>");
const writes = Number(writesArg);

const store = kyselyStore(sqlite(file));
const fk = createForgekit({ baseUrl: "https://forge.example.com", store, logger: { log: () => undefined } });
const migrated = await fk.migrate();
if (migrated.isErr()) throw new Error(`migrate failed: ${JSON.stringify(migrated.error)}`);

const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.once("line", () => resolve()));
process.stdout.write("ready\n");
await go;
lines.close();

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const started = performance.now();
const errors: string[] = [];
const now = new Date("2026-01-01T00:00:00.000Z");
await Promise.all(
  Array.from({ length: writes }, async (_, i) => {
    const username = `${label}-${i}`;
    try {
      if (i % 3 === 0) {
        const created = await fk.users.create({ username, name: username, email: `${username}@example.com` });
        if (created.isErr()) errors.push(JSON.stringify(created.error));
      } else if (i % 3 === 1) {
        await store.users.create({ username, name: username }, now);
      } else {
        await store.transaction(async (tx) => {
          if ((await tx.users.findByUsername(username)) === null) await tx.users.create({ username, name: username }, now);
        });
      }
    } catch (error) {
      errors.push(String(error));
    }
  }),
);
delay.disable();
process.stdout.write(
  `${JSON.stringify({ label, writes, errors, elapsedMs: Math.round(performance.now() - started), maxLoopDelayMs: Math.round(delay.max / 1e6) })}\n`,
);
await store.close();
