/**
 * `kyselyRateLimiter`: the `RateLimiter` port on the forgekit database (table
 * `forgekit_rate_limits`, migration 0030), for hosts that run several instances without Redis
 * (issue 22). Same semantics as the in-memory limiter, on the `now` each call passes: a fixed window
 * from a key's first failure, `retryAfter` compares the window's failures with the limit, `reset`
 * forgets the key. A failure is one atomic upsert, so concurrent instances never lose a count.
 */
import { createHash } from "node:crypto";
import type { RateLimiter } from "@forgekit/core";
import { Kysely, sql } from "kysely";
import type { DialectConfig } from "./dialects/traits.js";
import type { RateLimitsDatabase } from "./schema-rate-limits.js";

/** Options of `kyselyRateLimiter`: the failures allowed per window and the window. */
export interface KyselyRateLimiterOptions {
  /** Failures allowed within one window; the next attempt is refused (as `oauth.rateLimit.maxFailures`). */
  maxFailures: number;
  windowSeconds: number;
}

/** The store-backed limiter: the port plus `close()` (releases the connections it opened). */
export interface KyselyRateLimiter extends RateLimiter {
  close(): Promise<void>;
}

/** Keys longer than the column are stored as their digest (callers that did not use `rateLimitKeys`). */
const MAX_KEY_LENGTH = 128;
const bounded = (key: string) => (key.length <= MAX_KEY_LENGTH ? key : `digest:${createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 22)}`);

/**
 * A limiter on the database of `config` (the same `sqlite()`, `postgres()`, `mysql()` or
 * `fromUrl()` config as the store's; run the store's `migrate()` first). Expired windows are
 * deleted at most once per window by each instance.
 */
export function kyselyRateLimiter(config: DialectConfig, options: KyselyRateLimiterOptions): KyselyRateLimiter {
  const base = new Kysely<RateLimitsDatabase>({ dialect: config.dialect });
  const db = config.schema === undefined ? base : base.withSchema(config.schema);
  const windowMs = options.windowSeconds * 1000;
  let sweptAt = Number.NEGATIVE_INFINITY;
  const sweep = async (t: number) => {
    if (t - sweptAt < windowMs && t >= sweptAt) return;
    sweptAt = t;
    await db.deleteFrom("forgekit_rate_limits").where("window_start", "<=", t - windowMs).execute();
  };
  return {
    async retryAfter(key, now, maxFailures) {
      const t = now.getTime();
      const row = await db.selectFrom("forgekit_rate_limits").select(["window_start", "failures"]).where("key", "=", bounded(key)).executeTakeFirst();
      if (row === undefined) return 0;
      const start = Number(row.window_start);
      if (t - start >= windowMs || Number(row.failures) < (maxFailures ?? options.maxFailures)) return 0;
      return Math.max(1, Math.ceil((start + windowMs - t) / 1000));
    },
    async recordFailure(key, now) {
      const t = now.getTime();
      await sweep(t);
      const values = { key: bounded(key), window_start: t, failures: 1 };
      if (config.traits.name === "mysql") {
        // MySQL assigns left to right: `failures` reads the old window_start before it changes.
        await db
          .insertInto("forgekit_rate_limits")
          .values(values)
          .onDuplicateKeyUpdate({
            failures: sql`if(${t} - window_start >= ${windowMs}, 1, failures + 1)`,
            window_start: sql`if(${t} - window_start >= ${windowMs}, ${t}, window_start)`,
          })
          .execute();
        return;
      }
      const expired = sql<boolean>`${sql.val(t)} - forgekit_rate_limits.window_start >= ${sql.val(windowMs)}`;
      await db
        .insertInto("forgekit_rate_limits")
        .values(values)
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            failures: sql`case when ${expired} then 1 else forgekit_rate_limits.failures + 1 end`,
            window_start: sql`case when ${expired} then ${sql.val(t)} else forgekit_rate_limits.window_start end`,
          }),
        )
        .execute();
    },
    async reset(key) {
      await db.deleteFrom("forgekit_rate_limits").where("key", "=", bounded(key)).execute();
    },
    close: () => base.destroy(),
  };
}
