/**
 * Test support: a better-sqlite3 database as the SQLite dialect takes it, reporting every statement
 * the store runs (its SQL, parameters and how it ran) before running it on `raw`.
 */
import type BetterSqlite3 from "better-sqlite3";

/** One statement run: `all` (reads), `run` (writes) or `iterate`. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
  method: "all" | "run" | "iterate";
}

/** `raw` wrapped so that `record` hears each statement; `memory` as `raw` is. */
export function recordingSqlite(raw: BetterSqlite3.Database, record: (statement: RecordedStatement) => void) {
  return {
    memory: raw.memory,
    pragma: (source: string, options?: { simple?: boolean }) => raw.pragma(source, options),
    close: () => undefined,
    prepare(source: string) {
      const statement = raw.prepare(source);
      return {
        reader: statement.reader,
        all: (params: unknown[]) => (record({ sql: source, params, method: "all" }), statement.all(params)),
        run: (params: unknown[]) => (record({ sql: source, params, method: "run" }), statement.run(params)),
        iterate: (params: unknown[]) => (record({ sql: source, params, method: "iterate" }), statement.iterate(params)),
      };
    },
  };
}
