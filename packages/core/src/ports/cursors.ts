/**
 * Keyset cursors every store hands out and accepts (ports/pagination.ts `KeysetPageRequest.after`):
 * projects page by id (the last id as a decimal string), groups by folded name then id (an opaque
 * base64url string). One codec, so every store reads the cursors every other store writes.
 */

/** Encodes a group keyset position (folded name + id) as an opaque base64url string. */
export function encodeNameCursor(name: string, id: number): string {
  return Buffer.from(JSON.stringify([name, id]), "utf8").toString("base64url");
}

/** Decodes `encodeNameCursor`; rejects anything else with a RangeError. */
export function decodeNameCursor(cursor: string): { name: string; id: number } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new RangeError("invalid keyset cursor");
  }
  if (!Array.isArray(value) || typeof value[0] !== "string" || !Number.isSafeInteger(value[1])) {
    throw new RangeError("invalid keyset cursor");
  }
  return { name: value[0], id: value[1] as number };
}

/** Decodes an id cursor (the last id as a decimal string); rejects anything else with a RangeError. */
export function decodeIdCursor(cursor: string): number {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(cursor)) throw new RangeError("invalid keyset cursor");
  return Number(cursor);
}
