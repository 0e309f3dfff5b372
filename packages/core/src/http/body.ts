/**
 * Request-body decoding (spec "Endpoints" preamble and "Limits"): JSON, form fields and multipart
 * fields become parameters; anything else with a non-empty body is 415. `text/plain` is not
 * accepted by default (spec "Limits": only where an endpoint states it, through `Route.rawBody`).
 */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import { parseMultipart } from "./multipart.js";
import { isUnsafeKey, parseQuery } from "./query.js";
import type { HttpRequest, ParamValue, Params } from "./types.js";

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** A parsed `Content-Type`: lower-case media type and parameters. */
export interface MediaType {
  type: string;
  params: Record<string, string>;
}

/** Parses a `Content-Type` header; `null` when absent or empty. */
export function parseMediaType(header: string | undefined): MediaType | null {
  if (header === undefined) return null;
  const [head = "", ...rest] = header.split(";");
  const type = head.trim().toLowerCase();
  if (type === "") return null;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (key !== "" && !isUnsafeKey(key)) params[key] = value;
  }
  return { type, params };
}

/** The raw body bytes: `body`, else a pre-parsed `parsedBody` that is bytes or text. */
export function bodyBytes(req: HttpRequest): Uint8Array | undefined {
  if (req.body !== undefined && req.body.length > 0) return req.body;
  const parsed = req.parsedBody;
  if (parsed instanceof Uint8Array) return parsed;
  if (typeof parsed === "string") return encoder.encode(parsed);
  return req.body;
}

/**
 * Decodes the body into parameters. An empty body (or `{}`, or whitespace) is no parameters,
 * whatever its content type (python-gitlab sends `Content-Type: application/json` on GET and on
 * empty DELETEs). `raw` routes take their body as bytes: nothing is decoded and no type refused.
 */
export function decodeBody(req: HttpRequest, raw = false): Result<Params, ForgekitError> {
  if (raw) return ok({});
  const parsed = req.parsedBody;
  if ((req.body === undefined || req.body.length === 0) && isRecord(parsed)) return ok(fromParsed(parsed));
  const bytes = bodyBytes(req);
  if (bytes === undefined || bytes.length === 0) return ok({});
  const encoding = req.headers["content-encoding"]?.trim().toLowerCase();
  // RFC 7694 §3: an unsupported content coding is 415.
  if (encoding !== undefined && encoding !== "" && encoding !== "identity") return err(errors.unsupportedMediaType());
  const media = parseMediaType(req.headers["content-type"]);
  if (media === null) return err(errors.unsupportedMediaType());
  if (media.type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(media.type)) return decodeJson(bytes);
  if (media.type === "application/x-www-form-urlencoded") return ok(parseQuery(utf8.decode(bytes)));
  if (media.type === "multipart/form-data") {
    const fields = parseMultipart(bytes, media.params["boundary"] ?? "");
    return fields === null ? err(errors.badRequest("malformed multipart body")) : ok(fields);
  }
  return err(errors.unsupportedMediaType());
}

function decodeJson(bytes: Uint8Array): Result<Params, ForgekitError> {
  const text = utf8.decode(bytes);
  if (text.trim() === "") return ok({});
  let value: unknown;
  try {
    value = text.includes("__proto__") ? JSON.parse(text, (key, v: unknown) => (isUnsafeKey(key) ? undefined : v)) : JSON.parse(text);
  } catch {
    return err(errors.badRequest("malformed JSON"));
  }
  // A JSON document that is not an object carries no named parameters.
  return ok(isRecord(value) ? (value as Params) : {});
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** Converts a host-parsed body (express.json(), koa-bodyparser, qs) into parameter values. */
function fromParsed(value: Record<string, unknown>): Params {
  const out: Params = {};
  for (const [key, v] of Object.entries(value)) {
    if (isUnsafeKey(key)) continue;
    const converted = toParamValue(v, 0);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

function toParamValue(value: unknown, depth: number): ParamValue | undefined {
  if (depth > 32) return undefined;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => toParamValue(v, depth + 1) ?? null);
  if (typeof value === "object") {
    const out: { [key: string]: ParamValue } = {};
    for (const [key, v] of Object.entries(value)) {
      if (isUnsafeKey(key)) continue;
      const converted = toParamValue(v, depth + 1);
      if (converted !== undefined) out[key] = converted;
    }
    return out;
  }
  return undefined;
}
