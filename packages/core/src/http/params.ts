/**
 * Parameter types for route schemas (zod 4) with the reference's (Grape's) coercions and error
 * wording (auth-oauth-conventions §3.2): missing → `errors.missingParam` (the spec's body shape 1),
 * everything else → `{"error":"<param> <reason>"}`, several joined with ", ".
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { inIdRange, NO_RECORD_ID } from "../ids.js";
import { isStorableText } from "../storable.js";
import { errors, type ForgekitError } from "../errors.js";
import type { ParamValue, Params } from "./types.js";

/** Grape's messages, used as zod issue messages by the helpers below. */
export const REASONS = {
  invalid: "is invalid",
  empty: "is empty",
  notValid: "does not have a valid value",
  notAllowed: "has a value not allowed",
  missing: "is missing",
} as const;

const TRUE = new Set(["1", "on", "On", "ON", "t", "true", "True", "TRUE", "T", "y", "yes", "Yes", "YES", "Y"]);
const FALSE = new Set(["0", "off", "Off", "OFF", "f", "false", "False", "FALSE", "F", "n", "no", "No", "NO", "N"]);

type Ctx = z.core.$RefinementCtx<unknown>;

/** Builds a parameter type from a coercion returning the value or a Grape reason. */
function coerce<T>(fn: (value: unknown) => { value: T } | string): z.ZodType<T, unknown> {
  return z.unknown().transform((input: unknown, ctx: Ctx) => {
    const r = fn(input);
    if (typeof r === "string") {
      ctx.addIssue({ code: "custom", message: r, input });
      return z.NEVER;
    }
    return r.value;
  });
}

/** Whether every text in `value` (strings, array items, object keys and values) is storable. */
function storableValue(value: unknown): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (Array.isArray(value)) return value.every(storableValue);
  if (value !== null && typeof value === "object") return Object.entries(value).every(([key, item]) => isStorableText(key) && storableValue(item));
  return true;
}

/** Integer from a JSON number or a decimal string. */
export function parseInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== "string" || !/^[+-]?\d{1,16}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/** Booleans in every spelling clients send (client-compatibility §6.12); null is invalid (spec "Nullable booleans"). */
export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== "string") return null;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return null;
}

function asText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * A path reference (`:id`) as the reference reads it: an integer → a record id, other text → a
 * full path or username. A value that can name nothing — an integer beyond the id range, text with
 * a character no store can hold — is {@link NO_RECORD_ID}, which every lookup misses, so the route
 * answers its usual 404 after its usual checks and no store sees the value. `null`: not a
 * reference at all (empty, or not text).
 */
export function idOrPath(value: unknown): number | string | null {
  const n = parseInteger(value);
  if (n !== null) return inIdRange(n) ? n : NO_RECORD_ID;
  if (typeof value !== "string" || value === "") return null;
  return isStorableText(value) ? value : NO_RECORD_ID;
}

/** Options of {@link p.string}. */
export interface StringOptions {
  /** `false`: an empty or blank string is `"<p> is empty"` (Grape `allow_blank: false`). */
  allowBlank?: boolean;
  /** A value not matching it is `"<p> is invalid"` (Grape `regexp`). */
  pattern?: RegExp;
}

export { MAX_RECORD_ID, recordIdFrom } from "../ids.js";

