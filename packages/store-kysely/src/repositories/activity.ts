/** SQL repositories of the activity domain: issues, merge requests, milestones, snippets, notes. */
import type {
  ActivityStore,
  ImportedFrom,
  IssueRepository,
  MergeRequestRepository,
  MilestoneRepository,
  NoteRepository,
  OffsetPageRequest,
  OffsetPageResult,
  SnippetRepository,
} from "@forgekit/core";
import type { Selectable } from "kysely";
import type { IssuesTable, MergeRequestsTable } from "../schema-activity.js";
import { newNoteFields } from "@forgekit/core/internal";
import { offsetPage } from "../sql/pagination.js";
import { toIssue, toMergeRequest, toMilestone, toNote, toSnippet } from "./activity-rows.js";
import { atomic, type SqlContext } from "./context.js";
import { runCompiled } from "../sql/compiled.js";
import { sqlEvents } from "./events.js";
import { sqlIssueDetails } from "./issue-details.js";
import { sqlGroupMilestones } from "./group-milestones.js";

type IidTable = "forgekit_issues" | "forgekit_merge_requests" | "forgekit_milestones";

/**
 * The next iid of `table` in the project. The project row is locked first (PostgreSQL, MySQL), so
 * concurrent creators in one project queue up; SQLite serialises writers anyway. Call it inside a
 * transaction (`atomic`): its READ COMMITTED lets the max read after the lock see the previous
 * holder's insert (under MySQL's REPEATABLE READ, after any earlier read, it did not: duplicate iids).
 */
async function nextIid(ctx: SqlContext, table: IidTable, projectId: number): Promise<number> {
  const { db, traits } = ctx;
  if (traits.supportsForUpdate) {
    const locked = await db.selectFrom("forgekit_projects").select("id").where("id", "=", projectId).forUpdate().executeTakeFirst();
    if (locked === undefined) throw new Error(`project ${projectId} does not exist`);
  }
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max("iid").as("max"))
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** The project's rows of `table` by iid, one offset page. */
function pageByIid<Row, T>(ctx: SqlContext, table: "forgekit_issues" | "forgekit_merge_requests", projectId: number, page: OffsetPageRequest, map: (row: Row) => T): Promise<OffsetPageResult<T>> {
  const filtered = ctx.db.selectFrom(table).where("project_id", "=", projectId);
  return offsetPage(ctx.db, filtered, (q) => q.selectAll().orderBy("iid", "asc") as never, page, map);
}

/** The `imported_from` column of a new row: left to its default (`none`, 0032) unless an import writes it. */
const importedFromColumn = (value: ImportedFrom | undefined) => (value === undefined || value === "none" ? {} : { imported_from: value });

