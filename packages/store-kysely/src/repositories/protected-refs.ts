/** SQL ProtectedRefRepository: a rule row and its access rows, written together. */
import type { ProtectedAccessLevel, ProtectedRef, ProtectedRefAction, ProtectedRefKind, ProtectedRefRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { ProtectedRefsTable } from "../schema-protected-refs.js";
import { atomic, type SqlContext } from "./context.js";

export function sqlProtectedRefs(ctx: SqlContext): ProtectedRefRepository {
  const { db, traits: t } = ctx;
  /** The rules with their access rows (two queries, whatever the number of rules). */
  const withAccess = async (c: SqlContext, rows: Selectable<ProtectedRefsTable>[]): Promise<ProtectedRef[]> => {
    if (rows.length === 0) return [];
    const access = await c.db
      .selectFrom("forgekit_protected_ref_access")
      .selectAll()
      .where("protected_ref_id", "in", rows.map((r) => r.id))
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      projectId: row.project_id,
      kind: row.kind as ProtectedRefKind,
      name: row.name,
      allowForcePush: t.fromBool(row.allow_force_push),
      codeOwnerApprovalRequired: t.fromBool(row.code_owner_approval_required),
      accessLevels: access
        .filter((a) => a.protected_ref_id === row.id)
        .map((a) => ({ id: a.id, action: a.action as ProtectedRefAction, accessLevel: a.access_level as ProtectedAccessLevel, userId: a.user_id, groupId: a.group_id })),
      createdAt: t.fromDate(row.created_at),
    }));
  };
  const findById = async (c: SqlContext, id: number) => {
    const row = await c.db.selectFrom("forgekit_protected_refs").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : ((await withAccess(c, [row]))[0] ?? null);
  };
  return {
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        const values = {
          project_id: input.projectId,
          kind: input.kind,
          name: input.name,
          allow_force_push: t.toBool(input.allowForcePush ?? false),
          code_owner_approval_required: t.toBool(input.codeOwnerApprovalRequired ?? false),
          created_at: t.toDate(now),
        };
        const id = await t.guardUnique(tx.db, (d) => t.insert(d, "forgekit_protected_refs", values));
        if (id === null) return null;
        for (const a of input.accessLevels) {
          await t.insert(tx.db, "forgekit_protected_ref_access", { protected_ref_id: id, action: a.action, access_level: a.accessLevel, user_id: a.userId ?? null, group_id: a.groupId ?? null });
        }
        return findById(tx, id);
      }),
    async find(projectId, kind, name) {
      const row = await db.selectFrom("forgekit_protected_refs").selectAll().where("project_id", "=", projectId).where("kind", "=", kind).where("name", "=", name).executeTakeFirst();
      return row === undefined ? null : ((await withAccess(ctx, [row]))[0] ?? null);
    },
    async list(projectId, kind) {
      const rows = await db.selectFrom("forgekit_protected_refs").selectAll().where("project_id", "=", projectId).where("kind", "=", kind).orderBy("id").execute();
      return withAccess(ctx, rows);
    },
    async update(id, patch) {
      const set = {
        ...(patch.allowForcePush === undefined ? {} : { allow_force_push: t.toBool(patch.allowForcePush) }),
        ...(patch.codeOwnerApprovalRequired === undefined ? {} : { code_owner_approval_required: t.toBool(patch.codeOwnerApprovalRequired) }),
      };
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_protected_refs").set(set).where("id", "=", id).execute();
      return findById(ctx, id);
    },
    remove: (id) =>
      atomic(ctx, async (tx) => {
        await tx.db.deleteFrom("forgekit_protected_ref_access").where("protected_ref_id", "=", id).execute();
        const result = await tx.db.deleteFrom("forgekit_protected_refs").where("id", "=", id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      }),
  };
}
