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
  listenerCount(event: "error"): number;
}

function isEmitter(value: unknown): value is Emitter {
  const candidate = value as Partial<Emitter> | null;
  return typeof candidate?.on === "function" && typeof candidate.listenerCount === "function";
}

/**
 * The log each listened-to pool or connection reports to: the store that used it last. Module-wide,
 * so a pool shared by many stores carries one listener per emitter, not one per store.
 */
const reportTo = new WeakMap<object, ConnectionLog>();

/**
 * Makes `target`'s 'error' events go to `log`. `onlyIfUnheard`: leave an emitter that already has a
 * listener of its owner's alone (a caller's pool: the owner decides what its errors mean).
 */
function listen(target: unknown, log: ConnectionLog, onlyIfUnheard: boolean): void {
  if (typeof target !== "object" || target === null) return;
  if (reportTo.has(target)) {
    reportTo.set(target, log);
    return;
  }
  if (!isEmitter(target) || (onlyIfUnheard && target.listenerCount("error") > 0)) return;
  reportTo.set(target, log);
  target.on("error", (error) => reportTo.get(target)?.connectionLost(error));
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
