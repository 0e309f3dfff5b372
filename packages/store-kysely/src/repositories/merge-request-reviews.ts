/** SQL {@link MergeRequestVersionRepository} and {@link ApprovalRepository}. */
import { DEFAULT_APPROVAL_SETTINGS, type ApprovalRecord, type ApprovalRepository, type ApprovalRuleRecord, type MergeRequestVersionRecord, type MergeRequestVersionRepository, type ProjectApprovalSettings } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { MergeRequestVersionsTable, ProjectApprovalSettingsTable } from "../schema-reviews.js";
import { atomic, type SqlContext } from "./context.js";

/** The SQL versions repository over one Kysely handle. */
export function sqlMergeRequestVersions(ctx: SqlContext): MergeRequestVersionRepository {
  const { db, traits: t } = ctx;
  const toRecord = (row: Selectable<MergeRequestVersionsTable>): MergeRequestVersionRecord => ({
    id: Number(row.id),
    mergeRequestId: Number(row.merge_request_id),
    headSha: row.head_sha,
    baseSha: row.base_sha,
    startSha: row.start_sha,
    createdAt: t.fromDate(row.created_at),
  });
  const byHead = (c: SqlContext, mergeRequestId: number, headSha: string) => c.db.selectFrom("forgekit_merge_request_versions").selectAll().where("merge_request_id", "=", mergeRequestId).where("head_sha", "=", headSha).executeTakeFirst();
  return {
    record: (input, now) =>
      atomic(ctx, async (tx) => {
        const mr = await tx.db.selectFrom("forgekit_merge_requests").select("id").where("id", "=", input.mergeRequestId).executeTakeFirst();
        if (mr === undefined) return null;
        // The unique key (merge request, head) decides between racing callers; the loser reads the winner's row.
        await t.insertOrIgnore(tx.db, "forgekit_merge_request_versions", { merge_request_id: input.mergeRequestId, head_sha: input.headSha, base_sha: input.baseSha, start_sha: input.startSha, created_at: t.toDate(now) });
        const row = await byHead(tx, input.mergeRequestId, input.headSha);
        return row === undefined ? null : toRecord(row);
      }),
    list: async (mergeRequestId) => (await db.selectFrom("forgekit_merge_request_versions").selectAll().where("merge_request_id", "=", mergeRequestId).orderBy("id", "desc").execute()).map(toRecord),
    find: async (mergeRequestId, versionId) => {
      const row = await db.selectFrom("forgekit_merge_request_versions").selectAll().where("merge_request_id", "=", mergeRequestId).where("id", "=", versionId).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
  };
}

/** The SQL approvals repository over one Kysely handle. */
export function sqlApprovals(ctx: SqlContext): ApprovalRepository {
  const { db, traits: t } = ctx;
  const toSettings = (row: Selectable<ProjectApprovalSettingsTable> | undefined): ProjectApprovalSettings =>
    row === undefined
      ? { ...DEFAULT_APPROVAL_SETTINGS }
      : {
          approvalsBeforeMerge: Number(row.approvals_before_merge),
          resetApprovalsOnPush: t.fromBool(row.reset_approvals_on_push),
          disableOverridingApproversPerMergeRequest: t.fromBool(row.disable_overriding_approvers_per_merge_request),
          mergeRequestsAuthorApproval: t.fromBool(row.merge_requests_author_approval),
          mergeRequestsDisableCommittersApproval: t.fromBool(row.merge_requests_disable_committers_approval),
        };
  const settingsOf = async (c: SqlContext, projectId: number) => toSettings(await c.db.selectFrom("forgekit_project_approval_settings").selectAll().where("project_id", "=", projectId).executeTakeFirst());
  const rulesOf = async (c: SqlContext, projectId: number, ruleId?: number): Promise<ApprovalRuleRecord[]> => {
    let query = c.db.selectFrom("forgekit_approval_rules").selectAll().where("project_id", "=", projectId);
    if (ruleId !== undefined) query = query.where("id", "=", ruleId);
    const rows = await query.orderBy("id").execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    const users = await c.db.selectFrom("forgekit_approval_rule_users").selectAll().where("rule_id", "in", ids).orderBy("user_id").execute();
    const groups = await c.db.selectFrom("forgekit_approval_rule_groups").selectAll().where("rule_id", "in", ids).orderBy("group_id").execute();
    return rows.map((r) => ({
      id: Number(r.id),
      projectId: Number(r.project_id),
      name: r.name,
      approvalsRequired: Number(r.approvals_required),
      userIds: users.filter((u) => Number(u.rule_id) === Number(r.id)).map((u) => Number(u.user_id)),
      groupIds: groups.filter((g) => Number(g.rule_id) === Number(r.id)).map((g) => Number(g.group_id)),
    }));
  };
  const setMembers = async (c: SqlContext, ruleId: number, userIds: readonly number[] | undefined, groupIds: readonly number[] | undefined) => {
    if (userIds !== undefined) {
      await c.db.deleteFrom("forgekit_approval_rule_users").where("rule_id", "=", ruleId).execute();
      const rows = [...new Set(userIds)].map((user_id) => ({ rule_id: ruleId, user_id }));
      if (rows.length > 0) await c.db.insertInto("forgekit_approval_rule_users").values(rows).execute();
    }
    if (groupIds !== undefined) {
      await c.db.deleteFrom("forgekit_approval_rule_groups").where("rule_id", "=", ruleId).execute();
      const rows = [...new Set(groupIds)].map((group_id) => ({ rule_id: ruleId, group_id }));
      if (rows.length > 0) await c.db.insertInto("forgekit_approval_rule_groups").values(rows).execute();
    }
  };
  return {
    async approvals(ids) {
      const out = new Map<number, ApprovalRecord[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      const rows = await db.selectFrom("forgekit_merge_request_approvals").selectAll().where("merge_request_id", "in", [...ids]).orderBy("created_at").orderBy("user_id").execute();
      for (const row of rows) out.get(Number(row.merge_request_id))?.push({ mergeRequestId: Number(row.merge_request_id), userId: Number(row.user_id), createdAt: t.fromDate(row.created_at) });
      return out;
    },
    async approve(mergeRequestId, userId, now) {
      const written = await t.guardUnique(db, (d) => d.insertInto("forgekit_merge_request_approvals").values({ merge_request_id: mergeRequestId, user_id: userId, created_at: t.toDate(now) }).execute());
      return written !== null;
    },
    async unapprove(mergeRequestId, userId) {
      const done = await db.deleteFrom("forgekit_merge_request_approvals").where("merge_request_id", "=", mergeRequestId).where("user_id", "=", userId).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
    async resetApprovals(mergeRequestId) {
      const done = await db.deleteFrom("forgekit_merge_request_approvals").where("merge_request_id", "=", mergeRequestId).executeTakeFirst();
      return Number(done.numDeletedRows);
    },
    settings: (projectId) => settingsOf(ctx, projectId),
    updateSettings: (projectId, patch) =>
      atomic(ctx, async (tx) => {
        const next = { ...(await settingsOf(tx, projectId)), ...patch };
        const values = {
          project_id: projectId,
          approvals_before_merge: next.approvalsBeforeMerge,
          reset_approvals_on_push: t.toBool(next.resetApprovalsOnPush),
          disable_overriding_approvers_per_merge_request: t.toBool(next.disableOverridingApproversPerMergeRequest),
          merge_requests_author_approval: t.toBool(next.mergeRequestsAuthorApproval),
          merge_requests_disable_committers_approval: t.toBool(next.mergeRequestsDisableCommittersApproval),
        };
        await t.upsert(tx.db, "forgekit_project_approval_settings", values, ["project_id"], Object.keys(values).filter((k) => k !== "project_id"));
        return next;
      }),
    rules: (projectId) => rulesOf(ctx, projectId),
    findRule: async (projectId, ruleId) => (await rulesOf(ctx, projectId, ruleId))[0] ?? null,
    createRule: (input) =>
      atomic(ctx, async (tx) => {
        const id = await t.insert(tx.db, "forgekit_approval_rules", { project_id: input.projectId, name: input.name, approvals_required: input.approvalsRequired });
        await setMembers(tx, id, input.userIds, input.groupIds);
        return (await rulesOf(tx, input.projectId, id))[0] as ApprovalRuleRecord;
      }),
    updateRule: (projectId, ruleId, patch) =>
      atomic(ctx, async (tx) => {
        const [rule] = await rulesOf(tx, projectId, ruleId);
        if (rule === undefined) return null;
        const columns = { ...(patch.name === undefined ? {} : { name: patch.name }), ...(patch.approvalsRequired === undefined ? {} : { approvals_required: patch.approvalsRequired }) };
        if (Object.keys(columns).length > 0) await tx.db.updateTable("forgekit_approval_rules").set(columns).where("id", "=", ruleId).execute();
        await setMembers(tx, ruleId, patch.userIds, patch.groupIds);
        return (await rulesOf(tx, projectId, ruleId))[0] ?? null;
      }),
    async removeRule(projectId, ruleId) {
      const done = await db.deleteFrom("forgekit_approval_rules").where("project_id", "=", projectId).where("id", "=", ruleId).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
  };
}
