/**
 * The pool guards' 'error' listeners: one per emitter however often a connection is checked out,
 * even through pools that hand out a fresh wrapper of the same client each time.
 */
import { EventEmitter } from "node:events";
import type { PostgresPool, PostgresPoolClient } from "kysely";
import { describe, expect, it } from "vitest";
import type { ConnectionLog } from "./connection-log.js";
import { guardedPostgresPool } from "./pool-guards.js";

function recordingLog(): ConnectionLog & { lost: unknown[] } {
  const lost: unknown[] = [];
  return { lost, useLogger: () => undefined, connectionLost: (error) => lost.push(error), warnOnce: () => undefined };
}

/** A pool of one client; `wrap` hands out `Object.create(client)` per checkout, as a recording pool does. */
function onePool(wrap: boolean): { pool: PostgresPool; client: EventEmitter } {
  const client = Object.assign(new EventEmitter(), { query: () => Promise.resolve({ rows: [] }), release: () => undefined });
  const pool = Object.assign(new EventEmitter(), {
    connect: () => Promise.resolve((wrap ? Object.create(client) : client) as PostgresPoolClient),
    end: () => Promise.resolve(),
  });
  return { pool, client };
}

describe("guardedPostgresPool", () => {
  for (const wrap of [false, true]) {
    it(`keeps one 'error' listener per client over 50 checkouts${wrap ? " through per-checkout wrappers" : ""}`, async () => {
      const { pool, client } = onePool(wrap);
      const guarded = guardedPostgresPool(pool, { owned: true, log: recordingLog() });
      for (let i = 0; i < 50; i += 1) await guarded.connect();
      expect(client.listenerCount("error")).toBe(1);
    });
  }

  it("a client's error goes to the store that used it last, and is never thrown", async () => {
    const { pool, client } = onePool(true);
    const first = recordingLog();
    const second = recordingLog();
    await guardedPostgresPool(pool, { owned: true, log: first }).connect();
    await guardedPostgresPool(pool, { owned: true, log: second }).connect();
    expect(() => client.emit("error", new Error("terminating connection due to administrator command"))).not.toThrow();
    expect([first.lost.length, second.lost.length]).toEqual([0, 1]);
    expect(client.listenerCount("error")).toBe(1);
  });

  it("a caller's pool that already listens keeps only its own listener; one that does not gets the guard", async () => {
    const heard = onePool(false).pool as unknown as EventEmitter;
    heard.on("error", () => undefined);
    guardedPostgresPool(heard as unknown as PostgresPool, { owned: false, log: recordingLog() });
    expect(heard.listenerCount("error")).toBe(1);
    const unheard = onePool(false).pool as unknown as EventEmitter;
    guardedPostgresPool(unheard as unknown as PostgresPool, { owned: false, log: recordingLog() });
    expect(unheard.listenerCount("error")).toBe(1);
    expect(() => unheard.emit("error", new Error("boom"))).not.toThrow();
  });
});
