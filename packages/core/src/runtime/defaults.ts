/** Default implementations of the small runtime ports (DESIGN §5): system time, OS randomness, stderr logging. */
import type { Clock, Logger, LogLevel, Random } from "../ports/runtime.js";

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };

/** Cryptographically secure bytes from the platform's Web Crypto. */
export const systemRandom: Random = {
  read(bytes: Uint8Array): void {
    globalThis.crypto.getRandomValues(bytes);
  },
};

const WRITTEN: ReadonlySet<LogLevel> = new Set(["warn", "error"]);

/**
 * Writes `warn` and `error` events as one JSON line each to stderr and drops `debug`/`info`, so an
 * instance without a configured logger is quiet but never hides failures. Callers never put secrets
 * in `fields` (Logger contract).
 */
export const stderrLogger: Logger = {
  log(level: LogLevel, event: string, fields?: Record<string, unknown>): void {
    if (!WRITTEN.has(level)) return;
    let line: string;
    try {
      line = JSON.stringify({ level, event, ...fields });
    } catch {
      line = JSON.stringify({ level, event, fields: "[unserialisable]" });
    }
    process.stderr.write(`${line}\n`);
  },
};
