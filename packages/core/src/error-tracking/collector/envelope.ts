/**
 * Sentry envelopes (what SDKs post to `…/envelope/`): a JSON header line, then items, each a JSON
 * item-header line (`{"type":…,"length":…}`) and a payload of `length` bytes, or up to the next
 * newline when `length` is absent. Lengths count bytes, so the parser works on bytes.
 *
 * Only `event` items are errors. Every other item type (`session`, `sessions`, `client_report`,
 * `transaction`, `attachment`, …) is skipped: the JavaScript SDK sends session and client-report
 * items alongside events (client-compatibility §6.22), and refusing them gains nothing.
 */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../../errors.js";

/** 400 body text for a body that is not a well-formed envelope or JSON document (reference wording). */
export const PARSE_FAILED = "Failed to parse sentry request";

const NEWLINE = 0x0a;
const utf8 = new TextDecoder("utf-8", { fatal: true });

function parseJson(bytes: Uint8Array): { value: unknown } | null {
  try {
    return { value: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Parses one JSON document (the `store` body); `bad_request(PARSE_FAILED)` when it does not parse. */
export function parseJsonDocument(bytes: Uint8Array): Result<unknown, ForgekitError> {
  const parsed = bytes.length === 0 ? null : parseJson(bytes);
  return parsed === null ? err(errors.badRequest(PARSE_FAILED)) : ok(parsed.value);
}

/**
 * The parsed `event` item payloads of an envelope, in order (not yet validated as events). An
 * empty body, a header or item header that is not a JSON object, a length past the end or a
 * payload that is not JSON is `bad_request(PARSE_FAILED)`.
 */
export function parseEnvelope(bytes: Uint8Array): Result<unknown[], ForgekitError> {
  const failed = err(errors.badRequest(PARSE_FAILED));
  let at = 0;
  const line = (): Uint8Array => {
    const end = bytes.indexOf(NEWLINE, at);
    const stop = end === -1 ? bytes.length : end;
    const slice = bytes.subarray(at, stop);
    at = end === -1 ? bytes.length : end + 1;
    return slice;
  };

  const header = parseJson(line());
  if (header === null || !isObject(header.value)) return failed;
  const events: unknown[] = [];
  while (at < bytes.length) {
    const headerLine = line();
    // Blank lines between items (and a trailing newline) carry nothing.
    if (headerLine.every((b) => b === 0x20 || b === 0x0d || b === 0x09)) continue;
    const item = parseJson(headerLine);
    if (item === null || !isObject(item.value) || typeof item.value["type"] !== "string") return failed;
    const length = item.value["length"];
    let payload: Uint8Array;
    if (length === undefined || length === null) {
      payload = line();
    } else {
      if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0 || at + length > bytes.length) return failed;
      payload = bytes.subarray(at, at + length);
      at += length;
      if (bytes[at] === NEWLINE) at += 1;
    }
    if (item.value["type"] !== "event") continue;
    const event = parseJson(payload);
    if (event === null) return failed;
    events.push(event.value);
  }
  return ok(events);
}
