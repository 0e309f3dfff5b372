/**
 * Merge requests over REST (issue 11, "Merge requests"): branches are real commits in the
 * project's bare repository (made once through the commit API and the git CLI over git HTTP, then
 * pushed into each case's project), merged for real with a merge commit; each endpoint's statuses, bodies, permissions
 * and events.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;

export const mergeRequestsSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge requests", () => {
    let t: TestForgekit;
    let project: Project;
    let readApiToken: string;
    let git: GitClient;
    const mrs = (p: Project | string = project) => `/api/v4/projects/${encodeURIComponent(typeof p === "string" ? p : p.fullPath)}/merge_requests`;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const alice = (options: RequestOptions = {}) => as(t.tokens.alice, options);
    const bob = (options: RequestOptions = {}) => as(t.tokens.bob, options);
    const json = <T = Json>(r: { json: unknown }) => r.json as T;
    const commit = async (branch: string, actions: Json[], startBranch?: string) => {
      const r = await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, alice({ json: { branch, commit_message: `on ${branch}`, actions, ...(startBranch === undefined ? {} : { start_branch: startBranch }) } }));
      expect(r.status).toBe(201);
      return json<{ id: string }>(r).id;
    };
    const branchTip = async (branch: string) => json<{ commit: { id: string } }>(await h.request("GET", `/api/v4/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`, alice())).commit.id;
    const open = async (source: string, title = `Merge ${source}`, extra: Json = {}) => {
      const r = await h.request("POST", mrs(), alice({ json: { source_branch: source, target_branch: "main", title, ...extra } }));
      expect(r.status).toBe(201);
      return json<{ iid: number; id: number; sha: string }>(r);
    };
    // The merge requests a case reads, opened by the case itself on its own project: !1 feature, !2 pushed, !3 conflicting.
    const openFeature = () => open("feature", "Add feature", { description: "Adds it", labels: "backend,ui" });
    const openAll = async () => [await openFeature(), await open("pushed", "Pushed work"), await open("conflicting", "Conflicting change")];
    const mergeFeature = async () => {
      await openFeature();
      const r = await h.request("PUT", `${mrs()}/1/merge`, alice({ json: { sha: await branchTip("feature"), merge_commit_message: "Merge the feature", should_remove_source_branch: true } }));
      expect(r.status).toBe(200);
    };
    let projects = 0;

    let base: string;
    // The branches every case starts from, made once: commits through the commit API and one branch
    // pushed with the git CLI over git HTTP, fetched into a local clone.
    let seed: string;
    const BRANCHES = ["main", "feature", "conflicting", "pushed"];
    beforeAll(async () => {
      t = await createTestForgekit();
      base = await h.serve(t.fk);
      readApiToken = (await t.createToken(t.users.alice.id, { name: "read api", scopes: ["read_api"] })).plaintext;
      git = createGitClient();
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "review-seed", name: "review-seed", visibility: "private", creatorId: t.users.alice.id });
      await commit("main", [{ action: "create", file_path: "README.md", content: "one\ntwo\nthree\n" }]);
      await commit("feature", [{ action: "create", file_path: "feature.txt", content: "new\n" }], "main");
      await commit("conflicting", [{ action: "update", file_path: "README.md", content: "one\nTWO from conflicting\nthree\n" }], "main");
      // The conflicting change on main, so the two sides touch the same line.
      await commit("main", [{ action: "update", file_path: "README.md", content: "one\nTWO from main\nthree\n" }]);
      const url = gitUrl(base, `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice });
      const cwd = (seed = git.path("seed"));
      await git.must(["clone", "--quiet", url, cwd]);
      await git.must(["checkout", "--quiet", "-b", "pushed"], { cwd });
      await git.must(["-c", "user.name=Alice", "-c", "user.email=alice@example.com", "commit", "--quiet", "--allow-empty", "-m", "pushed commit"], { cwd });
      await git.must(["push", "--quiet", "origin", "pushed"], { cwd });
      await git.must(["fetch", "--quiet", "origin"], { cwd });
    });
    // Each case gets its own project with the same branches (one push of the seed's), so no case reads what another one wrote.
    beforeEach(async () => {
      projects += 1;
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: `review-${projects}`, name: `review-${projects}`, visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Reporter);
      const url = gitUrl(base, `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice });
      await git.must(["push", "--quiet", url, ...BRANCHES.map((branch) => `refs/remotes/origin/${branch}:refs/heads/${branch}`)], { cwd: seed });
    });
    afterAll(() => git.cleanup());

    describe("POST /projects/:id/merge_requests", () => {
      it("201 with the merge request: iid, branches, author, sha of the source tip, diff_refs, merge_status and detailed_merge_status", async () => {
        const r = await h.request("POST", mrs(), alice({ json: { source_branch: "feature", target_branch: "main", title: "Add feature", description: "Adds it", labels: "backend,ui" } }));
        expect(r.status).toBe(201);
        const body = json(r);
        const tip = await branchTip("feature");
        const main = await branchTip("main");
        expect(body).toMatchObject({
          iid: 1,
          project_id: project.id,
          title: "Add feature",
          description: "Adds it",
          state: "opened",
          source_branch: "feature",
          target_branch: "main",
          author: { id: t.users.alice.id, username: "alice" },
          labels: ["backend", "ui"],
          sha: tip,
          merge_status: "can_be_merged",
          detailed_merge_status: "mergeable",
          merge_user: null,
          merged_by: null,
          merged_at: null,
          merge_commit_sha: null,
          changes_count: "1",
          has_conflicts: false,
          references: { short: "!1", full: `${project.fullPath}!1` },
          web_url: `${t.baseUrl}/${project.fullPath}/-/merge_requests/1`,
          user: { can_merge: true },
        });
        expect((body["diff_refs"] as Json)["head_sha"]).toBe(tip);
        expect((body["diff_refs"] as Json)["start_sha"]).toBe(main);
      });

      it("409 when an open merge request for the same branches exists", async () => {
        await openFeature();
        const r = await h.request("POST", mrs(), alice({ json: { source_branch: "feature", target_branch: "main", title: "Again" } }));
        expect(r.status).toBe(409);
        expect(json(r)).toEqual({ message: ["Another open merge request already exists for this source branch: !1"] });
      });

      it("400 with the validate_branches messages when a branch does not exist or both are the same", async () => {
        const missing = await h.request("POST", mrs(), alice({ json: { source_branch: "nope", target_branch: "main", title: "x" } }));
        expect(missing.status).toBe(400);
        expect(json(missing)).toEqual({ message: { validate_branches: ['Source branch "nope" does not exist'] } });
        const same = await h.request("POST", mrs(), alice({ json: { source_branch: "main", target_branch: "main", title: "x" } }));
        expect(same.status).toBe(400);
        expect(json(same)).toEqual({ message: { validate_branches: ["You can't use same project/branch for source and target"] } });
      });

      it("400 when title is missing", async () => {
        const r = await h.request("POST", mrs(), alice({ json: { source_branch: "pushed", target_branch: "main" } }));
        expect(r.status).toBe(400);
        expect(json(r)).toEqual({ message: '400 (Bad request) "title" not given' });
      });

      it("a Reporter may not open one (403); anonymous → 401; a read_api token → 403; an invisible project → 404", async () => {
        expect((await h.request("POST", mrs(), bob({ json: { source_branch: "pushed", target_branch: "main", title: "x" } }))).status).toBe(403);
        expect((await h.request("POST", mrs(), { json: { source_branch: "pushed", target_branch: "main", title: "x" } })).status).toBe(401);
        expect((await h.request("POST", mrs(), as(readApiToken, { json: { source_branch: "pushed", target_branch: "main", title: "x" } }))).status).toBe(403);
        const other = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "secret", name: "secret", visibility: "private", creatorId: t.users.alice.id });
        const invisible = await h.request("POST", mrs(other), bob({ json: { source_branch: "a", target_branch: "b", title: "x" } }));
        expect(invisible.status).toBe(404);
        expect(json(invisible)).toEqual({ message: "404 Project Not Found" });
      });

      it("records the opened event in the project's feed", async () => {
        await openFeature();
        const r = await h.request("GET", `/api/v4/projects/${project.id}/events?target_type=merge_request`, alice());
        const events = json<{ action_name: string; target_iid: number }[]>(r);
        expect(events.some((e) => e.action_name === "opened" && e.target_iid === 1)).toBe(true);
      });
    });

    describe("GET /projects/:id/merge_requests", () => {
      it("lists newest first with pagination headers; state, labels, source_branch, search and iids[] filter", async () => {
        await openFeature();
        await open("pushed", "Pushed work");
        const all = await h.request("GET", `${mrs()}?per_page=1`, alice());
        expect(all.status).toBe(200);
        expect(all.headers["x-total"]).toBe("2");
        expect(json<Json[]>(all).map((m) => m["iid"])).toEqual([2]);
        const byLabel = await h.request("GET", `${mrs()}?labels=backend`, alice());
        expect(json<Json[]>(byLabel).map((m) => m["iid"])).toEqual([1]);
        const noLabels = await h.request("GET", `${mrs()}?labels=none`, alice());
        expect(json<Json[]>(noLabels).map((m) => m["iid"])).toEqual([2]);
        const bySource = await h.request("GET", `${mrs()}?source_branch=pushed`, alice());
        expect(json<Json[]>(bySource).map((m) => m["iid"])).toEqual([2]);
        const search = await h.request("GET", `${mrs()}?search=ADD%20FEAT`, alice());
        expect(json<Json[]>(search).map((m) => m["iid"])).toEqual([1]);
        const iids = await h.request("GET", `${mrs()}?iids[]=2&order_by=title&sort=asc`, alice());
        expect(json<Json[]>(iids).map((m) => m["iid"])).toEqual([2]);
        const merged = await h.request("GET", `${mrs()}?state=merged`, alice());
        expect(json<Json[]>(merged)).toEqual([]);
      });

      it("a Reporter reads them, a read_api token too; anonymous on a private project → 404", async () => {
        expect((await h.request("GET", mrs(), bob())).status).toBe(200);
        expect((await h.request("GET", mrs(), as(readApiToken))).status).toBe(200);
        const anon = await h.request("GET", mrs(), {});
        expect(anon.status).toBe(404);
      });

      it("an invalid state → 400 naming the parameter", async () => {
        const r = await h.request("GET", `${mrs()}?state=bogus`, alice());
        expect(r.status).toBe(400);
        expect(json(r)).toEqual({ error: "state does not have a valid value" });
      });
    });

    describe("GET /merge_requests", () => {
      it("scope created_by_me (default) lists the caller's merge requests across projects; all lists every readable one; assigned_to_me matches nothing (no assignees)", async () => {
        await openFeature();
        await open("pushed", "Pushed work");
        // Other cases open merge requests in their own projects: this case counts those of its project.
        const ofThisProject = (list: { iid: number; project_id: number }[]) => list.filter((m) => m.project_id === project.id).map((m) => m.iid);
        const mine = json<{ iid: number; project_id: number }[]>(await h.request("GET", "/api/v4/merge_requests?state=opened", alice()));
        expect(ofThisProject(mine)).toEqual([2, 1]);
        expect(json<unknown[]>(await h.request("GET", "/api/v4/merge_requests", bob()))).toEqual([]);
        const all = json<{ iid: number; project_id: number }[]>(await h.request("GET", "/api/v4/merge_requests?scope=all&state=opened", bob()));
        expect(ofThisProject(all)).toEqual([2, 1]);
        expect(json<unknown[]>(await h.request("GET", "/api/v4/merge_requests?scope=assigned_to_me", alice()))).toEqual([]);
      });

      it("anonymous → 401", async () => {
        expect((await h.request("GET", "/api/v4/merge_requests", {})).status).toBe(401);
      });
    });

    describe("GET /groups/:id/merge_requests", () => {
      it("lists the merge requests of the group's projects the viewer may read; an invisible group → 404", async () => {
        const group = await t.createGroup({ path: "mr-group", name: "mr-group", visibility: "private", ownerId: t.users.alice.id });
        const inGroup = await t.createProject({ namespaceId: group.id, path: "g-code", name: "g-code", visibility: "private", creatorId: t.users.alice.id });
        const c = await h.request("POST", `/api/v4/projects/${inGroup.id}/repository/commits`, alice({ json: { branch: "main", commit_message: "init", actions: [{ action: "create", file_path: "a", content: "a" }] } }));
        expect(c.status).toBe(201);
        await h.request("POST", `/api/v4/projects/${inGroup.id}/repository/branches`, alice({ json: { branch: "topic", ref: "main" } }));
        expect((await h.request("POST", `/api/v4/projects/${inGroup.id}/merge_requests`, alice({ json: { source_branch: "topic", target_branch: "main", title: "In the group" } }))).status).toBe(201);
        const r = await h.request("GET", `/api/v4/groups/${group.id}/merge_requests`, alice());
        expect(r.status).toBe(200);
        expect(json<{ title: string; project_id: number }[]>(r).map((m) => [m.title, m.project_id])).toEqual([["In the group", inGroup.id]]);
        const hidden = await h.request("GET", `/api/v4/groups/${group.id}/merge_requests`, bob());
        expect(hidden.status).toBe(404);
      });
    });

    describe("GET /projects/:id/merge_requests/:merge_request_iid", () => {
      it("200 by iid, with %2F in the project id", async () => {
        await openFeature();
        const r = await h.request("GET", `${mrs(project.fullPath)}/1`, alice());
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ iid: 1, title: "Add feature" });
      });

      it("an unknown iid → 404 Merge Request Not Found", async () => {
        const r = await h.request("GET", `${mrs()}/99`, alice());
        expect(r.status).toBe(404);
        expect(json(r)).toEqual({ message: "404 Merge Request Not Found" });
      });

      it("a merge request whose branches conflict shows cannot_be_merged / conflict", async () => {
        const mr = await open("conflicting", "Conflicting change");
        const r = await h.request("GET", `${mrs()}/${mr.iid}`, alice());
        expect(json(r)).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "conflict", has_conflicts: true });
      });
    });

    describe("PUT /projects/:id/merge_requests/:merge_request_iid", () => {
      it("updates title, description and labels; at least one parameter is required", async () => {
        await openAll();
        const r = await h.request("PUT", `${mrs()}/2`, alice({ json: { title: "Pushed work, renamed", description: "now described", add_labels: "docs" } }));
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ title: "Pushed work, renamed", description: "now described", labels: ["docs"], task_completion_status: { count: 0, completed_count: 0 } });
        const none = await h.request("PUT", `${mrs()}/2`, alice({ json: {} }));
        expect(none.status).toBe(400);
      });

      it("task_completion_status counts the description's Markdown task list items and the checked ones", async () => {
        await openAll();
        const description = "Steps:\n- [x] write\n* [ ] test\n1. [X] review\n- not a task\n  - [ ] nested";
        const r = await h.request("PUT", `${mrs()}/2`, alice({ json: { description } }));
        expect(json(r)).toMatchObject({ task_completion_status: { count: 4, completed_count: 2 } });
        const listed = json<Json[]>(await h.request("GET", `${mrs()}?iids[]=2`, alice()));
        expect(listed.map((mr) => mr["task_completion_status"])).toEqual([{ count: 4, completed_count: 2 }]);
      });

      it("state_event close then reopen records closed and reopened events (a reopened event reads \"opened\", as the reference's); closed_by is the closer while it is closed", async () => {
        await openAll();
        expect(json(await h.request("GET", `${mrs()}/2`, alice()))).toMatchObject({ state: "opened", closed_by: null });
        const closed = await h.request("PUT", `${mrs()}/2`, alice({ json: { state_event: "close" } }));
        expect(json(closed)).toMatchObject({ state: "closed", detailed_merge_status: "not_open", closed_by: { id: t.users.alice.id, username: "alice" } });
        expect(json<Json>(closed)["closed_at"]).not.toBeNull();
        const listed = json<Json[]>(await h.request("GET", `${mrs()}?state=closed`, alice()));
        expect(listed.map((mr) => [mr["iid"], (mr["closed_by"] as Json | null)?.["username"]])).toEqual([[2, "alice"]]);
        const reopened = await h.request("PUT", `${mrs()}/2`, alice({ json: { state_event: "reopen" } }));
        expect(json(reopened)).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
        const events = json<{ action_name: string; target_iid: number }[]>(await h.request("GET", `/api/v4/projects/${project.id}/events?target_type=merge_request`, alice()));
        expect(events.filter((e) => e.target_iid === 2).map((e) => e.action_name)).toEqual(["opened", "closed", "opened"]);
      });

      it("a target branch that does not exist → 400; a Reporter who is not the author → 403", async () => {
        await openAll();
        const bad = await h.request("PUT", `${mrs()}/2`, alice({ json: { target_branch: "nowhere" } }));
        expect(bad.status).toBe(400);
        expect(json(bad)).toEqual({ message: { validate_branches: ['Target branch "nowhere" does not exist'] } });
        expect((await h.request("PUT", `${mrs()}/2`, bob({ json: { title: "mine now" } }))).status).toBe(403);
      });
    });

    describe("PUT /projects/:id/merge_requests/:merge_request_iid/merge", () => {
      it("a sha other than the source tip → 409 naming the tip; nothing merges", async () => {
        await openFeature();
        const tip = await branchTip("feature");
        const r = await h.request("PUT", `${mrs()}/1/merge`, alice({ json: { sha: "0".repeat(40) } }));
        expect(r.status).toBe(409);
        expect(json(r)).toEqual({ message: `SHA does not match HEAD of source branch: ${tip}` });
      });

      it("conflicting branches → 406 Branch cannot be merged; main does not move", async () => {
        await openAll();
        const before = await branchTip("main");
        const r = await h.request("PUT", `${mrs()}/3/merge`, alice());
        expect(r.status).toBe(406);
        expect(json(r)).toEqual({ message: "Branch cannot be merged" });
        expect(await branchTip("main")).toBe(before);
      });

      it("a Reporter → 401 (reference can_be_merged_by?); anonymous → 401", async () => {
        await openFeature();
        expect((await h.request("PUT", `${mrs()}/1/merge`, bob())).status).toBe(401);
        expect((await h.request("PUT", `${mrs()}/1/merge`, {})).status).toBe(401);
      });

      it("200: a merge commit with both parents on the target branch, merge_user and merged_by, merge_commit_sha, the source branch removed when asked", async () => {
        await openFeature();
        const main = await branchTip("main");
        const feature = await branchTip("feature");
        const r = await h.request("PUT", `${mrs()}/1/merge`, alice({ json: { sha: feature, merge_commit_message: "Merge the feature", should_remove_source_branch: true } }));
        expect(r.status).toBe(200);
        const body = json(r);
        expect(body).toMatchObject({ state: "merged", merge_user: { username: "alice" }, merged_by: { username: "alice" }, detailed_merge_status: "not_open", sha: feature });
        expect(body["merged_at"]).not.toBeNull();
        const mergeSha = body["merge_commit_sha"] as string;
        expect(await branchTip("main")).toBe(mergeSha);
        const c = json(await h.request("GET", `/api/v4/projects/${project.id}/repository/commits/${mergeSha}`, alice()));
        expect(c).toMatchObject({ parent_ids: [main, feature], title: "Merge the feature", author_name: t.users.alice.name });
        const file = await h.request("GET", `/api/v4/projects/${project.id}/repository/files/feature.txt/raw?ref=main`, alice());
        expect(file.status).toBe(200);
        expect((await h.request("GET", `/api/v4/projects/${project.id}/repository/branches/feature`, alice())).status).toBe(404);
      });

      it("records the merged event and a push to the target branch", async () => {
        await mergeFeature();
        const events = json<{ action_name: string; target_iid: number | null; push_data?: { ref: string; action: string } }[]>(await h.request("GET", `/api/v4/projects/${project.id}/events`, alice()));
        expect(events.some((e) => e.action_name === "accepted" && e.target_iid === 1)).toBe(true);
        expect(events.some((e) => e.push_data?.ref === "main" && e.action_name === "pushed to")).toBe(true);
        expect(events.some((e) => e.push_data?.ref === "feature" && e.action_name === "deleted")).toBe(true);
      });

      it("the push to the target branch counts what the merge brought: the source's commits and the merge commit", async () => {
        await mergeFeature();
        const merged = json<{ merge_commit_sha: string }>(await h.request("GET", `${mrs()}/1`, alice()));
        const brought = json<unknown[]>(await h.request("GET", `${mrs()}/1/commits`, alice())).length;
        expect(brought).toBeGreaterThan(0);
        const pushes = json<{ push_data: { ref: string; commit_to: string | null; commit_count: number; commit_title: string | null } }[]>(await h.request("GET", `/api/v4/projects/${project.id}/events`, alice({ query: { action: "pushed" } })));
        const push = pushes.find((e) => e.push_data.ref === "main" && e.push_data.commit_to === merged.merge_commit_sha);
        expect(push?.push_data).toMatchObject({ commit_count: brought + 1, commit_title: "Merge the feature" });
      });

      it("a merged merge request → 405; its diff_refs come from the merge commit", async () => {
        await mergeFeature();
        const again = await h.request("PUT", `${mrs()}/1/merge`, alice());
        expect(again.status).toBe(405);
        expect(json(again)).toEqual({ message: "405 Method Not Allowed" });
        const shown = json<{ diff_refs: Json; changes_count: string }>(await h.request("GET", `${mrs()}/1`, alice()));
        expect(shown.changes_count).toBe("1");
        expect(shown.diff_refs).not.toBeNull();
      });
    });

    describe("GET /projects/:id/merge_requests/:merge_request_iid/commits and /diffs", () => {
      it("lists the source commits not on the target, and the file diffs", async () => {
        await openAll();
        const commits = json<{ title: string }[]>(await h.request("GET", `${mrs()}/2/commits`, alice()));
        expect(commits.map((c) => c.title)).toEqual(["pushed commit"]);
        const diffs = json<{ new_path: string }[]>(await h.request("GET", `${mrs()}/3/diffs`, alice()));
        expect(diffs.map((d) => d.new_path)).toEqual(["README.md"]);
      });
    });

    describe("DELETE /projects/:id/merge_requests/:merge_request_iid", () => {
      it("a Reporter → 403; the Owner → 204 and it is gone", async () => {
        await openAll();
        expect((await h.request("DELETE", `${mrs()}/3`, bob())).status).toBe(403);
        expect((await h.request("DELETE", `${mrs()}/3`, alice())).status).toBe(204);
        expect((await h.request("GET", `${mrs()}/3`, alice())).status).toBe(404);
      });
    });
  });
};
