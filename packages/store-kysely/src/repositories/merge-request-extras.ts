/** SQL {@link MergeRequestExtrasRepository}: assignees, reviewers, source-branch removal and automatic merges. */
import { emptyMergeRequestExtras, type MergeRequestExtras, type MergeRequestExtrasRepository } from "@forgekit/core";
import { atomic, type SqlContext } from "./context.js";

type Role = "assignee" | "reviewer";

/** The SQL extras repository over one Kysely handle. */
export function sqlMergeRequestExtras(ctx: SqlContext): MergeRequestExtrasRepository {
  const { db, traits: t } = ctx;
  const setPeople = (mergeRequestId: number, role: Role, userIds: readonly number[]) =>
    atomic(ctx, async (tx) => {
      await tx.db.deleteFrom("forgekit_merge_request_people").where("merge_request_id", "=", mergeRequestId).where("role", "=", role).execute();
      const rows = [...new Set(userIds)].map((userId, position) => ({ merge_request_id: mergeRequestId, role, user_id: userId, position }));
      if (rows.length > 0) await tx.db.insertInto("forgekit_merge_request_people").values(rows).execute();
    });
  /** Writes the settings row, creating it with defaults first when the merge request has none. */
  const setSettings = (mergeRequestId: number, values: Record<string, unknown>) =>
    atomic(ctx, async (tx) => {
      const done = await tx.db.updateTable("forgekit_merge_request_settings").set(values).where("merge_request_id", "=", mergeRequestId).executeTakeFirst();
      if (Number(done.numUpdatedRows) > 0) return;
      const defaults = { merge_request_id: mergeRequestId, force_remove_source_branch: t.toBool(false), auto_merge_user_id: null, auto_merge_sha: null, auto_merge_remove_source_branch: null, auto_merge_created_at: null, milestone_id: null, discussion_locked: null, squash: null, squash_commit_sha: null };
      await tx.db.insertInto("forgekit_merge_request_settings").values({ ...defaults, ...values }).execute();
    });
  return {
    async extras(ids) {
      const out = new Map<number, MergeRequestExtras>(ids.map((id) => [id, emptyMergeRequestExtras()]));
      if (ids.length === 0) return out;
      const people = await db.selectFrom("forgekit_merge_request_people").selectAll().where("merge_request_id", "in", [...ids]).orderBy("merge_request_id").orderBy("role").orderBy("position").execute();
      for (const row of people) {
        const extras = out.get(Number(row.merge_request_id));
        if (extras === undefined) continue;
        (row.role === "assignee" ? extras.assigneeIds : extras.reviewerIds).push(Number(row.user_id));
      }
      const settings = await db.selectFrom("forgekit_merge_request_settings").selectAll().where("merge_request_id", "in", [...ids]).execute();
      for (const row of settings) {
        const extras = out.get(Number(row.merge_request_id));
        if (extras === undefined) continue;
        extras.forceRemoveSourceBranch = t.fromBool(row.force_remove_source_branch);
        extras.milestoneId = row.milestone_id === null ? null : Number(row.milestone_id);
        extras.discussionLocked = row.discussion_locked === null ? null : t.fromBool(row.discussion_locked);
        extras.squash = row.squash !== null && t.fromBool(row.squash);
        extras.squashCommitSha = row.squash_commit_sha;
        if (row.auto_merge_user_id !== null && row.auto_merge_sha !== null && row.auto_merge_created_at !== null) {
          extras.autoMerge = { userId: Number(row.auto_merge_user_id), sha: row.auto_merge_sha, removeSourceBranch: row.auto_merge_remove_source_branch !== null && t.fromBool(row.auto_merge_remove_source_branch), createdAt: t.fromDate(row.auto_merge_created_at) };
        }
      }
      return out;
    },
    setAssignees: (id, userIds) => setPeople(id, "assignee", userIds),
    setReviewers: (id, userIds) => setPeople(id, "reviewer", userIds),
    setForceRemoveSourceBranch: (id, value) => setSettings(id, { force_remove_source_branch: t.toBool(value) }),
    setMilestone: (id, milestoneId) => setSettings(id, { milestone_id: milestoneId }),
    setSquash: (id, squash) => setSettings(id, { squash: t.toBool(squash) }),
    setSquashCommitSha: (id, sha) => setSettings(id, { squash_commit_sha: sha }),
    setDiscussionLocked: (id, locked) => setSettings(id, { discussion_locked: t.toBool(locked) }),
    setAutoMerge: (id, auto) =>
      setSettings(id, {
        auto_merge_user_id: auto?.userId ?? null,
        auto_merge_sha: auto?.sha ?? null,
        auto_merge_remove_source_branch: auto === null ? null : t.toBool(auto.removeSourceBranch),
        auto_merge_created_at: auto === null ? null : t.toDate(auto.createdAt),
      }),
    async takeAutoMerge(id, sha) {
      const done = await db
        .updateTable("forgekit_merge_request_settings")
        .set({ auto_merge_user_id: null, auto_merge_sha: null, auto_merge_remove_source_branch: null, auto_merge_created_at: null })
        .where("merge_request_id", "=", id)
        .where("auto_merge_sha", "=", sha)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },
  };
}
