/**
 * Where a store reports connection failures that happen outside any request: the server ending an
 * idle pooled connection (restart, failover, `pg_terminate_backend`, `KILL`, idle timeouts). Such
 * an error is harmless once listened to (the pool drops the connection and opens a new one on
 * demand), but it comes in bursts, one per pooled connection: the first of a burst is logged and
 * the rest are counted into the next line, so a restart is one line, not one per connection.
 */
import type { Logger } from "@forgekit/core";

/** Burst window: errors within this many ms of a logged one are only counted. */
const BURST_MS = 10_000;

/** The log a dialect writes pool events to; the host's logger arrives later through `useLogger`. */
export interface ConnectionLog {
  /** Sends later lines to `logger` (createForgekit passes the host's logger through `Store.useLogger`). */
  useLogger: (logger: Logger) => void;
  /** A pooled connection failed while no statement was waiting for it; logged once per burst. */
  connectionLost: (error: unknown) => void;
  /** A one-off warning (`event` is logged once per store, whatever the fields). */
  warnOnce: (event: string, fields: Record<string, unknown>) => void;
}

/** A connection log for `dialect` ("postgres", "mysql"); silent until a logger is set. */
export function connectionLog(dialect: string, now: () => number = Date.now): ConnectionLog {
  let logger: Logger | undefined;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  const warned = new Set<string>();
  const write = (event: string, fields: Record<string, unknown>) => {
    try {
      logger?.log("warn", event, { dialect, ...fields });
    } catch {
      // A failing logger must not turn a dropped connection into a crash.
    }
  };
  return {
    useLogger(next) {
      logger = next;
    },
    connectionLost(error) {
      const at = now();
      if (at - loggedAt < BURST_MS) {
        suppressed += 1;
        return;
      }
      const e = (typeof error === "object" && error !== null ? error : {}) as { message?: unknown; code?: unknown };
      write("store.connection_lost", {
        message: typeof e.message === "string" ? e.message : String(error),
        ...(e.code !== undefined ? { code: e.code } : {}),
        ...(suppressed > 0 ? { alsoLostSinceLastLine: suppressed } : {}),
        action: "the pool drops the connection and opens a new one when needed",
      });
      loggedAt = at;
      suppressed = 0;
    },
    warnOnce(event, fields) {
      if (warned.has(event)) return;
      warned.add(event);
      write(event, fields);
    },
  };
}
