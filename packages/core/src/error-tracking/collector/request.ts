/**
 * The HTTP side of the collector: which content types and codings it takes, how the body is
 * decompressed, and where the client key comes from (reference §5.3; client-compatibility §6.21).
 *
 * Content types: none, `application/x-sentry-envelope`, `application/json` and `text/plain`
 * (parameters such as `charset` ignored). These are the reference's three plus none, which is what
 * SDKs send when they post bytes without declaring a type. Anything else — `application/gzip`,
 * `application/octet-stream`, form and multipart bodies — is 415, as in the reference.
 *
 * Content codings: `gzip` / `x-gzip` and `deflate` are undone with node:zlib, with the decoded size
 * held to the same limit as a raw body (a small compressed body cannot expand into a huge one);
 * past it is 413, a corrupt stream 400, any other coding 415 (RFC 7694 §3).
 */
import { gunzip, inflate, type InputType, type ZlibOptions } from "node:zlib";
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../../errors.js";
import { parseMediaType } from "../../http/body.js";
import type { HttpRequest, Params } from "../../http/types.js";
import { PARSE_FAILED } from "./envelope.js";

/** Media types the collector accepts besides none. */
export const COLLECTOR_MEDIA_TYPES: readonly string[] = ["application/x-sentry-envelope", "application/json", "text/plain"];

type Inflate = (buffer: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;
const DECODERS: Record<string, Inflate> = { gzip: gunzip, "x-gzip": gunzip, deflate: inflate };

/** The codings of `Content-Encoding`, in the order they were applied (`identity` dropped). */
function codings(req: HttpRequest): string[] {
  const header = req.headers["content-encoding"] ?? "";
  return header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
}

/** 415 for a content type or coding the collector does not take. Looks at headers only. */
export function checkMediaType(req: HttpRequest): Result<void, ForgekitError> {
  const media = parseMediaType(req.headers["content-type"]);
  if (media !== null && !COLLECTOR_MEDIA_TYPES.includes(media.type)) return err(errors.unsupportedMediaType());
  if (codings(req).some((c) => DECODERS[c] === undefined)) return err(errors.unsupportedMediaType());
  return ok(undefined);
}

const SENTRY_KEY = /sentry_key=(\w+)/;

/**
 * The client key: the `sentry_key` parameter (the JavaScript SDK puts it in the query), else the
 * `X-Sentry-Auth` header (`Sentry sentry_version=7, sentry_key=…, …`; other SDKs), else an
 * `Authorization: Sentry …` header of the same form. `sentry_secret` is ignored. Null when none.
 */
export function sentryKeyFrom(req: HttpRequest, params: Params): string | null {
  const param = params["sentry_key"];
  if (typeof param === "string" && param !== "") return param;
  const authorization = req.headers["authorization"];
  for (const header of [req.headers["x-sentry-auth"], /^\s*sentry\s/i.test(authorization ?? "") ? authorization : undefined]) {
    const match = header === undefined ? null : SENTRY_KEY.exec(header);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

function run(decode: Inflate, input: Uint8Array, limit: number): Promise<Result<Uint8Array, ForgekitError>> {
  return new Promise((resolve) => {
    decode(input, { maxOutputLength: limit }, (error, result) => {
      if (error === null) resolve(ok(result));
      else if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) resolve(err(errors.payloadTooLarge()));
      else resolve(err(errors.badRequest(PARSE_FAILED)));
    });
  });
}

/**
 * The body bytes with the content codings undone, at most `limit` bytes. A body a host framework
 * already parsed (`parsedBody`) was decompressed by that framework's parser, so its codings are not
 * applied again; a parsed JSON object is re-serialised.
 */
export async function collectorBody(req: HttpRequest, limit: number): Promise<Result<Uint8Array, ForgekitError>> {
  if (req.body === undefined || req.body.length === 0) {
    const parsed = req.parsedBody;
    if (parsed instanceof Uint8Array) return ok(parsed);
    if (typeof parsed === "string") return ok(new TextEncoder().encode(parsed));
    if (typeof parsed === "object" && parsed !== null) return ok(new TextEncoder().encode(JSON.stringify(parsed)));
    return ok(new Uint8Array(0));
  }
  let bytes: Uint8Array = req.body;
  for (const coding of codings(req).reverse()) {
    const decoded = await run(DECODERS[coding] as Inflate, bytes, limit);
    if (decoded.isErr()) return decoded;
    bytes = decoded.value;
  }
  return ok(bytes);
}
