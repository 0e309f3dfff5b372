/** SQL {@link LabelsStore} (ports/labels-store.ts; label rows of 0010_imports, priorities and subscriptions of 0020_labels). */
import type { LabelCounts, LabelsStore } from "@forgekit/core";
import { sql, type Expression, type SqlBool } from "kysely";
import { offsetPage } from "../sql/pagination.js";
import type { SqlContext } from "./context.js";
import { containsLower } from "./group-milestones.js";
import { labelFromRow } from "./imports.js";

/** The SQL label store over one Kysely handle. */
export function sqlLabelsStore(ctx: SqlContext): LabelsStore {
  const { db, traits: t } = ctx;
  const findById = async (id: number) => {
    const row = await db.selectFrom("forgekit_labels").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : labelFromRow(t, row);
  };
  return {
    async createGroupLabel(input, now) {
      const values = { group_id: input.groupId, name: input.name, color: input.color, description: input.description, created_at: t.toDate(now), updated_at: t.toDate(now) };
      const id = await t.guardUnique(db, (d) => t.insert(d, "forgekit_labels", values));
      return id === null ? null : { id, projectId: null, groupId: input.groupId, name: input.name, color: input.color, description: input.description, createdAt: new Date(now), updatedAt: new Date(now) };
    },
    async findInGroups(groupIds, name) {
      if (groupIds.length === 0) return null;
      const rows = await db.selectFrom("forgekit_labels").selectAll().where("group_id", "in", [...groupIds]).where("name", "=", name).execute();
      const found = groupIds.map((groupId) => rows.find((row) => Number(row.group_id) === groupId)).find((row) => row !== undefined);
      return found === undefined ? null : labelFromRow(t, found);
    },
    list(filter, page) {
      const filtered = db.selectFrom("forgekit_labels as l").where((eb) => {
        const owners: Expression<SqlBool>[] = [];
        if (filter.projectId !== undefined) owners.push(eb("l.project_id", "=", filter.projectId));
        if (filter.groupIds !== undefined && filter.groupIds.length > 0) owners.push(eb("l.group_id", "in", [...filter.groupIds]));
        const all: Expression<SqlBool>[] = [owners.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(owners)];
        if (filter.search !== undefined) all.push(eb.or([containsLower("l.name", filter.search), containsLower("l.description", filter.search)]));
        return eb.and(all);
      });
      return offsetPage(db, filtered, (q) => q.selectAll("l").orderBy("l.name", "asc").orderBy("l.id", "asc") as never, page, (row) => labelFromRow(t, row as never));
    },
    findById,
    async update(id, patch, now) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.color === undefined ? {} : { color: patch.color }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        updated_at: t.toDate(now),
      };
      const done = await t.guardUnique(db, (d) => d.updateTable("forgekit_labels").set(set).where("id", "=", id).executeTakeFirst());
      return done === null ? null : findById(id);
    },
    async remove(id) {
      // Links, priorities and subscriptions go by `on delete cascade`.
      const done = await db.deleteFrom("forgekit_labels").where("id", "=", id).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
    async mergeInto(intoId, fromIds) {
      if ((await findById(intoId)) === null) throw new Error(`label ${intoId} does not exist`);
      const from = fromIds.filter((id) => id !== intoId);
      if (from.length === 0) return;
      // What `intoId` has already stays; a target carrying two of the merged labels gets one link.
      await db
        .insertInto("forgekit_label_links")
        .columns(["label_id", "target_type", "target_id"])
        .expression(
          db
            .selectFrom("forgekit_label_links as l")
            .select((eb) => [eb.lit(intoId).as("label_id"), "l.target_type", "l.target_id"])
            .distinct()
            .where("l.label_id", "in", from)
            .where((eb) => eb.not(eb.exists(eb.selectFrom("forgekit_label_links as x").select("x.label_id").where("x.label_id", "=", intoId).whereRef("x.target_type", "=", "l.target_type").whereRef("x.target_id", "=", "l.target_id")))),
        )
        .execute();
      // One label per name per project: at most one of `from` has a priority in a project.
      await db
        .insertInto("forgekit_label_priorities")
        .columns(["project_id", "label_id", "priority"])
        .expression(
          db
            .selectFrom("forgekit_label_priorities as p")
            .select((eb) => ["p.project_id", eb.lit(intoId).as("label_id"), "p.priority"])
            .where("p.label_id", "in", from)
            .where((eb) => eb.not(eb.exists(eb.selectFrom("forgekit_label_priorities as x").select("x.label_id").where("x.label_id", "=", intoId).whereRef("x.project_id", "=", "p.project_id")))),
        )
        .execute();
      await db
        .insertInto("forgekit_label_subscriptions")
        .columns(["label_id", "user_id"])
        .expression(
          db
            .selectFrom("forgekit_label_subscriptions as s")
            .select((eb) => [eb.lit(intoId).as("label_id"), "s.user_id"])
            .distinct()
            .where("s.label_id", "in", from)
            .where((eb) => eb.not(eb.exists(eb.selectFrom("forgekit_label_subscriptions as x").select("x.user_id").where("x.label_id", "=", intoId).whereRef("x.user_id", "=", "s.user_id")))),
        )
        .execute();
      // Their links, priorities and subscriptions go by `on delete cascade`.
      await db.deleteFrom("forgekit_labels").where("id", "in", from).execute();
    },
    async setPriority(projectId, labelId, priority) {
      await db.deleteFrom("forgekit_label_priorities").where("project_id", "=", projectId).where("label_id", "=", labelId).execute();
      if (priority !== null) await t.guardUnique(db, (d) => d.insertInto("forgekit_label_priorities").values({ project_id: projectId, label_id: labelId, priority }).execute());
    },
    async priorities(projectId, labelIds) {
      if (labelIds.length === 0) return new Map();
      const rows = await db.selectFrom("forgekit_label_priorities").select(["label_id", "priority"]).where("project_id", "=", projectId).where("label_id", "in", [...labelIds]).execute();
      return new Map(rows.map((r) => [Number(r.label_id), Number(r.priority)]));
    },
    async subscribe(labelId, userId) {
      const written = await t.guardUnique(db, (d) => d.insertInto("forgekit_label_subscriptions").values({ label_id: labelId, user_id: userId }).execute());
      return written !== null;
    },
    async unsubscribe(labelId, userId) {
      const done = await db.deleteFrom("forgekit_label_subscriptions").where("label_id", "=", labelId).where("user_id", "=", userId).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
    async subscribed(userId, labelIds) {
      if (labelIds.length === 0) return new Set();
      const rows = await db.selectFrom("forgekit_label_subscriptions").select("label_id").where("user_id", "=", userId).where("label_id", "in", [...labelIds]).execute();
      return new Set(rows.map((r) => Number(r.label_id)));
    },
    async counts(labelIds, options) {
      const counts = new Map<number, LabelCounts>(labelIds.map((id) => [id, { openIssues: 0, closedIssues: 0, openMergeRequests: 0 }]));
      if (labelIds.length === 0) return counts;
      let issues = db
        .selectFrom("forgekit_label_links as ll")
        .innerJoin("forgekit_issues as i", "i.id", "ll.target_id")
        .select((eb) => ["ll.label_id", "i.state", eb.fn.countAll().as("n")])
        .where("ll.target_type", "=", "Issue")
        .where("ll.label_id", "in", [...labelIds]);
      if (!options.confidential) issues = issues.where("i.confidential", "=", t.toBool(false));
      for (const row of await issues.groupBy(["ll.label_id", "i.state"]).execute()) {
        const entry = counts.get(Number(row.label_id));
        if (entry === undefined) continue;
        if (row.state === "opened") entry.openIssues += Number(row.n);
        else entry.closedIssues += Number(row.n);
      }
      const mrs = await db
        .selectFrom("forgekit_label_links as ll")
        .innerJoin("forgekit_merge_requests as m", "m.id", "ll.target_id")
        .select((eb) => ["ll.label_id", eb.fn.countAll().as("n")])
        .where("ll.target_type", "=", "MergeRequest")
        .where("m.state", "=", "opened")
        .where("ll.label_id", "in", [...labelIds])
        .groupBy("ll.label_id")
        .execute();
      for (const row of mrs) {
        const entry = counts.get(Number(row.label_id));
        if (entry !== undefined) entry.openMergeRequests = Number(row.n);
      }
      return counts;
    },
  };
}
