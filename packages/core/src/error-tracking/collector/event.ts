/**
 * Reading one Sentry event (the body of `store`, or an `event` item of an envelope): which events
 * are accepted, what is kept of them, and how they are grouped.
 *
 * Accepted: a JSON object with an exception (`exception.values`, a non-empty array of objects, or
 * the legacy bare array) or a message (`message`, `logentry`), so `captureException` and
 * `captureMessage` both land, and that can be re-serialised (not nested thousands of levels deep).
 * The reference takes exceptions only; it refuses everything else with `Unsupported sentry
 * payload`, as this does for an event with neither.
 *
 * Grouping: the event's own `fingerprint` when it sends one (`{{ default }}` in it stands for the
 * default components), else the primary exception's type and value and its top frames (module or
 * file and function, no line numbers, so an edit elsewhere in a file does not split a group); for
 * message events the message template. The group key is the SHA-256 of those components.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../../errors.js";

/** 400 body text for a payload that is not an event the collector takes (reference wording). */
export const UNSUPPORTED_PAYLOAD = "Unsupported sentry payload";

/** How many of the innermost frames enter the default fingerprint. */
const FINGERPRINT_FRAMES = 5;
/** Length limits of the stored summary fields (the payload keeps everything). */
const SHORT = 255;
const LONG = 1024;

/** What the collector keeps of one event. */
export interface CollectedEvent {
  fingerprint: string;
  name: string;
  description: string;
  actor: string;
  platform: string | null;
  eventId: string | null;
  level: string | null;
  environment: string | null;
  occurredAt: Date | null;
  /** The event re-serialised as JSON. */
  payload: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Drops NUL characters (PostgreSQL text cannot hold them) and cuts at `max` UTF-16 units without splitting a pair. */
export function clip(value: string, max: number): string {
  const clean = value.includes("\u0000") ? value.split("\u0000").join("") : value;
  if (clean.length <= max) return clean;
  const cut = clean.charCodeAt(max - 1) >= 0xd800 && clean.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return clean.slice(0, cut);
}

const optional = (value: unknown, max = SHORT): string | null => {
  const s = text(value);
  return s === null ? null : clip(s, max);
};

function exceptionValues(event: Json): Json[] | null {
  const exception = event["exception"];
  const values = Array.isArray(exception) ? exception : isObject(exception) ? exception["values"] : undefined;
  if (!Array.isArray(values) || values.length === 0 || !values.every(isObject)) return null;
  return values;
}

/** The message of a message event: the formatted text, and the template it came from when given. */
function messageOf(event: Json): { formatted: string; template: string } | null {
  for (const source of [event["logentry"], event["message"]]) {
    if (typeof source === "string" && source !== "") return { formatted: source, template: source };
    if (isObject(source)) {
      const formatted = text(source["formatted"]) ?? text(source["message"]);
      if (formatted !== null && formatted !== "") return { formatted, template: text(source["message"]) ?? formatted };
    }
  }
  return null;
}

function frames(exception: Json): Json[] {
  const stacktrace = exception["stacktrace"];
  const list = isObject(stacktrace) ? stacktrace["frames"] : undefined;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

const frameKey = (frame: Json): string =>
  `${text(frame["module"]) ?? text(frame["filename"]) ?? text(frame["abs_path"]) ?? ""}:${text(frame["function"]) ?? "?"}`;

/** Sentry lists frames outermost first: the top (innermost) frames are the last ones. */
const topFrames = (exception: Json): string[] => frames(exception).slice(-FINGERPRINT_FRAMES).reverse().map(frameKey);

const DEFAULT_MARKER = /^\{\{\s*default\s*\}\}$/;

function groupKey(event: Json, defaults: string[]): string {
  const custom = event["fingerprint"];
  let components = defaults;
  if (Array.isArray(custom) && custom.length > 0) {
    components = custom.flatMap((part: unknown) => {
      const piece = typeof part === "string" || typeof part === "number" || typeof part === "boolean" ? String(part) : JSON.stringify(part);
      return DEFAULT_MARKER.test(piece) ? defaults : [piece];
    });
  }
  return encodeHexLowerCase(sha256(new TextEncoder().encode(JSON.stringify(components))));
}

function eventId(value: unknown): string | null {
  const s = text(value)?.replace(/-/g, "").toLowerCase();
  return s !== undefined && /^[0-9a-f]{32}$/.test(s) ? s : null;
}

/** The event's `timestamp`: Unix seconds (fractional) or an RFC 3339 string; null when absent or absurd. */
function occurredAt(value: unknown): Date | null {
  const ms = typeof value === "number" ? value * 1000 : typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  // Years 1970–9999: every database stores them.
  return Number.isFinite(ms) && ms >= 0 && ms < 253_402_300_800_000 ? new Date(Math.round(ms)) : null;
}

/** Reads one event document; `bad_request("Unsupported sentry payload")` when it is not one the collector takes. */
export function readEvent(value: unknown): Result<CollectedEvent, ForgekitError> {
  const unsupported = err(errors.badRequest(UNSUPPORTED_PAYLOAD));
  if (!isObject(value)) return unsupported;
  const platform = value["platform"];
  // Reference: a platform longer than its column is an invalid record (400), not a truncation.
  if (platform !== undefined && platform !== null && (typeof platform !== "string" || platform.length > SHORT)) return unsupported;
  const values = exceptionValues(value);
  const message = values === null ? messageOf(value) : null;
  if (values === null && message === null) return unsupported;

  let name: string;
  let description: string;
  let defaults: string[];
  let top = "";
  if (values !== null) {
    const primary = values[values.length - 1] as Json;
    name = text(primary["type"]) ?? "Error";
    description = text(primary["value"]) ?? "";
    const tops = topFrames(primary);
    top = tops[0] ?? "";
    defaults = [name, description, ...tops];
  } else {
    const { formatted, template } = message as { formatted: string; template: string };
    name = formatted;
    description = formatted;
    defaults = ["message", template];
  }
  let fingerprint: string;
  let payload: string;
  try {
    fingerprint = groupKey(value, defaults);
    payload = JSON.stringify(value);
  } catch {
    // JSON.parse takes nesting that JSON.stringify cannot give back (it recurses: a few thousand levels).
    return unsupported;
  }
  return ok({
    fingerprint,
    name: clip(name, SHORT),
    description: clip(description, LONG),
    actor: clip(text(value["transaction"]) || text(value["culprit"]) || top, SHORT),
    platform: optional(platform),
    eventId: eventId(value["event_id"]),
    level: optional(value["level"]),
    environment: optional(value["environment"]),
    occurredAt: occurredAt(value["timestamp"]),
    payload,
  });
}
