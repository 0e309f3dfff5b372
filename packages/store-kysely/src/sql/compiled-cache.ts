/** The cache of compiled hot queries (sql/compiled.ts) a store and its transactions share, apart so that the SQL context can hold it. */

/** Where a compiled query's parameter comes from: the caller's argument `arg`, or a fixed value. */
export type Slot = { arg: number } | { value: unknown };

/** Compiled SQL by query name, for one store (its dialect and schema); shared with its transactions. */
export type CompiledCache = Map<string, { sql: string; slots: readonly Slot[] }>;
