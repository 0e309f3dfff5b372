/**
 * The one place every log call of an instance passes through on its way to the host's `Logger`:
 * values are cut to a bounded size, so a request that carries megabytes (a client id, a query, an
 * error message that quotes input) cannot make a log line, or stderr, grow with it.
 */
import type { Logger, LogLevel } from "../ports/runtime.js";

/** Limits of {@link boundedLogger}. */
export interface LogBounds {
  /** Longest string value kept, in characters (default 1024). */
  maxStringLength: number;
  /** Longest `stack` value kept: stack traces are longer than other values and worth keeping (default 8192). */
  maxStackLength: number;
  /** Items kept of an array, keys kept of an object (default 50). */
  maxItems: number;
  /** Nesting depth walked below `fields` (default 4). */
  maxDepth: number;
}

/** The defaults: a log line stays in the tens of kilobytes whatever the request carried. */
export const DEFAULT_LOG_BOUNDS: Readonly<LogBounds> = Object.freeze({ maxStringLength: 1024, maxStackLength: 8192, maxItems: 50, maxDepth: 4 });

/** The wrappers this module made, so a logger is never wrapped twice. */
const BOUNDED = new WeakSet<Logger>();

/** `text` cut to `max` characters, saying how much was dropped. */
export function truncateText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} more characters]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function bound(value: unknown, key: string, depth: number, limits: LogBounds): unknown {
  if (typeof value === "string") return truncateText(value, key === "stack" ? limits.maxStackLength : limits.maxStringLength);
  if (Array.isArray(value)) {
    if (depth >= limits.maxDepth) return `[array of ${value.length}]`;
    const kept = value.slice(0, limits.maxItems).map((item) => bound(item, "", depth + 1, limits));
    return value.length > limits.maxItems ? [...kept, `…[${value.length - limits.maxItems} more items]`] : kept;
  }
  if (value instanceof Error) return bound({ name: value.name, message: value.message, stack: value.stack }, key, depth, limits);
  if (isPlainObject(value)) {
    if (depth >= limits.maxDepth) return "[object]";
    return boundFields(value, depth + 1, limits);
  }
  // Numbers, booleans, null, dates and other objects carry no attacker-sized text of their own.
  return value;
}

function boundFields(fields: Record<string, unknown>, depth: number, limits: LogBounds): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(fields);
  for (const k of keys.slice(0, limits.maxItems)) out[truncateText(k, limits.maxStringLength)] = bound(fields[k], k, depth, limits);
  if (keys.length > limits.maxItems) out["…"] = `${keys.length - limits.maxItems} more fields`;
  return out;
}

/**
 * Wraps the host's logger so the event name and every string in `fields` (walked through arrays
 * and plain objects) is truncated, and collections and nesting are capped. The host logger sees
 * the same levels and events; a wrapper is returned as is, so wrapping twice is harmless.
 */
export function boundedLogger(logger: Logger, bounds: Partial<LogBounds> = {}): Logger {
  if (BOUNDED.has(logger)) return logger;
  const limits: LogBounds = { ...DEFAULT_LOG_BOUNDS, ...bounds };
  const wrapped: Logger = {
    log(level: LogLevel, event: string, fields?: Record<string, unknown>): void {
      const name = truncateText(event, limits.maxStringLength);
      if (fields === undefined) logger.log(level, name);
      else logger.log(level, name, boundFields(fields, 0, limits));
    },
  };
  BOUNDED.add(wrapped);
  return wrapped;
}
