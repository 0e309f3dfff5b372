/**
 * The loggers a host already has, accepted as they are (issue 13 "Logger port"):
 * - forgekit's own `Logger` (`log(level, event, fields)`);
 * - pino and pino-like loggers (`info(obj, msg)` with `child`): forgekit calls
 *   `logger[level]({ event, ...fields }, event)`, so the event is both a field and the message;
 * - `console` and console-like loggers (winston, consola…: `info(message, meta)` without `child`):
 *   `logger[level](event, fields)`.
 * A logger method that throws never breaks a request: the line is dropped.
 */
import type { LogLevel, Logger } from "../ports/runtime.js";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

type LevelMethods = Record<LogLevel, (...args: unknown[]) => unknown>;

const isFunction = (value: unknown): value is (...args: unknown[]) => unknown => typeof value === "function";

function hasLevelMethods(value: object): value is LevelMethods {
  return LEVELS.every((level) => isFunction((value as Record<string, unknown>)[level]));
}

/** Whether `value` is a logger {@link toLogger} accepts. */
export function isHostLogger(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return hasLevelMethods(value) || isFunction((value as { log?: unknown }).log);
}

/** Calls `fn`, dropping the line if the host's logger throws. */
function quietly(fn: () => unknown): void {
  try {
    fn();
  } catch {
    // A broken logger must not turn into a failed request.
  }
}

/**
 * forgekit's `Logger` over whatever the host passed. Level methods win over `log` (console has both,
 * and `console.log(level, event)` would lose the level); an object with only `log` is forgekit's.
 */
export function toLogger(value: object): Logger {
  if (hasLevelMethods(value)) {
    const pinoLike = isFunction((value as { child?: unknown }).child);
    return {
      log(level, event, fields) {
        const method = value[level].bind(value);
        if (pinoLike) quietly(() => method({ event, ...fields }, event));
        else quietly(() => (fields === undefined ? method(event) : method(event, fields)));
      },
    };
  }
  const logger = value as Logger;
  return { log: (level, event, fields) => quietly(() => logger.log(level, event, fields)) };
}

/** A logger with level methods (pino, console, winston…); what `logger` accepts besides forgekit's `Logger`. */
export type HostLogger = Record<LogLevel, (...args: never[]) => unknown>;