function sqlIssues(ctx: SqlContext): IssueRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<IssuesTable>) => toIssue(row, t);
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_issues").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        const iid = input.iid ?? (await nextIid(tx, "forgekit_issues", input.projectId));
        const values = { project_id: input.projectId, iid, title: input.title, description: input.description, confidential: t.toBool(input.confidential), state: "opened", author_id: input.authorId, created_at: t.toDate(now), updated_at: t.toDate(now), closed_at: null, ...importedFromColumn(input.importedFrom), ...(input.dueDate ? { due_date: input.dueDate } : {}) };
        const id = await t.insert(tx.db, "forgekit_issues", values);
        return { id, projectId: input.projectId, iid, title: input.title, description: input.description, confidential: input.confidential, state: "opened", authorId: input.authorId, createdAt: new Date(now), updatedAt: new Date(now), closedAt: null, dueDate: input.dueDate ?? null, discussionLocked: null, importedFrom: input.importedFrom ?? "none" };
      }),
    findById,
    async findByIid(projectId, iid) {
      const row = await db.selectFrom("forgekit_issues").selectAll().where("project_id", "=", projectId).where("iid", "=", iid).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async update(id, patch) {
      const set = {
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.confidential === undefined ? {} : { confidential: t.toBool(patch.confidential) }),
        ...(patch.state === undefined ? {} : { state: patch.state }),
        ...(patch.closedAt === undefined ? {} : { closed_at: patch.closedAt === null ? null : t.toDate(patch.closedAt) }),
        ...(patch.dueDate === undefined ? {} : { due_date: patch.dueDate }),
        ...(patch.discussionLocked === undefined ? {} : { discussion_locked: t.toBool(patch.discussionLocked) }),
        ...(patch.updatedAt === undefined ? {} : { updated_at: t.toDate(patch.updatedAt) }),
      };
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_issues").set(set).where("id", "=", id).execute();
      return findById(id);
    },
    listByProject: (projectId, page) => pageByIid(ctx, "forgekit_issues", projectId, page, map),
    async countOpened(projectIds) {
      if (projectIds.length === 0) return new Map();
      // One project (every single-project read): one statement compiled once, not built per request.
      const [only] = projectIds;
      if (projectIds.length === 1 && only !== undefined) {
        const [row] = await runCompiled(ctx, "issues.countOpened1", [only], (arg) =>
          db.selectFrom("forgekit_issues").select((eb) => eb.fn.countAll().as("n")).where("project_id", "=", arg<number>(0)).where("state", "=", "opened"),
        );
        const n = Number(row?.n ?? 0);
        return n > 0 ? new Map([[only, n]]) : new Map();
      }
      const rows = await db
        .selectFrom("forgekit_issues")
        .select((eb) => ["project_id", eb.fn.countAll().as("n")])
        .where("project_id", "in", [...projectIds])
        .where("state", "=", "opened")
        .groupBy("project_id")
        .execute();
      return new Map(rows.map((row) => [Number(row.project_id), Number(row.n)]));
    },
  };
}

function sqlMergeRequests(ctx: SqlContext): MergeRequestRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<MergeRequestsTable>) => toMergeRequest(row, t);
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_merge_requests").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        const iid = input.iid ?? (await nextIid(tx, "forgekit_merge_requests", input.projectId));
        const id = await t.insert(tx.db, "forgekit_merge_requests", {
          project_id: input.projectId, iid, title: input.title, description: input.description, state: "opened", author_id: input.authorId,
          source_branch: input.sourceBranch, target_branch: input.targetBranch, created_at: t.toDate(now), updated_at: t.toDate(now), merged_at: null, closed_at: null,
        });
        return { id, ...input, iid, state: "opened", createdAt: new Date(now), updatedAt: new Date(now), mergedAt: null, closedAt: null };
      }),
    findById,
    async findByIid(projectId, iid) {
      const row = await db.selectFrom("forgekit_merge_requests").selectAll().where("project_id", "=", projectId).where("iid", "=", iid).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async update(id, patch) {
      const date = (d: Date | null) => (d === null ? null : t.toDate(d));
      const set = {
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.state === undefined ? {} : { state: patch.state }),
        ...(patch.mergedAt === undefined ? {} : { merged_at: date(patch.mergedAt) }),
        ...(patch.closedAt === undefined ? {} : { closed_at: date(patch.closedAt) }),
        ...(patch.updatedAt === undefined ? {} : { updated_at: t.toDate(patch.updatedAt) }),
      };
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_merge_requests").set(set).where("id", "=", id).execute();
      return findById(id);
    },
    listByProject: (projectId, page) => pageByIid(ctx, "forgekit_merge_requests", projectId, page, map),
  };
}

