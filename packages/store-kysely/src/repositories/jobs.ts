/**
 * SQL JobRepository (ports/jobs-store.ts). A claim is one transaction: select the due rows, lock
 * them, mark them running under the new lease. PostgreSQL and MySQL lock with
 * `FOR UPDATE SKIP LOCKED`, so racing workers each take different rows without waiting on each
 * other; SQLite has no row locks, and its write transaction (`BEGIN IMMEDIATE`, dialects/
 * sqlite-driver.ts) is the lock: one claimer at a time. Every write on a leased job is guarded by
 * `state = 'running' AND lease_owner = owner`, so a worker that lost its lease writes nothing.
 */
import type { JobListFilter, JobRecord, JobRepository, JobState, LeaseStatus, NewJobRecord } from "@forgekit/core";
import type { Expression, ExpressionBuilder, Selectable, SqlBool, UpdateQueryBuilder, UpdateResult } from "kysely";
import type { Database, JobsTable } from "../schema.js";
import type { DbDate } from "../schema-values.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

type Row = Selectable<JobsTable>;
type JobUpdate = UpdateQueryBuilder<Database, "forgekit_jobs", "forgekit_jobs", UpdateResult>;

const LOST: LeaseStatus = { held: false, cancelRequested: false };
const num = (value: number | string | bigint | null): number | null => (value === null ? null : Number(value));

/** Why a job whose last attempt's worker died (lease expired, or heartbeat stopped) ends `failed`. */
const LEASE_LOST = "the worker running the last attempt stopped without finishing it (lease expired)";

