/** SQL {@link MergeRequestClosingIssuesRepository} (table of migration 0038_merge_request_closing_issues). */
import type { ClosingMergeRequestCount, MergeRequestClosingIssuesRepository } from "@forgekit/core";
import { sql } from "kysely";
import { atomic, type SqlContext } from "./context.js";

/** The SQL closing-issues repository over one Kysely handle. */
export function sqlMergeRequestClosingIssues(ctx: SqlContext): MergeRequestClosingIssuesRepository {
  const { db } = ctx;
  return {
    replace: (mergeRequestId, issueIds) =>
      atomic(ctx, async (tx) => {
        const mr = await tx.db.selectFrom("forgekit_merge_requests").select("id").where("id", "=", mergeRequestId).executeTakeFirst();
        if (mr === undefined) return;
        await tx.db.deleteFrom("forgekit_merge_request_closing_issues").where("merge_request_id", "=", mergeRequestId).execute();
        const wanted = [...new Set(issueIds)];
        if (wanted.length === 0) return;
        const existing = await tx.db.selectFrom("forgekit_issues").select("id").where("id", "in", wanted).orderBy("id").execute();
        // An upsert that changes nothing: a racing caller that wrote the same pair first is not an error.
        const key = ["merge_request_id", "issue_id"] as const;
        for (const row of existing) await tx.traits.upsert(tx.db, "forgekit_merge_request_closing_issues", { merge_request_id: mergeRequestId, issue_id: Number(row.id) }, key, ["issue_id"]);
      }),
    issueIdsOf: async (mergeRequestId) =>
      (await db.selectFrom("forgekit_merge_request_closing_issues").select("issue_id").where("merge_request_id", "=", mergeRequestId).orderBy("issue_id").execute()).map((row) => Number(row.issue_id)),
    async countsByProject(issueIds) {
      const result = new Map<number, ClosingMergeRequestCount[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return result;
      const rows = await db
        .selectFrom("forgekit_merge_request_closing_issues as ci")
        .innerJoin("forgekit_merge_requests as mr", "mr.id", "ci.merge_request_id")
        .select(["ci.issue_id", "mr.project_id", sql<number | string>`count(*)`.as("n")])
        .where("ci.issue_id", "in", [...new Set(issueIds)])
        .groupBy(["ci.issue_id", "mr.project_id"])
        .orderBy("ci.issue_id")
        .orderBy("mr.project_id")
        .execute();
      for (const row of rows) result.get(Number(row.issue_id))?.push({ projectId: Number(row.project_id), count: Number(row.n) });
      return result;
    },
  };
}
