/**
 * Fixed-shape hot queries (point lookups on every authenticated request) compiled once per store
 * and re-run with new parameter values. Building and compiling a Kysely query costs several times
 * more than SQLite takes to answer a primary-key lookup; the SQL text of such a query never changes,
 * only its parameters do.
 */
import { CompiledQuery, type Compilable, type QueryResult } from "kysely";
import type { SqlContext } from "../repositories/context.js";

import type { Slot } from "./compiled-cache.js";

export type { CompiledCache } from "./compiled-cache.js";

const SENTINEL = /^\uE000forgekit-arg:(\d+)\uE000$/;

/** Stands for argument `index` while the query is compiled (typed as the column's value). */
function placeholder<T>(index: number): T {
  return `\uE000forgekit-arg:${index}\uE000` as T;
}

/**
 * Runs the query `build` describes with `args`. `build` receives `arg(i)` to place argument `i`;
 * every argument must appear at least once, and the query's shape must not depend on the values.
 * Without a cache on the context (a context built by hand) the query is compiled each time.
 */
export async function runCompiled<Row>(
  ctx: SqlContext,
  name: string,
  args: readonly unknown[],
  build: (arg: <T>(index: number) => T) => Compilable<Row>,
): Promise<Row[]> {
  return (await executeCompiled(ctx, name, args, build)).rows;
}

/** {@link runCompiled} with the whole result: affected rows and insert id of writes as well. */
export async function executeCompiled<Row>(
  ctx: SqlContext,
  name: string,
  args: readonly unknown[],
  build: (arg: <T>(index: number) => T) => Compilable<Row>,
): Promise<QueryResult<Row>> {
  let entry = ctx.compiled?.get(name);
  if (entry === undefined) {
    const compiled = build(placeholder).compile();
    const slots: Slot[] = compiled.parameters.map((value) => {
      const match = typeof value === "string" ? SENTINEL.exec(value) : null;
      return match ? { arg: Number(match[1]) } : { value };
    });
    const used = new Set(slots.flatMap((slot) => ("arg" in slot ? [slot.arg] : [])));
    if (args.some((_, i) => !used.has(i))) throw new Error(`compiled query ${name}: each of its ${args.length} arguments must appear in it`);
    entry = { sql: compiled.sql, slots };
    ctx.compiled?.set(name, entry);
  }
  const parameters = entry.slots.map((slot) => ("arg" in slot ? args[slot.arg] : slot.value));
  return ctx.db.executeQuery<Row>(CompiledQuery.raw(entry.sql, parameters));
}