export function sqlJobs(ctx: SqlContext): JobRepository {
  const { db, traits: t } = ctx;
  const map = (row: Row): JobRecord => ({
    id: Number(row.id),
    kind: row.kind,
    payload: row.payload,
    state: row.state as JobState,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAfter: t.fromDate(row.run_after),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at === null ? null : t.fromDate(row.lease_expires_at),
    lastError: row.last_error,
    progressDone: num(row.progress_done),
    progressTotal: num(row.progress_total),
    cancelRequested: t.fromBool(row.cancel_requested),
    uniqueKey: row.unique_key,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    finishedAt: row.finished_at === null ? null : t.fromDate(row.finished_at),
  });
  const byId = async (c: SqlContext, id: number) => {
    const row = await c.db.selectFrom("forgekit_jobs").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  /**
   * An update of the job `owner` holds; resolves to whether it applied. In a transaction of its own
   * (unless one is open), so that a deadlock with a racing claim — MySQL's index locks make them
   * possible — runs it again instead of failing the worker's write.
   */
  const onHeld = (c: SqlContext, id: number, owner: string, set: (update: JobUpdate) => JobUpdate) =>
    atomic(c, async (tx) => {
      const update = tx.db.updateTable("forgekit_jobs").where("id", "=", id).where("state", "=", "running").where("lease_owner", "=", owner);
      const result = await set(update).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  /** Ends a held job: finish time set, lease and unique key released (the key may be taken again). */
  const ending = (state: "succeeded" | "failed" | "cancelled", now: Date) => ({
    state,
    finished_at: t.toDate(now),
    updated_at: t.toDate(now),
    lease_owner: null,
    lease_expires_at: null,
    unique_key: null,
  });
  const status = async (c: SqlContext, id: number): Promise<LeaseStatus> => {
    const row = await c.db.selectFrom("forgekit_jobs").select("cancel_requested").where("id", "=", id).executeTakeFirst();
    return { held: true, cancelRequested: row !== undefined && t.fromBool(row.cancel_requested) };
  };

  /** Inserts a queued job; null when its unique key is held (the unique index decides between racing enqueues). */
  const insert = (c: SqlContext, input: NewJobRecord, now: Date) =>
    t.insertOrIgnore(c.db, "forgekit_jobs", {
      kind: input.kind,
      payload: input.payload,
      state: "queued",
      attempts: 0,
      max_attempts: input.maxAttempts,
      run_after: t.toDate(input.runAfter),
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      progress_done: null,
      progress_total: null,
      cancel_requested: t.toBool(false),
      unique_key: input.uniqueKey ?? null,
      created_at: t.toDate(now),
      updated_at: t.toDate(now),
      finished_at: null,
    });
  /** Runs the guarded end of a held job, then enqueues `next` in the same transaction when it applied. */
  const endWith = (id: number, owner: string, now: Date, next: NewJobRecord | undefined, set: (update: JobUpdate) => JobUpdate) =>
    next === undefined
      ? onHeld(ctx, id, owner, set)
      : atomic(ctx, async (tx) => {
          if (!(await onHeld(tx, id, owner, set))) return false;
          await insert(tx, next, now);
          return true;
        });

  return {
    clock: "caller",
    enqueue: (input, now) =>
      atomic(ctx, async (tx) => {
        const id = await insert(tx, input, now);
        return id === null ? null : byId(tx, id);
      }),
    claim: async (claim) => {
      const now = t.toDate(claim.now);
      /**
       * A running job another worker may take over: its lease ended, or its owner's registry
       * heartbeat stopped (the worker is gone) — never the claimer's own.
       */
      const orphaned = (eb: ExpressionBuilder<Database, "forgekit_jobs">) =>
        eb.and([
          eb("state", "=", "running"),
          eb("lease_owner", "!=", claim.owner),
          eb.or([
            eb("lease_expires_at", "<=", now),
            eb("lease_owner", "in", eb.selectFrom("forgekit_job_workers").select("owner").where("alive_until", "<=", now)),
          ]),
        ]);
      // Jobs whose worker died on their last attempt end here, in their own short statement.
      await atomic(ctx, (tx) =>
        tx.db
          .updateTable("forgekit_jobs")
          .set({ ...ending("failed", claim.now), last_error: LEASE_LOST })
          .where(orphaned)
          .whereRef("attempts", ">=", "max_attempts")
          .execute(),
      );
      if (claim.limit < 1 || claim.kinds.length === 0) return [];
      return atomic(ctx, async (tx) => {
        // Two selects, each on its own index (one with an OR of both scanned the whole table:
        // 10 ms a claim at 100,000 queued jobs on SQLite): the queued jobs that are due, and the
        // running ones another worker may take over; the oldest `limit` of both, by run-after and id.
        const pick = (where: (eb: ExpressionBuilder<Database, "forgekit_jobs">) => Expression<SqlBool>) => {
          let q = tx.db.selectFrom("forgekit_jobs").select(["id", "run_after"]).where(where).where("kind", "in", [...claim.kinds]).orderBy("run_after").orderBy("id").limit(claim.limit);
          // Racing claimers skip each other's rows instead of queueing behind them (or taking them twice).
          if (tx.traits.supportsForUpdate) q = q.forUpdate().skipLocked();
          return q.execute();
        };
        const queued = await pick((eb) => eb.and([eb("state", "=", "queued"), eb("run_after", "<=", now)]));
        const takenOver = await pick((eb) => eb.and([orphaned(eb), eb("attempts", "<", eb.ref("max_attempts"))]));
        const at = (row: { run_after: DbDate }) => t.fromDate(row.run_after).getTime();
        const ids = [...queued, ...takenOver]
          .sort((a, b) => at(a) - at(b) || Number(a.id) - Number(b.id))
          .slice(0, claim.limit)
          .map((row) => Number(row.id));
        if (ids.length === 0) return [];
        await tx.db
          .updateTable("forgekit_jobs")
          .set((eb) => ({
            state: "running",
            attempts: eb("attempts", "+", 1),
            lease_owner: claim.owner,
            lease_expires_at: t.toDate(claim.leaseUntil),
            updated_at: now,
          }))
          .where("id", "in", ids)
          .execute();
        const rows = await tx.db.selectFrom("forgekit_jobs").selectAll().where("id", "in", ids).orderBy("run_after").orderBy("id").execute();
        return rows.map(map);
      });
    },
    heartbeat: async (owner, aliveUntil, now) => {
      await atomic(ctx, async (tx) => {
        await t.upsert(tx.db, "forgekit_job_workers", { owner, alive_until: t.toDate(aliveUntil), beat_at: t.toDate(now) }, ["owner"], ["alive_until", "beat_at"]);
        // Rows of workers long gone that no running job names any more.
        await tx.db
          .deleteFrom("forgekit_job_workers")
          .where("alive_until", "<=", t.toDate(now))
          .where((eb) => eb.not(eb.exists(eb.selectFrom("forgekit_jobs").select("id").where("state", "=", "running").whereRef("lease_owner", "=", "forgekit_job_workers.owner"))))
          .execute();
      });
    },
    retire: async (owner) => {
      await db.deleteFrom("forgekit_job_workers").where("owner", "=", owner).execute();
    },
    extendLease: async (id, owner, leaseUntil, now) => {
      const applied = await onHeld(ctx, id, owner, (u) => u.set({ lease_expires_at: t.toDate(leaseUntil), updated_at: t.toDate(now) }));
      return applied ? status(ctx, id) : LOST;
    },
    progress: async (id, owner, done, total, now) => {
      const applied = await onHeld(ctx, id, owner, (u) => u.set({ progress_done: done, progress_total: total, updated_at: t.toDate(now) }));
      return applied ? status(ctx, id) : LOST;
    },
    complete: (id, owner, now, next) => endWith(id, owner, now, next, (u) => u.set(ending("succeeded", now))),
    fail: (id, owner, error, retryAt, now, next) =>
      endWith(id, owner, now, retryAt === null ? next : undefined, (u) =>
        retryAt === null
          ? u.set({ ...ending("failed", now), last_error: error })
          : u.set({ state: "queued", run_after: t.toDate(retryAt), lease_owner: null, lease_expires_at: null, last_error: error, updated_at: t.toDate(now) }),
      ),
    release: (id, owner, now) =>
      onHeld(ctx, id, owner, (u) =>
        u.set((eb) => ({ state: "queued", attempts: eb("attempts", "-", 1), run_after: t.toDate(now), lease_owner: null, lease_expires_at: null, updated_at: t.toDate(now) })),
      ),
    acknowledgeCancel: (id, owner, now) => onHeld(ctx, id, owner, (u) => u.set(ending("cancelled", now))),
    cancel: (id, now) =>
      atomic(ctx, async (tx) => {
        // Two guarded updates: whichever state the row is in when each runs, at most one applies.
        await tx.db.updateTable("forgekit_jobs").set(ending("cancelled", now)).where("id", "=", id).where("state", "=", "queued").execute();
        await tx.db
          .updateTable("forgekit_jobs")
          .set({ cancel_requested: t.toBool(true), updated_at: t.toDate(now) })
          .where("id", "=", id)
          .where("state", "=", "running")
          .where("cancel_requested", "=", t.toBool(false))
          .execute();
        return byId(tx, id);
      }),
    findById: (id) => byId(ctx, id),
    list: (filter: JobListFilter, page) => {
      checkPage(page);
      let query = db.selectFrom("forgekit_jobs");
      if (filter.kind !== undefined) query = query.where("kind", "=", filter.kind);
      if (filter.states !== undefined) query = filter.states.length === 0 ? query.where("id", "<", 0) : query.where("state", "in", [...filter.states]);
      return offsetPage(db, query, (q) => q.selectAll().orderBy("id", "desc"), page, map);
    },
  };
}
