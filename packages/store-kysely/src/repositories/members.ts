/** SQL MemberRepository: memberships and access levels over the namespace closure. */
import type { MemberRepository } from "@forgekit/core";
import { sql, type ExpressionBuilder } from "kysely";
import type { Database, DbDate } from "../schema.js";
import { runCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import { toMember } from "./rows.js";

export function sqlMembers(ctx: SqlContext): MemberRepository {
  const { db, traits: t } = ctx;
  const findById = async (id: number) => {
    const [row] = await runCompiled(ctx, "members.findById", [id], (arg) => db.selectFrom("forgekit_members").selectAll().where("id", "=", arg<number>(0)));
    return row === undefined ? null : toMember(row, t);
  };

  /**
   * Levels granted on a namespace chain (memberships, and Owner for a user namespace's owner): the
   * chain of `target.namespaceId`, or of the namespace holding `target.projectId` (a scalar
   * subquery, so a project's level is still one statement).
   */
  const chainLevels = (userId: number, target: { namespaceId: number } | { projectId: number }, at: DbDate) => {
    const chainOf = (eb: ExpressionBuilder<Database, "forgekit_namespace_ancestors">) =>
      "namespaceId" in target
        ? eb("forgekit_namespace_ancestors.namespace_id", "=", target.namespaceId)
        : eb("forgekit_namespace_ancestors.namespace_id", "=", eb.selectFrom("forgekit_projects").select("namespace_id").where("id", "=", target.projectId));
    return db
      .selectFrom("forgekit_namespace_ancestors")
      .innerJoin("forgekit_members as m", (join) => join.onRef("m.source_id", "=", "forgekit_namespace_ancestors.ancestor_id").on("m.source_type", "=", "namespace"))
      .select("m.access_level as level")
      .where(chainOf)
      .where("m.user_id", "=", userId)
      .where((eb) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", at)]))
      .unionAll(
        db
          .selectFrom("forgekit_namespace_ancestors")
          .innerJoin("forgekit_namespaces as n", "n.id", "forgekit_namespace_ancestors.ancestor_id")
          .select(sql<number>`50`.as("level"))
          .where(chainOf)
          .where("n.kind", "=", "user")
          .where("n.owner_id", "=", userId),
      );
  };

  /** The highest level the union `levels` yields; compiled once per store (it runs on most requests). */
  const highest = async (name: string, args: readonly unknown[], levels: (arg: <T>(index: number) => T) => ReturnType<typeof chainLevels>) => {
    const [row] = await runCompiled(ctx, name, args, (arg) => db.selectFrom(levels(arg).as("levels")).select((eb) => eb.fn.max("levels.level").as("level")));
    return row?.level === null || row?.level === undefined ? 0 : Number(row.level);
  };


  // Unexpired only, like every other level (issue #23): an expired direct membership is no access.
  const directLevel = (user: number, project: number, at: DbDate) =>
    db
      .selectFrom("forgekit_members as m")
      .select("m.access_level")
      .where("m.source_type", "=", "project")
      .where("m.source_id", "=", project)
      .where("m.user_id", "=", user)
      .where((eb) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", at)]));
  /** The viewer's direct level on the project (`project`) and, with a group, its highest level through the group chain (`grp`), as scalar subqueries. */
  const levelColumns = (eb: ExpressionBuilder<Database, never>, user: number, project: number, group: number | null, at: DbDate) => [
    directLevel(user, project, at).as("project"),
    group === null ? sql<null>`null`.as("grp") : eb.selectFrom(chainLevels(user, { namespaceId: group }, at).as("levels")).select((inner) => inner.fn.max("levels.level").as("level")).as("grp"),
  ];
  const levelOf = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));
  return {
    async add(input, now) {
      const expiresAt = input.expiresAt ?? null;
      const id = await t.insertOrIgnore(db, "forgekit_members", {
        source_type: input.sourceType,
        source_id: input.sourceId,
        user_id: input.userId,
        access_level: input.accessLevel,
        expires_at: expiresAt === null ? null : t.toDate(expiresAt),
        created_at: t.toDate(now),
      });
      if (id === null) return null;
      return {
        id,
        sourceType: input.sourceType,
        sourceId: input.sourceId,
        userId: input.userId,
        accessLevel: input.accessLevel,
        expiresAt: expiresAt === null ? null : new Date(expiresAt),
        createdAt: new Date(now),
      };
    },
    async find(sourceType, sourceId, userId) {
      const [row] = await runCompiled(ctx, "members.find", [sourceType, sourceId, userId], (arg) =>
        db.selectFrom("forgekit_members").selectAll().where("source_type", "=", arg<"project" | "namespace">(0)).where("source_id", "=", arg<number>(1)).where("user_id", "=", arg<number>(2)),
      );
      return row === undefined ? null : toMember(row, t);
    },
    async updateAccessLevel(id, level) {
      await db.updateTable("forgekit_members").set({ access_level: level }).where("id", "=", id).execute();
      return findById(id);
    },
    async updateExpiry(id, expiresAt) {
      await db.updateTable("forgekit_members").set({ expires_at: expiresAt === null ? null : t.toDate(expiresAt) }).where("id", "=", id).execute();
      return findById(id);
    },
    async remove(id) {
      const result = await db.deleteFrom("forgekit_members").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listBySource(sourceType, sourceId, now) {
      const query = db.selectFrom("forgekit_members").selectAll().where("source_type", "=", sourceType).where("source_id", "=", sourceId);
      const at = now === undefined ? undefined : t.toDate(now);
      const rows = await (at === undefined ? query : query.where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]))).orderBy("id").execute();
      return rows.map((row) => toMember(row, t));
    },
    namespaceAccessLevel: (userId, namespaceId, now) =>
      highest("members.namespaceAccessLevel", [userId, namespaceId, t.toDate(now)], (arg) => chainLevels(arg(0), { namespaceId: arg(1) }, arg(2))),
    projectAccessLevel: (userId, projectId, now) =>
      highest("members.projectAccessLevel", [userId, projectId, t.toDate(now)], (arg) => {
        const [user, project, at] = [arg<number>(0), arg<number>(1), arg<DbDate>(2)];
        const direct = db
          .selectFrom("forgekit_members as m")
          .select("m.access_level as level")
          .where("m.source_type", "=", "project")
          .where("m.source_id", "=", project)
          .where("m.user_id", "=", user)
          .where((eb) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", at)]));
        return chainLevels(user, { projectId: project }, at).unionAll(direct);
      }),
    async projectAccessLevels(userId, projectIds, now) {
      if (projectIds.length === 0) return new Map();
      const [ids, at] = [[...projectIds], t.toDate(now)];
      const active = (eb: ExpressionBuilder<Database & { m: Database["forgekit_members"] }, "m">) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", at)]);
      const chain = () => db.selectFrom("forgekit_projects as pr").innerJoin("forgekit_namespace_ancestors as a", "a.namespace_id", "pr.namespace_id").where("pr.id", "in", ids);
      const direct = db
        .selectFrom("forgekit_members as m")
        .select(["m.source_id as project_id", "m.access_level as level"])
        .where("m.source_type", "=", "project")
        .where("m.source_id", "in", ids)
        .where("m.user_id", "=", userId)
        .where(active);
      const viaGroups = chain()
        .innerJoin("forgekit_members as m", (join) => join.onRef("m.source_id", "=", "a.ancestor_id").on("m.source_type", "=", "namespace"))
        .select(["pr.id as project_id", "m.access_level as level"])
        .where("m.user_id", "=", userId)
        .where(active);
      const owned = chain()
        .innerJoin("forgekit_namespaces as n", "n.id", "a.ancestor_id")
        .select(["pr.id as project_id", sql<number>`50`.as("level")])
        .where("n.kind", "=", "user")
        .where("n.owner_id", "=", userId);
      const rows = await db
        .selectFrom(direct.unionAll(viaGroups).unionAll(owned).as("x"))
        .select((eb) => ["x.project_id", eb.fn.max("x.level").as("level")])
        .groupBy("x.project_id")
        .execute();
      return new Map(rows.map((row) => [Number(row.project_id), Number(row.level)]));
    },
    async projectPermissionLevels(userId, projectId, groupId, now) {
      const rows =
        groupId === null
          ? await runCompiled(ctx, "members.projectPermissionLevels", [userId, projectId, t.toDate(now)], (arg) => db.selectNoFrom((eb) => levelColumns(eb, arg(0), arg(1), null, arg(2))))
          : await runCompiled(ctx, "members.projectPermissionLevels+group", [userId, projectId, groupId, t.toDate(now)], (arg) => db.selectNoFrom((eb) => levelColumns(eb, arg(0), arg(1), arg(2), arg(3))));
      const row = rows[0] as { project: unknown; grp: unknown } | undefined;
      return { project: levelOf(row?.project), group: levelOf(row?.grp) };
    },
    async projectReadFacts(userId, projectId, groupId, now) {
      // The project's own facts: open issues and import status, as scalar subqueries of the same statement.
      const facts = (eb: ExpressionBuilder<Database, never>, project: number) => [
        eb.selectFrom("forgekit_issues as i").select((inner) => inner.fn.countAll().as("n")).where("i.project_id", "=", project).where("i.state", "=", "opened").as("open_issues"),
        eb.selectFrom("forgekit_project_imports as s").select("s.status").where("s.project_id", "=", project).as("import_status"),
      ];
      const rows =
        groupId === null
          ? await runCompiled(ctx, "members.projectReadFacts", [userId, projectId, t.toDate(now)], (arg) => db.selectNoFrom((eb) => [...levelColumns(eb, arg(0), arg(1), null, arg(2)), ...facts(eb, arg(1))]))
          : await runCompiled(ctx, "members.projectReadFacts+group", [userId, projectId, groupId, t.toDate(now)], (arg) => db.selectNoFrom((eb) => [...levelColumns(eb, arg(0), arg(1), arg(2), arg(3)), ...facts(eb, arg(1))]));
      const row = rows[0] as { project: unknown; grp: unknown; open_issues: unknown; import_status: unknown } | undefined;
      const status = row?.import_status;
      return { project: levelOf(row?.project), group: levelOf(row?.grp), openIssues: levelOf(row?.open_issues), importStatus: typeof status === "string" ? status : null };
    },
  };
}
