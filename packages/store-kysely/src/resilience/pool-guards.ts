/**
 * 'error' listeners for the pools and connections a store uses. pg emits 'error' on a pool when the
 * server ends one of its idle clients, and on a checked-out client when its socket dies between
 * statements; an EventEmitter 'error' without a listener is thrown, which exits the process with no
 * request in flight (restart, failover, `pg_terminate_backend`, idle timeouts). mysql2 listens on its
 * own pooled connections, but only once per connection. These guards log the failure once per burst
 * and leave recovery to the pool, which drops the dead connection and opens another when needed.
 */
import type { MysqlPool, MysqlPoolConnection, PostgresPool, PostgresPoolClient } from "kysely";
import type { ConnectionLog } from "./connection-log.js";

interface Emitter {
  on(event: "error", listener: (error: Error) => void): unknown;
  listeners(event: "error"): unknown[];
  listenerCount(event: "error"): number;
}

function isEmitter(value: unknown): value is Emitter {
  const candidate = value as Partial<Emitter> | null;
  return typeof candidate?.on === "function" && typeof candidate.listeners === "function" && typeof candidate.listenerCount === "function";
}

/** Marks the listeners these guards add; holds the log the listener reports to. */
const GUARD = Symbol("forgekit.connectionGuard");
type GuardListener = ((error: Error) => void) & { [GUARD]: { log: ConnectionLog } };
const isGuard = (listener: unknown): listener is GuardListener => typeof listener === "function" && GUARD in listener;

/**
 * Makes `target`'s 'error' events go to `log`. An emitter carries at most one such listener, found
 * on the emitter itself rather than by object identity: a pool that hands out a fresh wrapper of the
 * same client on each checkout (`Object.create(client)`, as recording or tracing pools do) would
 * otherwise gain a listener per checkout. A later call only re-points the listener to `log` (the
 * store that used it last), so a pool shared by many stores carries one listener per emitter.
 * `onlyIfUnheard`: leave an emitter that already has a listener of its owner's alone (a caller's
 * pool: the owner decides what its errors mean).
 */
function listen(target: unknown, log: ConnectionLog, onlyIfUnheard: boolean): void {
  if (!isEmitter(target)) return;
  const ours = target.listeners("error").find(isGuard);
  if (ours !== undefined) {
    ours[GUARD].log = log;
    return;
  }
  if (onlyIfUnheard && target.listenerCount("error") > 0) return;
  const holder = { log };
  const listener: GuardListener = Object.assign((error: Error) => holder.log.connectionLost(error), { [GUARD]: holder });
  target.on("error", listener);
}

/** `pool` as Kysely sees it, with every client it hands out listened to; `end` only when forgekit owns it. */
export function guardedPostgresPool(pool: PostgresPool, options: { owned: boolean; log: ConnectionLog }): PostgresPool {
  // A pool forgekit created always gets the listener; a caller's pool only when it has none: without
  // one the process would exit on the first dropped idle connection.
  listen(pool, options.log, !options.owned);
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      listen(client, options.log, false);
      return client;
    },
    end: () => (options.owned ? pool.end() : Promise.resolve()),
  };
}

/** `pool` as Kysely sees it, with every connection it hands out listened to; `end` only when forgekit owns it. */
export function guardedMysqlPool(pool: MysqlPool, options: { owned: boolean; log: ConnectionLog }): MysqlPool {
  listen(pool, options.log, !options.owned);
  return {
    getConnection(callback: (error: unknown, connection: MysqlPoolConnection) => void): void {
      pool.getConnection((error, connection) => {
        // mysql2's own once-listener removes the connection from the pool; a second 'error' (a write
        // to the closed socket) would otherwise be thrown.
        listen(connection, options.log, false);
        callback(error, connection);
      });
    },
    end: (callback) => (options.owned ? pool.end(callback) : callback(undefined)),
  };
}
