/** What every SQL repository is built from: a Kysely handle (the pool or one transaction) and the dialect traits. */
import type { Kysely } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { CompiledCache } from "../sql/compiled.js";
import type { Database } from "../schema.js";

export interface SqlContext {
  readonly db: Kysely<Database>;
  readonly traits: DialectTraits;
  /** The store's compiled hot queries (sql/compiled.ts); absent → compiled on every call. */
  readonly compiled?: CompiledCache;
}

/** Runs `fn` in the current transaction, or in a new one when the handle is the pool. */
export function atomic<T>(ctx: SqlContext, fn: (ctx: SqlContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  return ctx.db.transaction().execute((trx) => fn({ ...ctx, db: trx }));
}

/** Locks the user's row until the transaction ends (serialises writes to that user's e-mail set). */
export async function lockUser(ctx: SqlContext, userId: number): Promise<void> {
  if (!ctx.traits.supportsForUpdate) return;
  await ctx.db.selectFrom("forgekit_users").select("id").where("id", "=", userId).forUpdate().execute();
}
