/** SQL {@link ReviewRepository}: merge-request merges, filters, labels and deletion; snippet descriptions, edits, lists. */
import type { MergeRequestListFilter, MergeRequestRecord, ReviewRepository, SnippetRecord } from "@forgekit/core";
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from "kysely";
import type { MergeRequestsTable, SnippetsTable } from "../schema-activity.js";
import type { Database } from "../schema.js";
import { offsetPage } from "../sql/pagination.js";
import { toMergeRequest, toSnippet } from "./activity-rows.js";
import { atomic, type SqlContext } from "./context.js";
import type { DialectTraits } from "../dialects/traits.js";

/** The columns migration 0013_merge_request_merges added, seen only by this repository. */
interface MergeRequestRow extends MergeRequestsTable {
  merge_user_id: number | null;
  merge_commit_sha: string | null;
}
interface SnippetRow extends SnippetsTable {
  description: string | null;
}
type ReviewDatabase = Omit<Database, "forgekit_merge_requests" | "forgekit_snippets"> & { forgekit_merge_requests: MergeRequestRow; forgekit_snippets: SnippetRow };
type MrEb = ExpressionBuilder<ReviewDatabase & { mr: MergeRequestRow }, "mr">;

const toRecord = (row: Selectable<MergeRequestRow>, t: DialectTraits): MergeRequestRecord => ({
  ...toMergeRequest(row, t),
  mergeUserId: row.merge_user_id === null ? null : Number(row.merge_user_id),
  mergeCommitSha: row.merge_commit_sha,
});

const toSnippetRecord = (row: Selectable<SnippetRow>, t: DialectTraits): SnippetRecord => ({ ...toSnippet(row, t), description: row.description ?? "" });

