/**
 * The merge-request, pipeline, discussion and approval schemas of the OpenAPI document against real
 * responses of a seeded instance (premium, for approval rules), each schema made strict at every
 * depth (testing/schema-check.ts): no field missing, none unknown.
 */
import { describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { apiCaller, schemaChecks } from "../testing/schema-check.js";

type Json = Record<string, unknown>;

describe("entity schemas against real responses: merge requests, pipelines, discussions, approvals", () => {
  it("MergeRequestBasic, MergeRequest, MergeRequestChanges, versions, Pipeline, Discussion, Note lists and the approval entities match", async () => {
    const t = await createTestForgekit({ tier: "premium" });
    const call = apiCaller(t.fk, t.tokens.alice);
    const { send, check, checked, checkedList } = schemaChecks(call, expect);

    const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "app", name: "app", visibility: "private", creatorId: t.users.alice.id });
    await t.addMember({ project }, t.users.bob, AccessLevel.Developer);
    const api = `/projects/${project.id}`;
    const commit = (branch: string, file: string, start?: string) =>
      send("POST", `${api}/repository/commits`, { branch, commit_message: `add ${file}`, actions: [{ action: "create", file_path: file, content: `${file}\n` }], ...(start === undefined ? {} : { start_branch: start }) }) as Promise<Json & { id: string }>;
    await commit("main", "README.md");
    const feature = await commit("feature", "feature.txt", "main");
    await commit("second", "second.txt", "main");
    await send("POST", `${api}/labels`, { name: "bug", color: "#ff0000", description: "Broken" });
    const issue = (await send("POST", `${api}/issues`, { title: "Broken" })) as { iid: number };

    // A pipeline of the feature tip: `pipeline` and `head_pipeline` of its merge request.
    await send("POST", `${api}/statuses/${feature.id}`, { state: "success", ref: "feature", name: "ci", coverage: 81.5, target_url: "https://ci.example.com/1", description: "passed" });
    const mr = await checked("MergeRequest", "POST", `${api}/merge_requests`, {
      source_branch: "feature",
      target_branch: "main",
      title: "Add feature",
      description: `Closes #${issue.iid}`,
      labels: "bug",
      assignee_ids: [t.users.alice.id],
      reviewer_ids: [t.users.bob.id],
    });
    expect(mr["head_pipeline"]).not.toBeNull();
    const iid = mr["iid"] as number;
    const second = await checked("MergeRequest", "POST", `${api}/merge_requests`, { source_branch: "second", target_branch: "main", title: "Draft: second", remove_source_branch: true });
    await checked("MergeRequest", "GET", `${api}/merge_requests/${iid}`);
    await checked("MergeRequest", "PUT", `${api}/merge_requests/${iid}`, { description: `Closes #${issue.iid}, again` });
    await checked("MergeRequestChanges", "GET", `${api}/merge_requests/${iid}/changes`);
    await checkedList("MergeRequestBasic", `${api}/merge_requests`);
    const detailed = await checkedList("MergeRequestBasic", `${api}/merge_requests`, { query: "with_labels_details=true" });
    expect(detailed.some((m) => (m["labels"] as unknown[]).some((l) => typeof l === "object"))).toBe(true);
    await checkedList("MergeRequestBasic", "/merge_requests", { query: "scope=all" });
    await checkedList("MergeRequestBasic", `/groups/${t.groups.grp.id}/merge_requests`);
    await checkedList("MergeRequestBasic", `${api}/repository/commits/${feature.id}/merge_requests`);
    await checkedList("MergeRequestBasic", `${api}/issues/${issue.iid}/closed_by`);
    const pipeline = (mr["head_pipeline"] as { id: number }).id;
    const shown = await checked("Pipeline", "GET", `${api}/pipelines/${pipeline}`);
    expect(shown["coverage"]).not.toBeNull();

    // Versions.
    const versions = await checkedList("MergeRequestVersion", `${api}/merge_requests/${iid}/versions`);
    await checked("MergeRequestVersionFull", "GET", `${api}/merge_requests/${iid}/versions/${String(versions[0]?.["id"])}`);
    await checked("MergeRequestVersionFull", "GET", `${api}/merge_requests/${iid}/versions/${String(versions[0]?.["id"])}`, undefined, { query: "unidiff=true" });

    // A resolvable discussion: resolved, its notes listed.
    const discussion = (await send("POST", `${api}/merge_requests/${iid}/discussions`, { body: "Why?" })) as { id: string };
    await checked("Discussion", "PUT", `${api}/merge_requests/${iid}/discussions/${discussion.id}`, { resolved: true });
    await checkedList("Note", `${api}/merge_requests/${iid}/discussions/${discussion.id}/notes`);
    const issueDiscussion = (await send("POST", `${api}/issues/${issue.iid}/discussions`, { body: "Indeed" })) as { id: string };
    await checkedList("Note", `${api}/issues/${issue.iid}/discussions/${issueDiscussion.id}/notes`);

    // Approvals: the implicit rule first, then a stored one naming a user and a group.
    await checked("ApprovalSettings", "GET", `${api}/approvals`);
    await checked("ApprovalSettings", "POST", `${api}/approvals`, { approvals_before_merge: 1 });
    await checked("ApprovalState", "GET", `${api}/merge_requests/${iid}/approval_state`);
    const rule = await checked("ApprovalRule", "POST", `${api}/approval_rules`, { name: "Security", approvals_required: 1, user_ids: [t.users.bob.id], group_ids: [t.groups.grp.id] });
    await checkedList("ApprovalRule", `${api}/approval_rules`);
    await checked("ApprovalRule", "GET", `${api}/approval_rules/${String(rule["id"])}`);
    await checked("ApprovalRule", "PUT", `${api}/approval_rules/${String(rule["id"])}`, { approvals_required: 1 });
    await checked("MergeRequestApprovals", "GET", `${api}/merge_requests/${iid}/approvals`);
    check("MergeRequestApprovals", await send("POST", `${api}/merge_requests/${iid}/approve`, {}, { token: t.tokens.bob }), "POST approve");
    await checked("ApprovalState", "GET", `${api}/merge_requests/${iid}/approval_state`);
    check("MergeRequestApprovals", await send("POST", `${api}/merge_requests/${iid}/unapprove`, {}, { token: t.tokens.bob }), "POST unapprove");
    check("MergeRequestApprovals", await send("POST", `${api}/merge_requests/${iid}/approve`, {}, { token: t.tokens.bob }), "POST approve again");

    // The automatic merge set and cancelled (a running pipeline holds it), then a merge.
    const secondSha = second["sha"] as string;
    await send("POST", `${api}/statuses/${secondSha}`, { state: "running", ref: "second", name: "ci" });
    await send("PUT", `${api}/merge_requests/${String(second["iid"])}`, { title: "second" });
    const auto = await checked("MergeRequest", "PUT", `${api}/merge_requests/${String(second["iid"])}/merge`, { merge_when_pipeline_succeeds: true });
    expect(auto["merge_when_pipeline_succeeds"]).toBe(true);
    await checked("MergeRequest", "POST", `${api}/merge_requests/${String(second["iid"])}/cancel_merge_when_pipeline_succeeds`);
    const merged = await checked("MergeRequest", "PUT", `${api}/merge_requests/${iid}/merge`, {});
    expect(merged["state"]).toBe("merged");
    await checkedList("MergeRequestBasic", `${api}/merge_requests`, { query: "state=merged" });
    await checked("MergeRequestChanges", "GET", `${api}/merge_requests/${iid}/changes`);
  });
});
