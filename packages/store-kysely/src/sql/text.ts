/** Case folding and substring search, identical in every dialect (and in core's memory store). */
import { sql, type RawBuilder } from "kysely";

/** The case-folded form stored in `*_lower` columns; JavaScript folds, so no dialect's `lower()` is involved. */
export function fold(value: string): string {
  return value.toLowerCase();
}

/** `column LIKE %term%` on a folded column, with `%`, `_` and the escape character taken literally. */
export function containsFolded(column: string, term: string): RawBuilder<boolean> {
  const escaped = fold(term).replace(/[!%_]/g, (character) => `!${character}`);
  return sql<boolean>`${sql.ref(column)} like ${`%${escaped}%`} escape '!'`;
}
