/** What every SQL repository is built from: a Kysely handle (the pool or one transaction) and the dialect traits. */
import type { Kysely } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { CompiledCache } from "../sql/compiled-cache.js";
import type { Database } from "../schema.js";

export interface SqlContext {
  readonly db: Kysely<Database>;
  readonly traits: DialectTraits;
  /** The store's compiled hot queries (sql/compiled.ts); absent → compiled on every call. */
  readonly compiled?: CompiledCache;
}

/** Runs `fn` in the current transaction, or in a new one ({@link inNewTransaction}) when the handle is the pool. */
export function atomic<T>(ctx: SqlContext, fn: (ctx: SqlContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  return inNewTransaction(ctx, fn);
}

/** How often a transaction runs before a deadlock or serialization failure is the caller's. */
const TRANSACTION_ATTEMPTS = 6;

/**
 * Runs `fn` in a new transaction at the dialect's isolation level (READ COMMITTED on PostgreSQL and
 * MySQL). When the database aborts it for a conflict with a concurrent transaction (deadlock,
 * serialization failure) `fn` runs again from the start in a fresh transaction, after a short random
 * pause so the contenders spread out: both databases advise it, and no lock order rules deadlocks
 * out entirely (foreign-key checks take share locks behind the application's back). Anything else
 * rejects at once, and so does the last attempt's conflict.
 */
export async function inNewTransaction<T>(ctx: SqlContext, fn: (ctx: SqlContext) => Promise<T>): Promise<T> {
  const { traits } = ctx;
  for (let attempt = 1; ; attempt += 1) {
    const begin = traits.transactionIsolation === undefined ? ctx.db.transaction() : ctx.db.transaction().setIsolationLevel(traits.transactionIsolation);
    try {
      return await begin.execute((trx) => fn({ ...ctx, db: trx }));
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || traits.isTransientConflict?.(error) !== true) throw error;
      await pause(Math.random() * 5 * 2 ** attempt);
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Locks the user's row until the transaction ends (serialises writes to that user's e-mail set). */
export async function lockUser(ctx: SqlContext, userId: number): Promise<void> {
  if (!ctx.traits.supportsForUpdate) return;
  await ctx.db.selectFrom("forgekit_users").select("id").where("id", "=", userId).forUpdate().execute();
}
