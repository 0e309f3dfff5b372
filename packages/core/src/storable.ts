/**
 * What text every store can hold. PostgreSQL refuses U+0000 in any text value — even in a
 * comparison, so a lookup fails with `invalid byte sequence for encoding "UTF8": 0x00` instead of
 * finding nothing. Every other character is held by all stores: MySQL tables are utf8mb4, and a
 * lone surrogate (possible in a JSON body's `"\ud800"`) is sent as U+FFFD by every driver's UTF-8
 * encoding. Request text is checked here at the parameter layer (http/params.ts, sudo), so no
 * store sees a value it cannot hold.
 */

/** Whether every store can hold (and compare) `text`: it has no NUL character. */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000");
}
