/** SQL {@link GroupMilestoneRepository}, and the case-insensitive substring match other lists share. */
import type { GroupMilestone, GroupMilestoneRepository, MilestoneState } from "@forgekit/core";
import { sql, type Expression, type SqlBool } from "kysely";
import type { Selectable } from "kysely";
import type { GroupMilestonesTable } from "../schema-activity.js";
import { offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

/** `lower(column) LIKE %term%` with the wildcards of `term` escaped. */
export function containsLower(column: string, term: string) {
  const escaped = term.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '!'`;
}

/** The SQL group-milestone repository over one Kysely handle. */
export function sqlGroupMilestones(ctx: SqlContext): GroupMilestoneRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<GroupMilestonesTable>): GroupMilestone => ({
    id: Number(row.id),
    groupId: Number(row.group_id),
    iid: Number(row.iid),
    title: row.title,
    description: row.description,
    state: row.state as MilestoneState,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    startDate: row.start_date ?? null,
    dueDate: row.due_date ?? null,
  });
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_group_milestones").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        // The group row serialises creators (READ COMMITTED lets the max below see the previous insert).
        if (tx.traits.supportsForUpdate) await tx.db.selectFrom("forgekit_namespaces").select("id").where("id", "=", input.groupId).forUpdate().execute();
        const top = await tx.db.selectFrom("forgekit_group_milestones").select((eb) => eb.fn.max("iid").as("iid")).where("group_id", "=", input.groupId).executeTakeFirst();
        const iid = Number(top?.iid ?? 0) + 1;
        const values = { group_id: input.groupId, iid, title: input.title, description: input.description, state: "active", start_date: input.startDate, due_date: input.dueDate, created_at: t.toDate(now), updated_at: t.toDate(now) };
        const id = await t.guardUnique(tx.db, (d) => t.insert(d, "forgekit_group_milestones", values));
        return id === null ? null : { id, ...input, iid, state: "active" as const, createdAt: new Date(now), updatedAt: new Date(now) };
      }),
    findById,
    async update(id, patch) {
      const set = {
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.state === undefined ? {} : { state: patch.state }),
        ...(patch.startDate === undefined ? {} : { start_date: patch.startDate }),
        ...(patch.dueDate === undefined ? {} : { due_date: patch.dueDate }),
        ...(patch.updatedAt === undefined ? {} : { updated_at: t.toDate(patch.updatedAt) }),
      };
      if (Object.keys(set).length > 0) {
        const done = await t.guardUnique(db, (d) => d.updateTable("forgekit_group_milestones").set(set).where("id", "=", id).execute());
        if (done === null) return null;
      }
      return findById(id);
    },
    list(filter, page) {
      const filtered = db.selectFrom("forgekit_group_milestones as m").where((eb) => {
        const all: Expression<SqlBool>[] = [eb("m.group_id", "=", filter.groupId)];
        if (filter.state !== undefined) all.push(eb("m.state", "=", filter.state));
        if (filter.title !== undefined) all.push(eb("m.title", "=", filter.title));
        if (filter.iids !== undefined) all.push(filter.iids.length === 0 ? sql<SqlBool>`1 = 0` : eb("m.iid", "in", [...filter.iids]));
        if (filter.search !== undefined) all.push(eb.or([containsLower("m.title", filter.search), containsLower("m.description", filter.search)]));
        return eb.and(all);
      });
      return offsetPage(db, filtered, (q) => q.selectAll("m").orderBy("m.iid", "desc") as never, page, (row) => map(row as never));
    },
    async remove(id) {
      const done = await db.deleteFrom("forgekit_group_milestones").where("id", "=", id).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
  };
}
