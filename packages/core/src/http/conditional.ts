/**
 * `If-Unmodified-Since` on DELETE (spec "General status codes", 412; reference §3.1
 * `check_unmodified_since!`): 412 when the header parses and the resource changed after it.
 */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { HttpRequest } from "./types.js";

/**
 * `err(precondition_failed)` when `If-Unmodified-Since` parses and `updatedAt` is later; an absent
 * or unparseable header is ignored. HTTP-dates have whole seconds, so `updatedAt` is compared at
 * second precision (RFC 9110 §13.1.4): a resource changed within the header's second still passes.
 */
export function checkUnmodifiedSince(req: HttpRequest, updatedAt: Date): Result<void, ForgekitError> {
  const header = req.headers["if-unmodified-since"];
  if (header === undefined || header.trim() === "") return ok(undefined);
  const since = Date.parse(header);
  if (Number.isNaN(since)) return ok(undefined);
  const changed = Math.floor(updatedAt.getTime() / 1000) * 1000;
  return changed > since ? err(errors.preconditionFailed()) : ok(undefined);
}
