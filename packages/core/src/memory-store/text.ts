/** Text rules shared by the in-memory repositories; the SQL store mirrors them exactly. */

/** The case-folded form used for uniqueness, lookups, search and ordering. */
export function fold(value: string): string {
  return value.toLowerCase();
}

/** Case-insensitive substring match (the SQL store's `LIKE` on folded columns). */
export function contains(haystack: string, needle: string): boolean {
  return fold(haystack).includes(fold(needle));
}

/** Code-point order, the order of a binary UTF-8 collation (not UTF-16 code-unit order). */
export function compareText(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Moves surrogates above U+E000…U+FFFF so code units compare like the code points they encode. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
