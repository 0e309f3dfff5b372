/**
 * Profiling harness for issue 12's feed (not a benchmark `pnpm bench` runs): seeds N events
 * (default 1,000,000) on SQLite, times a feed call (project, or `user`) and the share spent inside
 * SQLite statements, then times each statement the call runs on its own (500 runs) and prints the
 * query plan of those over 30 µs:
 *
 *   N=200000 npx tsx --conditions=@forgekit/source bench/_profile-statements.ts [user]
 */
import { createRequire } from "node:module";
import { seedEvents } from "./_events-seed.js";

interface Statement {
  all(...params: unknown[]): unknown[];
  [method: string]: unknown;
}
interface DatabaseHandle {
  prepare(source: string): Statement;
}
const Database = createRequire(new URL("../packages/store-kysely/package.json", import.meta.url))("better-sqlite3") as { prototype: DatabaseHandle };

const captured: { source: string; params: unknown[]; db: DatabaseHandle }[] = [];
let recording = false;
let insideMs = 0;
// The original method, called with each database as `this` below.
// eslint-disable-next-line @typescript-eslint/unbound-method
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: DatabaseHandle, source: string): Statement {
  const statement = prepare.call(this, source);
  // eslint-disable-next-line @typescript-eslint/no-this-alias -- the database the statement belongs to, kept for the replay
  const db = this;
  for (const method of ["all", "get", "run", "iterate"]) {
    const original = statement[method];
    if (typeof original !== "function") continue;
    statement[method] = function (this: unknown, ...params: unknown[]): unknown {
      if (recording) captured.push({ source, params, db });
      const started = performance.now();
      try {
        return (original as (...p: unknown[]) => unknown).apply(this, params);
      } finally {
        insideMs += performance.now() - started;
      }
    };
  }
  return statement;
};

const s = await seedEvents(Number(process.env["N"] ?? 1_000_000));
const user = process.argv[2] === "user";
const run = async () => {
  const result = user ? await s.fk.events.ofUser(s.viewer, s.authors[3]!.id, {}, { kind: "offset", page: 1, perPage: 20 }) : await s.fk.events.ofProject(s.viewer, s.projects[0]!.id, {}, { kind: "offset", page: 1, perPage: 20 });
  if (result.isErr()) throw new Error(result.error.code);
};
for (let i = 0; i < 300; i++) await run();
insideMs = 0;
const started = performance.now();
for (let i = 0; i < 2000; i++) await run();
console.log(`${user ? "user" : "project"} feed: ${((performance.now() - started) / 2).toFixed(1)} µs per call, ${(insideMs / 2).toFixed(1)} µs inside SQLite statements`);
recording = true;
await run();
recording = false;
for (const c of captured) {
  const statement = prepare.call(c.db, c.source);
  const t0 = performance.now();
  for (let i = 0; i < 500; i++) statement.all(...c.params);
  const us = ((performance.now() - t0) / 500) * 1000;
  console.log(`${us.toFixed(1).padStart(7)} µs  ${c.source.replace(/\s+/g, " ").slice(0, 300)}`);
  if (us > 30) for (const row of prepare.call(c.db, `explain query plan ${c.source}`).all(...c.params)) console.log(`          plan ${JSON.stringify(row)}`);
}
await s.dispose();