/** Parameter types: each coerces like Grape and reports Grape's reason. Chain `.optional()` / `.default()`. */
export const p = {
  /** Integer (JSON number or decimal string). */
  int: (): z.ZodType<number, unknown> => coerce((v) => {
    const n = parseInteger(v);
    return n === null ? REASONS.invalid : { value: n };
  }).meta({ type: "integer" }),
  /** A record id: an integer within the id range (MAX_RECORD_ID), else `"<p> is invalid"`. */
  recordId: (): z.ZodType<number, unknown> => coerce((v) => {
    const n = parseInteger(v);
    return n === null || !inIdRange(n) ? REASONS.invalid : { value: n };
  }).meta({ type: "integer", minimum: 1 }),
  /** Boolean: `1 on On ON t true True TRUE T y yes Yes YES Y` / `0 off … N`, JSON booleans; null is invalid. */
  bool: (): z.ZodType<boolean, unknown> => coerce((v) => {
    const b = parseBoolean(v);
    return b === null ? REASONS.invalid : { value: b };
  }).meta({ type: "boolean" }),
  /**
   * String; JSON numbers and booleans are converted (Grape String coercion). Text no store can hold
   * (a NUL character) is `"<p> is invalid"`, so no route passes it on to a store.
   */
  string: (options: StringOptions = {}): z.ZodType<string, unknown> => coerce((v) => {
    const s = asText(v);
    if (s === null || !isStorableText(s)) return REASONS.invalid;
    if (options.allowBlank === false && s.trim() === "") return REASONS.empty;
    if (options.pattern !== undefined && !options.pattern.test(s)) return REASONS.invalid;
    return { value: s };
  }).meta({ type: "string", ...(options.allowBlank === false ? { minLength: 1 } : {}), ...(options.pattern === undefined || options.pattern.flags !== "" ? {} : { pattern: options.pattern.source }) }),
  /**
   * Kept as sent, for a route that parses it itself (lists, ids or names, scopes), except that a
   * value carrying text no store can hold (a NUL character anywhere in it) is `"<p> is invalid"`.
   */
  raw: () => z.custom<ParamValue>((v) => storableValue(v), { message: REASONS.invalid }),
  /** One of `values` (Grape `values:`), else `"<p> does not have a valid value"`. */
  enum: <const T extends string>(values: readonly T[]): z.ZodType<T, unknown> => coerce((v) => {
    const s = asText(v);
    return s !== null && (values as readonly string[]).includes(s) ? { value: s as T } : REASONS.notValid;
  }).meta({ type: "string", enum: [...values] }),
  /** Calendar date `YYYY-MM-DD`, returned as given. */
  date: (): z.ZodType<string, unknown> => coerce((v) => (typeof v === "string" && validDate(v) ? { value: v } : REASONS.invalid)).meta({ type: "string", format: "date" }),
  /** ISO 8601 date-time (a `+` offset must arrive as `%2B`), returned normalised to UTC `toISOString()`. */
  datetime: (): z.ZodType<string, unknown> => coerce((v) => {
    if (typeof v !== "string" || !DATETIME.test(v.trim()) || !validDate(v.trim().slice(0, 10))) return REASONS.invalid;
    const ms = Date.parse(v.trim().replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    return Number.isNaN(ms) ? REASONS.invalid : { value: new Date(ms).toISOString() };
  }).meta({ type: "string", format: "date-time" }),
  /**
   * A numeric id (→ number) or a full path such as `grp/proj` (→ string), like the reference's `:id`
   * ({@link idOrPath}): a value that can name nothing is an id no record has, so the route answers
   * its usual 404.
   */
  id: (): z.ZodType<number | string, unknown> => coerce<number | string>((v) => {
    const ref = idOrPath(v);
    return ref === null ? REASONS.invalid : { value: ref };
  }).meta({ type: ["integer", "string"], description: "a numeric id or a URL-encoded full path" }),
  /** An array (`name[]=` or a JSON array) whose items all pass `item`. */
  array: <T>(item: z.ZodType<T, unknown>): z.ZodType<T[], unknown> => coerce((v) => {
    if (!Array.isArray(v)) return REASONS.invalid;
    const out: T[] = [];
    for (const element of v) {
      const r = item.safeParse(element);
      if (!r.success) return REASONS.invalid;
      out.push(r.data);
    }
    return { value: out };
  }).meta({ type: "array", items: parameterJsonSchema(item) }),
};

/**
 * The JSON Schema (2020-12) of a parameter type, as a client sends it: the helpers above describe
 * themselves (zod metadata); plain zod types convert as zod does; anything else is `{}`.
 */
export function parameterJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return json;
}

/** One parameter failure in Grape's terms. */
export interface ParamIssue {
  /** Grape-style name: `title`, `rules[0][name]`. */
  param: string;
  reason: string;
}

/**
 * The single place that turns parameter failures into a ForgekitError: a missing parameter is the
 * spec's `400 (Bad request) "x" not given`; otherwise every failure, joined with ", ", in one
 * `{"error": …}` body.
 */
export function paramError(issues: readonly ParamIssue[]): ForgekitError {
  const missing = issues.find((i) => i.reason === REASONS.missing);
  if (missing !== undefined) return errors.missingParam(missing.param);
  const [first, ...rest] = issues;
  if (first === undefined) return errors.badRequest();
  const tail = rest.map((i) => `, ${i.param} ${i.reason}`).join("");
  return errors.invalidParam(first.param, `${first.reason}${tail}`);
}

function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path;
  return `${String(head)}${rest.map((k) => `[${String(k)}]`).join("")}`;
}

function valueAt(raw: Params, path: readonly PropertyKey[]): unknown {
  let at: unknown = raw;
  for (const key of path) {
    if (typeof at !== "object" || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** Turns a zod object schema into a `Route.params` validator with the reference's error wording. */
export function parseParams<S extends z.ZodObject>(schema: S): (raw: Params) => Result<z.output<S>, ForgekitError> {
  return (raw) => {
    const r = schema.safeParse(raw);
    if (r.success) return ok(r.data);
    const issues: ParamIssue[] = [];
    const seen = new Set<string>();
    for (const issue of r.error.issues) {
      if (issue.path.length === 0) continue;
      const param = paramName(issue.path);
      if (seen.has(param)) continue;
      seen.add(param);
      let reason: string;
      if (valueAt(raw, issue.path) === undefined) reason = REASONS.missing;
      else if (issue.code === "custom") reason = issue.message;
      else if (issue.code === "invalid_value") reason = REASONS.notValid;
      else reason = REASONS.invalid;
      issues.push({ param, reason });
    }
    return err(paramError(issues));
  };
}
