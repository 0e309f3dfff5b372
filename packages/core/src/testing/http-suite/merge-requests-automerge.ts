/**
 * What merge requests gained with commit statuses (issue 19 §2, reference `lib/api/merge_requests.rb`,
 * `AutoMerge::MergeWhenPipelineSucceedsService`): assignees and reviewers, their list filters, the
 * head pipeline, source-branch removal, and `merge_when_pipeline_succeeds` merging in a job when
 * the head pipeline's statuses all succeed, aborted when one fails or the branch moves on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;

export const mergeRequestsAutoMergeSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge requests: people, pipelines and automatic merges", () => {
    let t: TestForgekit;
    let project: Project;
    let carol: User;
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
    const as = (token: string, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { "private-token": token } });
    const alice = (options: RequestOptions = {}): RequestOptions => as(t.tokens.alice, options);
    const json = <T = Json>(r: { json: unknown }) => r.json as T;
    const commit = async (branch: string, file: string, start?: string) => {
      const r = await h.request("POST", api("/repository/commits"), alice({ json: { branch, commit_message: `on ${branch}`, actions: [{ action: "create", file_path: file, content: `${branch}\n` }], ...(start === undefined ? {} : { start_branch: start }) } }));
      expect(r.status).toBe(201);
      return json<{ id: string }>(r).id;
    };
    const open = async (source: string, extra: Json = {}, token = t.tokens.alice) => {
      const r = await h.request("POST", api("/merge_requests"), as(token, { json: { source_branch: source, target_branch: "main", title: `Merge ${source}`, ...extra } }));
      expect(r.status).toBe(201);
      return json<Json & { iid: number; sha: string }>(r);
    };
    let n = 0;
    /** A branch of its own off `main` (one commit) and its merge request, opened with `extra` by `token` (alice's by default). */
    const fresh = async (prefix: string, extra: Json = {}, token = t.tokens.alice) => {
      const branch = `${prefix}-${++n}`;
      await commit(branch, `${branch}.txt`, "main");
      return { branch, ...(await open(branch, extra, token)) };
    };
    const status = (sha: string, state: string, ref: string) => h.request("POST", api(`/statuses/${sha}`), alice({ json: { state, ref, name: "ci" } }));
    const show = async (iid: number) => json(await h.request("GET", api(`/merge_requests/${iid}`), alice()));
    /** The merge request once `done` holds, or as it is after 100 generous seconds (the job runs on shared, loaded machines). */
    const until = async (iid: number, done: (mr: Json) => boolean) => {
      const deadline = Date.now() + 100_000;
      let mr = await show(iid);
      while (!done(mr) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        mr = await show(iid);
      }
      return mr;
    };

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "auto", name: "auto", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Reporter);
      carol = await t.createUser({ username: "carol" });
      await commit("main", "README.md");
      expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    });
    afterAll(() => t.fk.workers.stop());

    describe("assignees and reviewers", () => {
      it("create takes assignee_ids and reviewer_ids: users who cannot read the project are dropped, and the free tier keeps the first", async () => {
        const mr = await fresh("people", { assignee_ids: [t.users.bob.id, t.users.alice.id], reviewer_ids: [carol.id, t.users.bob.id] });
        expect(mr).toMatchObject({ assignees: [{ id: t.users.bob.id, username: "bob" }], assignee: { id: t.users.bob.id }, reviewers: [{ id: t.users.bob.id }] });
      });

      it("PUT with only reviewer_ids or assignee_ids updates them (0 or an empty list clears)", async () => {
        const { iid } = await fresh("people", { assignee_ids: [t.users.bob.id], reviewer_ids: [t.users.bob.id] });
        const r = await h.request("PUT", api(`/merge_requests/${iid}`), alice({ json: { reviewer_ids: [t.users.alice.id] } }));
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ reviewers: [{ id: t.users.alice.id }], assignees: [{ id: t.users.bob.id }] });
        const cleared = await h.request("PUT", api(`/merge_requests/${iid}`), alice({ json: { assignee_ids: [0] } }));
        expect(json(cleared)).toMatchObject({ assignees: [], assignee: null });
        const one = await h.request("PUT", api(`/merge_requests/${iid}`), alice({ json: { assignee_id: t.users.alice.id } }));
        expect(json(one)).toMatchObject({ assignees: [{ id: t.users.alice.id }] });
      });

      it("lists filter by assignee_id and reviewer_id (an id, None, Any); scope=assigned_to_me and reviews_for_me", async () => {
        // A Developer of its own: GET /merge_requests lists the caller's merge requests (created_by_me),
        // here the one they open, assigned to and reviewed by bob, then by themselves.
        const user = await t.createUser({ username: `mr-person-${++n}` });
        await t.addMember({ project }, user, AccessLevel.Developer);
        const token = (await t.createToken(user.id)).plaintext;
        const { iid } = await fresh("listed", { assignee_ids: [t.users.bob.id], reviewer_ids: [t.users.bob.id] }, token);
        expect(json(await h.request("PUT", api(`/merge_requests/${iid}`), as(token, { json: { reviewer_ids: [user.id] } })))).toMatchObject({ reviewers: [{ id: user.id }] });
        expect(json(await h.request("PUT", api(`/merge_requests/${iid}`), as(token, { json: { assignee_id: user.id } })))).toMatchObject({ assignees: [{ id: user.id }] });
        const iids = async (query: string) => json<Json[]>(await h.request("GET", `${query.startsWith("/") ? "/api/v4" : api("")}${query}`, as(token))).map((m) => m["iid"]);
        expect(await iids(`/merge_requests?assignee_id=${user.id}`)).toEqual([iid]);
        expect(await iids(`/merge_requests?reviewer_id=${t.users.bob.id}`)).toEqual([]);
        expect(await iids("/merge_requests?reviewer_id=Any")).toEqual([iid]);
        expect(await iids("/merge_requests?assignee_id=None")).toEqual([]);
        expect(await iids("/merge_requests?scope=assigned_to_me")).toEqual([iid]);
        expect(await iids("/merge_requests?scope=reviews_for_me")).toEqual([iid]);
        const bad = await h.request("GET", api("/merge_requests?assignee_id=someone"), as(token));
        expect(bad.status).toBe(400);
      });
    });

    describe("head pipeline", () => {
      it("pipeline and head_pipeline are null without statuses, then the external pipeline of the source tip", async () => {
        const { iid, branch } = await fresh("piped");
        expect(await show(iid)).toMatchObject({ pipeline: null, head_pipeline: null });
        const sha = (await show(iid))["sha"] as string;
        expect((await status(sha, "running", branch)).status).toBe(201);
        expect(await show(iid)).toMatchObject({ pipeline: { sha, ref: branch, status: "running", source: "external" }, head_pipeline: { sha, status: "running", detailed_status: { group: "running" } } });
      });
    });

    describe("PUT /projects/:id/merge_requests/:iid/merge with merge_when_pipeline_succeeds", () => {
      it("sets the automatic merge while the head pipeline runs; the status that makes it succeed merges it in a job, removing the source branch", async () => {
        const sha = await commit("auto-1", "auto-1.txt", "main");
        const mr = await open("auto-1", { remove_source_branch: true });
        expect(mr).toMatchObject({ force_remove_source_branch: true, merge_when_pipeline_succeeds: false });
        await status(sha, "running", "auto-1");
        const set = await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), alice({ json: { merge_when_pipeline_succeeds: true } }));
        expect(set.status).toBe(200);
        expect(json(set)).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: true, merge_user: { id: t.users.alice.id }, merged_by: null });
        await status(sha, "success", "auto-1");
        const merged = await until(mr.iid, (m) => m["state"] === "merged");
        expect(merged).toMatchObject({ state: "merged", merged_by: { id: t.users.alice.id }, merge_when_pipeline_succeeds: false });
        expect((await h.request("GET", api("/repository/branches/auto-1"), alice())).status).toBe(404);
      }, 90_000);

      it("a failed status aborts it, with a system note", async () => {
        const sha = await commit("auto-2", "auto-2.txt", "main");
        const mr = await open("auto-2");
        await status(sha, "pending", "auto-2");
        expect(json(await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), alice({ json: { auto_merge: true } })))).toMatchObject({ merge_when_pipeline_succeeds: true });
        await status(sha, "failed", "auto-2");
        expect(await show(mr.iid)).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: false, merge_user: null });
        const notes = json<Json[]>(await h.request("GET", api(`/merge_requests/${mr.iid}/notes`), alice()));
        expect(notes.map((n) => n["body"])).toContain("aborted the automatic merge because the pipeline failed");
      });

      it("a push to the source branch makes it lapse: the new tip's success does not merge", async () => {
        const sha = await commit("auto-3", "auto-3.txt", "main");
        const mr = await open("auto-3");
        await status(sha, "running", "auto-3");
        await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), alice({ json: { merge_when_pipeline_succeeds: true } }));
        const next = await commit("auto-3", "auto-3b.txt");
        expect(await show(mr.iid)).toMatchObject({ merge_when_pipeline_succeeds: false });
        await status(next, "success", "auto-3");
        await status(sha, "success", "auto-3");
        expect(await show(mr.iid)).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: false });
      });

      it("POST cancel_merge_when_pipeline_succeeds cancels it (201); when none is set → 405", async () => {
        const sha = await commit("auto-4", "auto-4.txt", "main");
        const mr = await open("auto-4");
        await status(sha, "running", "auto-4");
        await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), alice({ json: { merge_when_pipeline_succeeds: true } }));
        const cancel = await h.request("POST", api(`/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`), alice());
        expect(cancel.status).toBe(201);
        expect(json(cancel)).toMatchObject({ merge_when_pipeline_succeeds: false });
        expect((await h.request("POST", api(`/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`), alice())).status).toBe(405);
      });

      it("without a running head pipeline it merges at once", async () => {
        await commit("auto-5", "auto-5.txt", "main");
        const mr = await open("auto-5");
        const r = await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), alice({ json: { merge_when_pipeline_succeeds: true } }));
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ state: "merged" });
      });
    });
  });
};
