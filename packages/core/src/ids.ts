/**
 * Record ids. They are 32-bit signed integers in every store (PostgreSQL and MySQL `integer`
 * columns): a larger number can name no record, and PostgreSQL refuses to even compare one with an
 * id column (an error, not "no row"). So every id from outside — a path, a parameter, a caller of
 * the programmatic API — is checked here before it reaches a store, and answered as unknown.
 */
import { isStorableText } from "./storable.js";

/** The largest record id a store can hold. */
export const MAX_RECORD_ID = 2_147_483_647;

/**
 * An id no record has (ids start at 1). A path value that can name nothing — digits beyond the id
 * range, text no store can hold — becomes this id, so its lookup finds nothing and the route
 * answers its usual 404, after its usual checks (http/params.ts `p.id`).
 */
export const NO_RECORD_ID = 0;

/** Whether `n` fits an id column (signed 32-bit). */
export function inIdRange(n: number): boolean {
  return Number.isInteger(n) && n >= -MAX_RECORD_ID - 1 && n <= MAX_RECORD_ID;
}

/** A value that can name a stored record: an integer from 1 to MAX_RECORD_ID. */
export function isRecordId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_RECORD_ID;
}

/** `text` as a record id when it is all digits and within the id range, else null (it can name no record). */
export function recordIdFrom(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return inIdRange(n) ? n : null;
}

/**
 * What a reference given to a service names (a group or project "id or full path", as the
 * programmatic API takes it): a record id for a number or all-digit text, other text as a full
 * path; `null` when it can name nothing (an id beyond the id range, text no store can hold), so
 * the service answers "not found" without asking a store.
 */
export function recordRef(value: number | string): number | string | null {
  if (typeof value === "number") return Number.isInteger(value) && inIdRange(value) ? value : null;
  if (/^\d+$/.test(value)) return recordIdFrom(value);
  return isStorableText(value) ? value : null;
}