function sqlMilestones(ctx: SqlContext): MilestoneRepository {
  const { db, traits: t } = ctx;
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_milestones").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : toMilestone(row, t);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        const iid = input.iid ?? (await nextIid(tx, "forgekit_milestones", input.projectId));
        const dates = { startDate: input.startDate ?? null, dueDate: input.dueDate ?? null };
        const values = { project_id: input.projectId, iid, title: input.title, description: input.description, state: "active", start_date: dates.startDate, due_date: dates.dueDate, created_at: t.toDate(now), updated_at: t.toDate(now) };
        const id = await t.guardUnique(tx.db, (db) => t.insert(db, "forgekit_milestones", values));
        return id === null ? null : { id, projectId: input.projectId, title: input.title, description: input.description, iid, state: "active", ...dates, createdAt: new Date(now), updatedAt: new Date(now) };
      }),
    findById,
    async findByIid(projectId, iid) {
      const row = await db.selectFrom("forgekit_milestones").selectAll().where("project_id", "=", projectId).where("iid", "=", iid).executeTakeFirst();
      return row === undefined ? null : toMilestone(row, t);
    },
    async update(id, patch) {
      const set = {
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.state === undefined ? {} : { state: patch.state }),
        ...(patch.startDate === undefined ? {} : { start_date: patch.startDate }),
        ...(patch.dueDate === undefined ? {} : { due_date: patch.dueDate }),
        ...(patch.updatedAt === undefined ? {} : { updated_at: t.toDate(patch.updatedAt) }),
      };
      if (Object.keys(set).length > 0) {
        const done = await t.guardUnique(db, (d) => d.updateTable("forgekit_milestones").set(set).where("id", "=", id).execute());
        if (done === null) return null;
      }
      return findById(id);
    },
  };
}

function sqlSnippets(ctx: SqlContext): SnippetRepository {
  const { db, traits: t } = ctx;
  return {
    async create(input, now) {
      const id = await t.insert(db, "forgekit_snippets", {
        project_id: input.projectId, author_id: input.authorId, title: input.title, file_name: input.fileName, content: input.content,
        visibility: input.visibility, created_at: t.toDate(now), updated_at: t.toDate(now), ...importedFromColumn(input.importedFrom),
      });
      return { id, ...input, importedFrom: input.importedFrom ?? "none", createdAt: new Date(now), updatedAt: new Date(now) };
    },
    async findById(id) {
      const row = await db.selectFrom("forgekit_snippets").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : toSnippet(row, t);
    },
  };
}

function sqlNotes(ctx: SqlContext): NoteRepository {
  const { db, traits: t } = ctx;
  return {
    async create(input, now) {
      const fields = newNoteFields(input);
      const id = await t.insert(db, "forgekit_notes", {
        project_id: input.projectId, noteable_type: input.noteableType, noteable_id: input.noteableId, author_id: input.authorId,
        body: input.body, system: t.toBool(input.system), created_at: t.toDate(now), updated_at: t.toDate(now),
        discussion_id: fields.discussionId, type: fields.type, position: fields.position === null ? null : JSON.stringify(fields.position), commit_id: fields.commitId,
        ...importedFromColumn(fields.importedFrom),
      });
      const { projectId, noteableType, noteableId, authorId, body, system } = input;
      return { id, projectId, noteableType, noteableId, authorId, body, system, ...fields, createdAt: new Date(now), updatedAt: new Date(now) };
    },
    async findById(id) {
      const row = await db.selectFrom("forgekit_notes").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : toNote(row, t);
    },
    async listByNoteable(noteableType, noteableId) {
      const rows = await db.selectFrom("forgekit_notes").selectAll().where("noteable_type", "=", noteableType).where("noteable_id", "=", noteableId).orderBy("id", "asc").execute();
      return rows.map((row) => toNote(row, t));
    },
  };
}

/** Every activity repository over one Kysely handle. */
export function sqlActivity(ctx: SqlContext): ActivityStore {
  return {
    issues: sqlIssues(ctx),
    mergeRequests: sqlMergeRequests(ctx),
    milestones: sqlMilestones(ctx),
    snippets: sqlSnippets(ctx),
    notes: sqlNotes(ctx),
    events: sqlEvents(ctx),
    issueDetails: sqlIssueDetails(ctx),
    groupMilestones: sqlGroupMilestones(ctx),
  };
}