/** `lower(column) like %term%` with `%`, `_` and `!` literal. */
function containsLower(column: string, term: string) {
  const escaped = term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '!'`;
}

const labelLink = (eb: MrEb) =>
  eb.selectFrom("forgekit_label_links as ll").select(sql.lit(1).as("one")).whereRef("ll.target_id", "=", "mr.id").where("ll.target_type", "=", "MergeRequest");

/** An assignee / reviewer filter: that user, none or any (ports/merge-request-extras-store.ts). */
function personCondition(eb: MrEb, role: "assignee" | "reviewer", value: number | "none" | "any"): Expression<SqlBool> {
  let people = eb.selectFrom("forgekit_merge_request_people as pp").select(sql.lit(1).as("one")).whereRef("pp.merge_request_id", "=", "mr.id").where("pp.role", "=", role);
  if (typeof value === "number") people = people.where("pp.user_id", "=", value);
  return value === "none" ? eb.not(eb.exists(people)) : eb.exists(people);
}

/** A milestone filter: that milestone (by id or title), none or any (ports/review-store.ts). */
function milestoneCondition(eb: MrEb, value: NonNullable<MergeRequestListFilter["milestone"]>): Expression<SqlBool> {
  let set = eb.selectFrom("forgekit_merge_request_settings as ms").select(sql.lit(1).as("one")).whereRef("ms.merge_request_id", "=", "mr.id").where("ms.milestone_id", "is not", null);
  if (value === "none") return eb.not(eb.exists(set));
  if (typeof value === "object") set = "id" in value ? set.where("ms.milestone_id", "=", value.id) : set.innerJoin("forgekit_milestones as mi", "mi.id", "ms.milestone_id").where("mi.title", "=", value.title);
  return eb.exists(set);
}

function conditions(eb: MrEb, t: DialectTraits, f: MergeRequestListFilter): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [eb("mr.project_id", "in", [...f.projectIds])];
  if (f.state !== undefined) all.push(eb("mr.state", "=", f.state));
  if (f.authorId !== undefined) all.push(eb("mr.author_id", "=", f.authorId));
  if (f.assigneeId !== undefined) all.push(personCondition(eb, "assignee", f.assigneeId));
  if (f.reviewerId !== undefined) all.push(personCondition(eb, "reviewer", f.reviewerId));
  if (f.milestone !== undefined) all.push(milestoneCondition(eb, f.milestone));
  if (f.sourceBranch !== undefined) all.push(eb("mr.source_branch", "=", f.sourceBranch));
  if (f.targetBranch !== undefined) all.push(eb("mr.target_branch", "=", f.targetBranch));
  if (f.iids !== undefined) all.push(f.iids.length === 0 ? sql<SqlBool>`1 = 0` : eb("mr.iid", "in", [...f.iids]));
  if (f.search !== undefined) all.push(eb.or([containsLower("mr.title", f.search), containsLower("mr.description", f.search)]));
  if (f.createdAfter !== undefined) all.push(eb("mr.created_at", ">=", t.toDate(f.createdAfter)));
  if (f.createdBefore !== undefined) all.push(eb("mr.created_at", "<=", t.toDate(f.createdBefore)));
  if (f.closesIssueId !== undefined) {
    const closing = eb.selectFrom("forgekit_merge_request_closing_issues as ci").select(sql.lit(1).as("one")).whereRef("ci.merge_request_id", "=", "mr.id").where("ci.issue_id", "=", f.closesIssueId);
    all.push(eb.exists(closing));
  }
  if (f.labels === "none") all.push(eb.not(eb.exists(labelLink(eb))));
  else if (f.labels === "any") all.push(eb.exists(labelLink(eb)));
  else if (f.labels !== undefined) {
    for (const name of f.labels) all.push(eb.exists(labelLink(eb).innerJoin("forgekit_labels as l", "l.id", "ll.label_id").where("l.name", "=", name)));
  }
  return all;
}

/** The SQL review repository over one Kysely handle. */
export function sqlReviews(ctx: SqlContext): ReviewRepository {
  const { traits: t } = ctx;
  const db = ctx.db as unknown as Kysely<ReviewDatabase>;
  const findMergeRequest = async (id: number) => {
    const row = await db.selectFrom("forgekit_merge_requests").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toRecord(row, t);
  };
  const findSnippet = async (id: number) => {
    const row = await db.selectFrom("forgekit_snippets").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toSnippetRecord(row, t);
  };
  return {
    findMergeRequest,
    async mergeRequestsByIds(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("forgekit_merge_requests").selectAll().where("id", "in", [...ids]).execute();
      const byId = new Map(rows.map((row) => [Number(row.id), toRecord(row, t)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    listMergeRequests(filter, page) {
      if (filter.projectIds.length === 0) return Promise.resolve({ items: [], total: 0, hasNext: false });
      const filtered = db.selectFrom("forgekit_merge_requests as mr").where((eb) => eb.and(conditions(eb as MrEb, t, filter)));
      const column = filter.orderBy === "title" ? "mr.title" : filter.orderBy === "updated_at" ? "mr.updated_at" : filter.orderBy === "merged_at" ? "mr.merged_at" : "mr.created_at";
      // NULL merged_at (unmerged) sorts as the oldest in every dialect, as the memory store does.
      const ordered = (q: typeof filtered) => {
        const base = q.selectAll("mr");
        const withNulls = column === "mr.merged_at" ? base.orderBy(sql`case when mr.merged_at is null then 0 else 1 end`, filter.sort) : base;
        return withNulls.orderBy(column, filter.sort).orderBy("mr.id", filter.sort);
      };
      return offsetPage(ctx.db, filtered, ordered, page, (row) => toRecord(row, t));
    },
    async findOpenMergeRequest(projectId, source, target, exceptId) {
      let q = db.selectFrom("forgekit_merge_requests").selectAll().where("project_id", "=", projectId).where("state", "=", "opened").where("source_branch", "=", source).where("target_branch", "=", target);
      if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
      const row = await q.orderBy("id").executeTakeFirst();
      return row === undefined ? null : toRecord(row, t);
    },
    async updateMergeRequest(id, edit) {
      await db
        .updateTable("forgekit_merge_requests")
        .set({
          ...(edit.title === undefined ? {} : { title: edit.title }),
          ...(edit.description === undefined ? {} : { description: edit.description }),
          ...(edit.targetBranch === undefined ? {} : { target_branch: edit.targetBranch }),
          updated_at: t.toDate(edit.updatedAt),
        })
        .where("id", "=", id)
        .execute();
      return findMergeRequest(id);
    },
    async markMerged(id, merge) {
      const now = t.toDate(merge.now);
      const done = await db
        .updateTable("forgekit_merge_requests")
        .set({ state: "merged", merged_at: now, updated_at: now, closed_at: null, merge_user_id: merge.mergeUserId, merge_commit_sha: merge.mergeCommitSha })
        .where("id", "=", id)
        .where("state", "=", "opened")
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 0 ? null : findMergeRequest(id);
    },
    setMergeRequestLabels: (mrId, labelIds) =>
      atomic(ctx, async (tx) => {
        const tdb = tx.db;
        await tdb.deleteFrom("forgekit_label_links").where("target_type", "=", "MergeRequest").where("target_id", "=", mrId).execute();
        const unique = [...new Set(labelIds)];
        if (unique.length > 0) await tdb.insertInto("forgekit_label_links").values(unique.map((label_id) => ({ label_id, target_type: "MergeRequest", target_id: mrId }))).execute();
      }),
    async mergeRequestLabelNames(ids) {
      const result = new Map<number, string[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return result;
      const rows = await db
        .selectFrom("forgekit_label_links as ll")
        .innerJoin("forgekit_labels as l", "l.id", "ll.label_id")
        .select(["ll.target_id", "l.name"])
        .where("ll.target_type", "=", "MergeRequest")
        .where("ll.target_id", "in", [...ids])
        .execute();
      for (const row of rows) result.get(Number(row.target_id))?.push(row.name);
      for (const names of result.values()) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return result;
    },
    removeMergeRequest: (id) =>
      atomic(ctx, async (tx) => {
        await tx.db.deleteFrom("forgekit_notes").where("noteable_type", "=", "MergeRequest").where("noteable_id", "=", id).execute();
        await tx.db.deleteFrom("forgekit_label_links").where("target_type", "=", "MergeRequest").where("target_id", "=", id).execute();
        const done = await tx.db.deleteFrom("forgekit_merge_requests").where("id", "=", id).executeTakeFirst();
        return Number(done.numDeletedRows) > 0;
      }),

    findSnippet,
    async setSnippetDescription(id, description) {
      await db.updateTable("forgekit_snippets").set({ description }).where("id", "=", id).execute();
    },
    async updateSnippet(id, edit) {
      await db
        .updateTable("forgekit_snippets")
        .set({
          ...(edit.title === undefined ? {} : { title: edit.title }),
          ...(edit.description === undefined ? {} : { description: edit.description }),
          ...(edit.visibility === undefined ? {} : { visibility: edit.visibility }),
          ...(edit.fileName === undefined ? {} : { file_name: edit.fileName }),
          ...(edit.content === undefined ? {} : { content: edit.content }),
          updated_at: t.toDate(edit.updatedAt),
        })
        .where("id", "=", id)
        .execute();
      return findSnippet(id);
    },
    listSnippets(filter, page) {
      let filtered = db.selectFrom("forgekit_snippets as s").where((eb) => (filter.projectId === null ? eb("s.project_id", "is", null) : eb("s.project_id", "=", filter.projectId)));
      if (filter.authorId !== undefined) filtered = filtered.where("s.author_id", "=", filter.authorId);
      if (filter.visibilities !== undefined) {
        if (filter.visibilities.length === 0) return Promise.resolve({ items: [], total: 0, hasNext: false });
        filtered = filtered.where("s.visibility", "in", [...filter.visibilities]);
      }
      return offsetPage(ctx.db, filtered, (q) => (q as typeof filtered).selectAll("s").orderBy("s.id", "desc") as never, page, (row) => toSnippetRecord(row as never, t));
    },
    removeSnippet: (id) =>
      atomic(ctx, async (tx) => {
        await tx.db.deleteFrom("forgekit_notes").where("noteable_type", "=", "Snippet").where("noteable_id", "=", id).execute();
        const done = await tx.db.deleteFrom("forgekit_snippets").where("id", "=", id).executeTakeFirst();
        return Number(done.numDeletedRows) > 0;
      }),
  };
}
