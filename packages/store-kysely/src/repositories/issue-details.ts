/** SQL {@link IssueDetailsRepository}: assignees, milestone, labels, filtered lists, note and milestone edits. */
import type { IssueDetailsRepository, IssueListFilter, MilestoneListFilter } from "@forgekit/core";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "../schema.js";
import { offsetPage } from "../sql/pagination.js";
import { toIssue, toMilestone, toNote } from "./activity-rows.js";
import { atomic, type SqlContext } from "./context.js";

type IssueEb = ExpressionBuilder<Database & { i: Database["forgekit_issues"] }, "i">;

/** `lower(column) like %term%` with `%`, `_` and `!` literal (ASCII case folding in every dialect). */
function containsLower(column: string, term: string) {
  const escaped = term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '!'`;
}

const labelLink = (eb: IssueEb) =>
  eb
    .selectFrom("forgekit_label_links as ll")
    .select(sql.lit(1).as("one"))
    .whereRef("ll.target_id", "=", "i.id")
    .where("ll.target_type", "=", "Issue");

const assigneeRow = (eb: IssueEb) => eb.selectFrom("forgekit_issue_assignees as ia").select(sql.lit(1).as("one")).whereRef("ia.issue_id", "=", "i.id");

function issueConditions(eb: IssueEb, ctx: SqlContext, filter: IssueListFilter): Expression<SqlBool>[] {
  const t = ctx.traits;
  const all: Expression<SqlBool>[] = [eb("i.project_id", "in", [...filter.projectIds])];
  const access = filter.confidentialAccess;
  if (!access.all) {
    const open: Expression<SqlBool>[] = [eb("i.confidential", "=", t.toBool(false))];
    if (access.projectIds.length > 0) open.push(eb("i.project_id", "in", [...access.projectIds]));
    if (access.userId !== null) {
      open.push(eb("i.author_id", "=", access.userId));
      open.push(eb.exists(assigneeRow(eb).where("ia.user_id", "=", access.userId)));
    }
    all.push(eb.or(open));
  }
  if (filter.state !== undefined) all.push(eb("i.state", "=", filter.state));
  if (filter.authorId !== undefined) all.push(eb("i.author_id", "=", filter.authorId));
  if (filter.confidential !== undefined) all.push(eb("i.confidential", "=", t.toBool(filter.confidential)));
  if (filter.iids !== undefined) all.push(filter.iids.length === 0 ? sql<SqlBool>`1 = 0` : eb("i.iid", "in", [...filter.iids]));
  if (filter.assignee === "none") all.push(eb.not(eb.exists(assigneeRow(eb))));
  else if (filter.assignee === "any") all.push(eb.exists(assigneeRow(eb)));
  else if (filter.assignee !== undefined) all.push(eb.exists(assigneeRow(eb).where("ia.user_id", "=", filter.assignee)));
  if (filter.labels === "none") all.push(eb.not(eb.exists(labelLink(eb))));
  else if (filter.labels === "any") all.push(eb.exists(labelLink(eb)));
  else if (filter.labels !== undefined) {
    for (const name of filter.labels) {
      all.push(eb.exists(labelLink(eb).innerJoin("forgekit_labels as l", "l.id", "ll.label_id").where("l.name", "=", name)));
    }
  }
  if (filter.milestone === "none") all.push(eb("i.milestone_id", "is", null));
  else if (filter.milestone === "any") all.push(eb("i.milestone_id", "is not", null));
  else if (filter.milestone !== undefined) {
    const { title } = filter.milestone;
    all.push(eb.exists(eb.selectFrom("forgekit_milestones as m").select(sql.lit(1).as("one")).whereRef("m.id", "=", "i.milestone_id").where("m.title", "=", title)));
  }
  if (filter.search !== undefined) all.push(eb.or([containsLower("i.title", filter.search), containsLower("i.description", filter.search)]));
  if (filter.createdAfter !== undefined) all.push(eb("i.created_at", ">=", t.toDate(filter.createdAfter)));
  if (filter.createdBefore !== undefined) all.push(eb("i.created_at", "<=", t.toDate(filter.createdBefore)));
  if (filter.updatedAfter !== undefined) all.push(eb("i.updated_at", ">=", t.toDate(filter.updatedAfter)));
  if (filter.updatedBefore !== undefined) all.push(eb("i.updated_at", "<=", t.toDate(filter.updatedBefore)));
  return all;
}

function milestoneConditions(eb: ExpressionBuilder<Database & { m: Database["forgekit_milestones"] }, "m">, filter: MilestoneListFilter): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [eb("m.project_id", "=", filter.projectId)];
  if (filter.state !== undefined) all.push(eb("m.state", "=", filter.state));
  if (filter.title !== undefined) all.push(eb("m.title", "=", filter.title));
  if (filter.iids !== undefined) all.push(filter.iids.length === 0 ? sql<SqlBool>`1 = 0` : eb("m.iid", "in", [...filter.iids]));
  if (filter.search !== undefined) all.push(eb.or([containsLower("m.title", filter.search), containsLower("m.description", filter.search)]));
  return all;
}

/** The SQL issue-details repository over one Kysely handle. */
export function sqlIssueDetails(ctx: SqlContext): IssueDetailsRepository {
  const { db, traits: t } = ctx;
  return {
    setAssignees: (issueId, userIds) =>
      atomic(ctx, async (tx) => {
        await tx.db.deleteFrom("forgekit_issue_assignees").where("issue_id", "=", issueId).execute();
        const unique = [...new Set(userIds)];
        if (unique.length > 0) await tx.db.insertInto("forgekit_issue_assignees").values(unique.map((user_id) => ({ issue_id: issueId, user_id }))).execute();
      }),
    async assigneesOf(issueIds) {
      const result = new Map<number, number[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return result;
      const rows = await db.selectFrom("forgekit_issue_assignees").select(["issue_id", "user_id"]).where("issue_id", "in", [...issueIds]).orderBy("user_id").execute();
      for (const row of rows) result.get(Number(row.issue_id))?.push(Number(row.user_id));
      return result;
    },
    async setMilestone(issueId, milestoneId) {
      await db.updateTable("forgekit_issues").set({ milestone_id: milestoneId }).where("id", "=", issueId).execute();
    },
    async milestonesOf(issueIds) {
      const result = new Map<number, number | null>();
      if (issueIds.length === 0) return result;
      const rows = await db.selectFrom("forgekit_issues").select(["id", "milestone_id"]).where("id", "in", [...issueIds]).execute();
      for (const row of rows) result.set(Number(row.id), row.milestone_id === null ? null : Number(row.milestone_id));
      return result;
    },
    async unlinkLabels(issueId, labelIds) {
      if (labelIds.length === 0) return 0;
      const done = await db.deleteFrom("forgekit_label_links").where("target_type", "=", "Issue").where("target_id", "=", issueId).where("label_id", "in", [...labelIds]).executeTakeFirst();
      return Number(done.numDeletedRows);
    },
    async labelNamesOf(issueIds) {
      const result = new Map<number, string[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return result;
      const rows = await db
        .selectFrom("forgekit_label_links as ll")
        .innerJoin("forgekit_labels as l", "l.id", "ll.label_id")
        .select(["ll.target_id", "l.name"])
        .where("ll.target_type", "=", "Issue")
        .where("ll.target_id", "in", [...issueIds])
        .execute();
      for (const row of rows) result.get(Number(row.target_id))?.push(row.name);
      for (const names of result.values()) names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return result;
    },
    list(filter, page) {
      if (filter.projectIds.length === 0) return Promise.resolve({ items: [], total: 0, hasNext: false });
      const filtered = db.selectFrom("forgekit_issues as i").where((eb) => eb.and(issueConditions(eb as IssueEb, ctx, filter)));
      const column = filter.orderBy === "title" ? "i.title" : filter.orderBy === "updated_at" ? "i.updated_at" : "i.created_at";
      return offsetPage(db, filtered, (q) => q.selectAll("i").orderBy(column, filter.sort).orderBy("i.id", filter.sort) as never, page, (row) => toIssue(row as never, t));
    },
    removeIssue: (issueId) =>
      atomic(ctx, async (tx) => {
        await tx.db.deleteFrom("forgekit_notes").where("noteable_type", "=", "Issue").where("noteable_id", "=", issueId).execute();
        await tx.db.deleteFrom("forgekit_label_links").where("target_type", "=", "Issue").where("target_id", "=", issueId).execute();
        await tx.db.deleteFrom("forgekit_issue_assignees").where("issue_id", "=", issueId).execute();
        const done = await tx.db.deleteFrom("forgekit_issues").where("id", "=", issueId).executeTakeFirst();
        return Number(done.numDeletedRows) > 0;
      }),
    async updateNote(noteId, body, now) {
      await db.updateTable("forgekit_notes").set({ body, updated_at: t.toDate(now) }).where("id", "=", noteId).execute();
      const row = await db.selectFrom("forgekit_notes").selectAll().where("id", "=", noteId).executeTakeFirst();
      return row === undefined ? null : toNote(row, t);
    },
    async removeNote(noteId) {
      const done = await db.deleteFrom("forgekit_notes").where("id", "=", noteId).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
    listNotes(noteableType, noteableId, orderBy, sort, page) {
      const filtered = db.selectFrom("forgekit_notes").where("noteable_type", "=", noteableType).where("noteable_id", "=", noteableId);
      return offsetPage(db, filtered, (q) => q.selectAll().orderBy(orderBy, sort).orderBy("id", sort) as never, page, (row) => toNote(row as never, t));
    },
    listMilestones(filter, page) {
      const filtered = db.selectFrom("forgekit_milestones as m").where((eb) => eb.and(milestoneConditions(eb as never, filter)));
      return offsetPage(db, filtered, (q) => q.selectAll("m").orderBy("m.iid", "desc") as never, page, (row) => toMilestone(row as never, t));
    },
    async describeMilestone(milestoneId, description, now) {
      await db.updateTable("forgekit_milestones").set({ description, updated_at: t.toDate(now) }).where("id", "=", milestoneId).execute();
      const row = await db.selectFrom("forgekit_milestones").selectAll().where("id", "=", milestoneId).executeTakeFirst();
      return row === undefined ? null : toMilestone(row, t);
    },
    removeMilestone: (milestoneId) =>
      atomic(ctx, async (tx) => {
        await tx.db.updateTable("forgekit_issues").set({ milestone_id: null }).where("milestone_id", "=", milestoneId).execute();
        await tx.db.updateTable("forgekit_merge_request_settings").set({ milestone_id: null }).where("milestone_id", "=", milestoneId).execute();
        const done = await tx.db.deleteFrom("forgekit_milestones").where("id", "=", milestoneId).executeTakeFirst();
        return Number(done.numDeletedRows) > 0;
      }),
  };
}
