/** SQL {@link CommitStatusRepository}: external pipelines and the commit statuses in them. */
import type { CommitStatusRecord, CommitStatusRepository, CommitStatusState, PipelineRecord } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { CommitStatusesTable, PipelinesTable } from "../schema-statuses.js";
import { offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

const date = (t: DialectTraits, v: Selectable<PipelinesTable>["started_at"]) => (v === null ? null : t.fromDate(v));

const toPipeline = (row: Selectable<PipelinesTable>, t: DialectTraits): PipelineRecord => ({
  id: Number(row.id),
  iid: Number(row.iid),
  projectId: Number(row.project_id),
  sha: row.sha,
  ref: row.ref,
  status: row.status as CommitStatusState,
  userId: row.user_id === null ? null : Number(row.user_id),
  createdAt: t.fromDate(row.created_at),
  updatedAt: t.fromDate(row.updated_at),
  startedAt: date(t, row.started_at),
  finishedAt: date(t, row.finished_at),
});

const toStatus = (row: Selectable<CommitStatusesTable>, t: DialectTraits): CommitStatusRecord => ({
  id: Number(row.id),
  projectId: Number(row.project_id),
  pipelineId: Number(row.pipeline_id),
  sha: row.sha,
  ref: row.ref,
  name: row.name,
  status: row.status as CommitStatusState,
  description: row.description,
  targetUrl: row.target_url,
  coverage: row.coverage === null ? null : Number(row.coverage),
  authorId: row.author_id === null ? null : Number(row.author_id),
  retried: t.fromBool(row.retried),
  createdAt: t.fromDate(row.created_at),
  updatedAt: t.fromDate(row.updated_at),
  startedAt: date(t, row.started_at),
  finishedAt: date(t, row.finished_at),
});

/** The SQL statuses repository over one Kysely handle. */
export function sqlStatuses(ctx: SqlContext): CommitStatusRepository {
  const { db, traits: t } = ctx;
  const pipelineById = async (id: number) => {
    const row = await db.selectFrom("forgekit_pipelines").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toPipeline(row, t);
  };
  const statusById = async (id: number) => {
    const row = await db.selectFrom("forgekit_commit_statuses").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toStatus(row, t);
  };
  const optionalDate = (d: Date | null) => (d === null ? null : t.toDate(d));
  return {
    async newestPipeline(projectId, match) {
      let q = db.selectFrom("forgekit_pipelines").selectAll().where("project_id", "=", projectId).where("sha", "=", match.sha);
      if (match.ref !== undefined) q = q.where("ref", "=", match.ref);
      if (match.id !== undefined) q = q.where("id", "=", match.id);
      const row = await q.orderBy("id", "desc").limit(1).executeTakeFirst();
      return row === undefined ? null : toPipeline(row, t);
    },
    createPipeline: (input, now) =>
      atomic(ctx, async (tx) => {
        // The project row is locked first (PostgreSQL, MySQL) so concurrent creators queue for the next iid.
        if (t.supportsForUpdate) await tx.db.selectFrom("forgekit_projects").select("id").where("id", "=", input.projectId).forUpdate().execute();
        const max = await tx.db.selectFrom("forgekit_pipelines").select((eb) => eb.fn.max("iid").as("max")).where("project_id", "=", input.projectId).executeTakeFirst();
        const iid = Number(max?.max ?? 0) + 1;
        const values = { project_id: input.projectId, iid, sha: input.sha, ref: input.ref, status: "created", user_id: input.userId, created_at: t.toDate(now), updated_at: t.toDate(now), started_at: null, finished_at: null };
        const id = await t.insert(tx.db, "forgekit_pipelines", values);
        return { id, iid, ...input, status: "created", createdAt: new Date(now), updatedAt: new Date(now), startedAt: null, finishedAt: null };
      }),
    async findPipeline(projectId, id) {
      const found = await pipelineById(id);
      return found === null || found.projectId !== projectId ? null : found;
    },
    async updatePipeline(id, edit, now) {
      await db
        .updateTable("forgekit_pipelines")
        .set({ status: edit.status, started_at: optionalDate(edit.startedAt), finished_at: optionalDate(edit.finishedAt), updated_at: t.toDate(now) })
        .where("id", "=", id)
        .execute();
      return pipelineById(id);
    },
    listPipelines(f, page) {
      let filtered = db.selectFrom("forgekit_pipelines").where("project_id", "=", f.projectId);
      if (f.sha !== undefined) filtered = filtered.where("sha", "=", f.sha);
      if (f.ref !== undefined) filtered = filtered.where("ref", "=", f.ref);
      if (f.statuses !== undefined) filtered = f.statuses.length === 0 ? filtered.where("id", "<", 0) : filtered.where("status", "in", [...f.statuses]);
      if (f.userId !== undefined) filtered = filtered.where("user_id", "=", f.userId);
      return offsetPage(ctx.db, filtered, (q) => q.selectAll().orderBy(f.orderBy, f.sort).orderBy("id", f.sort), page, (row) => toPipeline(row, t));
    },
    async findActiveStatus(pipelineId, match) {
      const row = await db
        .selectFrom("forgekit_commit_statuses")
        .selectAll()
        .where("pipeline_id", "=", pipelineId)
        .where("ref", "=", match.ref)
        .where("name", "=", match.name)
        .where("author_id", "=", match.authorId)
        .where("status", "in", ["pending", "running"])
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? null : toStatus(row, t);
    },
    createStatus: (input, now) =>
      atomic(ctx, async (tx) => {
        await tx.db.updateTable("forgekit_commit_statuses").set({ retried: t.toBool(true) }).where("pipeline_id", "=", input.pipelineId).where("name", "=", input.name).execute();
        const values = {
          project_id: input.projectId,
          pipeline_id: input.pipelineId,
          sha: input.sha,
          ref: input.ref,
          name: input.name,
          status: input.status,
          description: input.description,
          target_url: input.targetUrl,
          coverage: input.coverage,
          author_id: input.authorId,
          retried: t.toBool(false),
          created_at: t.toDate(now),
          updated_at: t.toDate(now),
          started_at: optionalDate(input.startedAt),
          finished_at: optionalDate(input.finishedAt),
        };
        const id = await t.insert(tx.db, "forgekit_commit_statuses", values);
        return { id, ...input, retried: false, createdAt: new Date(now), updatedAt: new Date(now) };
      }),
    async updateStatus(id, edit, now) {
      await db
        .updateTable("forgekit_commit_statuses")
        .set({
          status: edit.status,
          started_at: optionalDate(edit.startedAt),
          finished_at: optionalDate(edit.finishedAt),
          ...(edit.description === undefined ? {} : { description: edit.description }),
          ...(edit.targetUrl === undefined ? {} : { target_url: edit.targetUrl }),
          ...(edit.coverage === undefined ? {} : { coverage: edit.coverage }),
          updated_at: t.toDate(now),
        })
        .where("id", "=", id)
        .execute();
      return statusById(id);
    },
    async latestStatuses(pipelineId) {
      const rows = await db.selectFrom("forgekit_commit_statuses").selectAll().where("pipeline_id", "=", pipelineId).where("retried", "=", t.toBool(false)).orderBy("id").execute();
      return rows.map((row) => toStatus(row, t));
    },
    listStatuses(f, page) {
      let filtered = db.selectFrom("forgekit_commit_statuses").where("project_id", "=", f.projectId).where("sha", "=", f.sha);
      if (!f.all) filtered = filtered.where("retried", "=", t.toBool(false));
      if (f.ref !== undefined) filtered = filtered.where("ref", "=", f.ref);
      if (f.name !== undefined) filtered = filtered.where("name", "=", f.name);
      return offsetPage(ctx.db, filtered, (q) => q.selectAll().orderBy("id", "asc"), page, (row) => toStatus(row, t));
    },
  };
}
