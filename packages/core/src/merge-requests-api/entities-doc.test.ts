/**
 * docs/entities.md's merge request table is that entity's field list (issue 19 §1): every rendered
 * key is listed with its source, and every field not listed as `fixed` differs between some of four
 * differently-made merge requests (merged, closed, open with an automatic merge, conflicting), while
 * the `fixed` ones are the same in all.
 */
import { beforeAll, describe, expect } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { callApi, itHoldsTheEntityToItsTable } from "../testing/entity-doc-table.js";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";

type Json = Record<string, unknown>;

let t: TestForgekit;
async function made(method: string, path: string, token: string, json?: Json): Promise<Json> {
  const r = await callApi(t, method, path, token, json);
  expect([method, path, r.status]).toEqual([method, path, method === "POST" ? 201 : 200]);
  return r.json;
}
/** A commit of `files` on `branch` (from `start` when new). */
const commit = (project: number, branch: string, files: Record<string, string>, start?: string) =>
  made("POST", `/projects/${project}/repository/commits`, t.tokens.alice, {
    branch,
    commit_message: `on ${branch}`,
    ...(start === undefined ? {} : { start_branch: start }),
    actions: Object.entries(files).map(([file_path, content]) => ({ action: "create", file_path, content })),
  });

describe("docs/entities.md: the merge request entity's fields (`GET /projects/:id/merge_requests/:merge_request_iid`)", () => {
  const records: Json[] = [];
  beforeAll(async () => {
    t = await createTestForgekit();
    const day = () => t.clock.advance(86_400_000);
    // A: alice's private project, bob a Reporter. B: a project of her group that requires discussions resolved, bob a Developer.
    const a = (await made("POST", "/projects", t.tokens.alice, { name: "doc-mr-a", visibility: "private", initialize_with_readme: true }))["id"] as number;
    const b = (await made("POST", "/projects", t.tokens.alice, { name: "doc-mr-b", namespace_id: t.groups.grp.id, visibility: "private", initialize_with_readme: true }))["id"] as number;
    await made("PUT", `/projects/${b}`, t.tokens.alice, { only_allow_merge_if_all_discussions_are_resolved: true });
    const project = async (id: number) => (await t.store.projects.findById(id))!;
    await t.addMember({ project: await project(a) }, t.users.bob, AccessLevel.Reporter);
    await t.addMember({ project: await project(b) }, t.users.bob, AccessLevel.Developer);

    // 1. Merged: alice's, with tasks, a label, a milestone, squashed, and the source branch removed on merge.
    await commit(a, "feature", { "feature.txt": "new\n" }, "main");
    const milestone = await made("POST", `/projects/${a}/milestones`, t.tokens.alice, { title: "v1" });
    const one = await made("POST", `/projects/${a}/merge_requests`, t.tokens.alice, {
      source_branch: "feature",
      target_branch: "main",
      title: "Add feature",
      description: "- [x] write\n- [ ] test",
      labels: "bug",
      milestone_id: milestone["id"],
      remove_source_branch: true,
      squash: true,
    });
    day();
    await made("PUT", `/projects/${a}/merge_requests/${String(one["iid"])}/merge`, t.tokens.alice);

    // 2. Closed: alice's draft in B, with an unresolved discussion.
    day();
    await commit(b, "draft-work", { "draft.txt": "draft\n" }, "main");
    const two = await made("POST", `/projects/${b}/merge_requests`, t.tokens.alice, { source_branch: "draft-work", target_branch: "main", title: "Draft: work" });
    await made("POST", `/projects/${b}/merge_requests/${String(two["iid"])}/discussions`, t.tokens.alice, { body: "Is this right?" });
    await made("PUT", `/projects/${b}/merge_requests/${String(two["iid"])}`, t.tokens.alice, { state_event: "close" });

    // 3. Open: bob's, into develop, with an assignee, a reviewer and a locked discussion, set to merge when its running pipeline succeeds.
    day();
    await commit(b, "develop", { "develop.txt": "develop\n" }, "main");
    const tip = (await commit(b, "auto", { "auto.txt": "auto\n", "more.txt": "more\n" }, "develop"))["id"] as string;
    const three = await made("POST", `/projects/${b}/merge_requests`, t.tokens.bob, { source_branch: "auto", target_branch: "develop", title: "Automatic", assignee_ids: [t.users.bob.id], reviewer_ids: [t.users.alice.id] });
    await made("POST", `/projects/${b}/statuses/${tip}`, t.tokens.alice, { state: "running", ref: "auto", name: "ci" });
    await made("PUT", `/projects/${b}/merge_requests/${String(three["iid"])}/merge`, t.tokens.bob, { merge_when_pipeline_succeeds: true, should_remove_source_branch: true });
    await made("PUT", `/projects/${b}/merge_requests/${String(three["iid"])}`, t.tokens.bob, { discussion_locked: true });

    // 4. Open and conflicting: alice's, after her first was merged; bob (a Reporter) reads it.
    day();
    await made("POST", `/projects/${a}/repository/commits`, t.tokens.alice, { branch: "conflicting", start_branch: "main", commit_message: "theirs", actions: [{ action: "update", file_path: "README.md", content: "theirs\n" }, { action: "create", file_path: "x.txt", content: "x\n" }, { action: "create", file_path: "y.txt", content: "y\n" }] });
    await made("POST", `/projects/${a}/repository/commits`, t.tokens.alice, { branch: "main", commit_message: "ours", actions: [{ action: "update", file_path: "README.md", content: "ours\n" }] });
    const four = await made("POST", `/projects/${a}/merge_requests`, t.tokens.alice, { source_branch: "conflicting", target_branch: "main", title: "Conflicting" });

    const read = async (project: number, mr: Json, token: string) => (await callApi(t, "GET", `/projects/${project}/merge_requests/${String(mr["iid"])}`, token)).json;
    records.push(await read(a, one, t.tokens.root), await read(b, two, t.tokens.root), await read(b, three, t.tokens.root), await read(a, four, t.tokens.bob));
    // What each record is made to show, so a setup that silently did less fails here rather than as a table mismatch.
    expect(records.map((r) => [r["state"], r["detailed_merge_status"], r["merge_when_pipeline_succeeds"], r["blocking_discussions_resolved"], r["first_contribution"], (r["user"] as Json)["can_merge"]])).toEqual([
      ["merged", "not_open", false, true, true, true],
      ["closed", "not_open", false, false, true, true],
      ["opened", expect.any(String), true, true, true, true],
      ["opened", "conflict", false, true, false, false],
    ]);
  });

  itHoldsTheEntityToItsTable("Merge request", "merge request", () => records);
});
