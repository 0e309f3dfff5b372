/**
 * `multipart/form-data` fields (RFC 7578), as python-gitlab sends them for uploads: text fields
 * become parameters with the same nesting rules as a query string; file parts are left out of the
 * parameters and read by the routes that take files (`POST /projects/:id/uploads`) with
 * {@link multipartParts}. Returns null when the body is not well-formed multipart.
 */
import { nestPairs } from "./query.js";
import type { ParamValue, Params } from "./types.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One part of a multipart body. */
export interface MultipartPart {
  name: string;
  /** The part's `filename` (a file part), or null (a text field). */
  filename: string | null;
  /** The part's Content-Type, or null. */
  contentType: string | null;
  bytes: Uint8Array;
}

/** The parts of a multipart body delimited by `boundary`, or null when it is not well-formed. */
export function multipartParts(body: Uint8Array, boundary: string): MultipartPart[] | null {
  if (boundary === "" || boundary.length > 200) return null;
  const delimiter = encoder.encode(`--${boundary}`);
  const headerEnd = encoder.encode("\r\n\r\n");
  let at = indexOf(body, delimiter, 0);
  if (at === -1) return null;
  const parts: MultipartPart[] = [];
  for (;;) {
    const afterDelimiter = at + delimiter.length;
    // `--boundary--` closes the body.
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) return parts;
    if (body[afterDelimiter] !== 0x0d || body[afterDelimiter + 1] !== 0x0a) return null;
    const partStart = afterDelimiter + 2;
    const next = indexOf(body, delimiter, partStart);
    if (next === -1) return null;
    // The CRLF before the next delimiter belongs to the delimiter.
    const partEnd = next - 2;
    if (partEnd < partStart || body[partEnd] !== 0x0d || body[partEnd + 1] !== 0x0a) return null;
    const split = indexOf(body.subarray(0, partEnd), headerEnd, partStart);
    if (split === -1) return null;
    const headers = decoder.decode(body.subarray(partStart, split));
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(headers);
    if (disposition === null) return null;
    const name = dispositionParam(disposition[1] ?? "", "name");
    if (name === null) return null;
    const contentType = /^content-type:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? null;
    parts.push({ name, filename: dispositionParam(disposition[1] ?? "", "filename"), contentType, bytes: body.subarray(split + headerEnd.length, partEnd) });
    at = next;
  }
}

/** Decodes the text fields of a multipart body delimited by `boundary` (file parts are left to {@link multipartParts}). */
export function parseMultipart(body: Uint8Array, boundary: string): Params | null {
  const parts = multipartParts(body, boundary);
  if (parts === null) return null;
  const pairs: [string, ParamValue][] = parts.filter((part) => part.filename === null).map((part) => [part.name, decoder.decode(part.bytes)]);
  return nestPairs(pairs);
}

/** Reads `name="value"` (or an unquoted token) from a Content-Disposition parameter list. */
function dispositionParam(params: string, key: string): string | null {
  const re = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i");
  const m = re.exec(params);
  if (m === null) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? "");
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = from; i <= last; i++) {
    if (haystack[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
