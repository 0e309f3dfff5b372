/**
 * Commit statuses and the external pipelines they make (issue 19 §2, reference
 * `lib/api/commit_statuses.rb`, `lib/api/ci/pipelines.rb`): posting with the reference's state
 * machine, listing a commit's statuses, a commit's `last_pipeline` and `status`, and the pipeline
 * list and show — empty until a status makes a pipeline.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;

export const statusesSuite: HttpSuite = (h: HttpHarness) => {
  describe("commit statuses and pipelines", () => {
    let t: TestForgekit;
    let project: Project;
    let main: string;
    const api = (path: string, p: Project = project) => `/api/v4/projects/${p.id}${path}`;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const alice = (options: RequestOptions = {}) => as(t.tokens.alice, options);
    const post = (sha: string, json: Json, token = t.tokens.alice, p: Project = project) => h.request("POST", api(`/statuses/${sha}`, p), as(token, { json }));
    const commit = async (branch: string, file: string, start?: string, p: Project = project) => {
      const r = await h.request("POST", api("/repository/commits", p), alice({ json: { branch, commit_message: `on ${branch}`, actions: [{ action: "create", file_path: file, content: "x\n" }], ...(start === undefined ? {} : { start_branch: start }) } }));
      expect(r.status).toBe(201);
      return (r.json as { id: string }).id;
    };
    /** A test's own commit, alone on its own branch `branch` (made from main): no status of another test is on it. */
    const own = (branch: string) => commit(branch, `${branch}.txt`, "main");
    /** A test's own project with a commit on main: for the rules about a project's pipelines as a whole (the list, iids). */
    const freshProject = async (path: string) => {
      const made = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path, name: path, visibility: "private", creatorId: t.users.alice.id });
      return { project: made, main: await commit("main", "README.md", undefined, made) };
    };

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "ci", name: "ci", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Reporter);
      main = await commit("main", "README.md");
    });

    describe("GET /projects/:id/pipelines before any status", () => {
      it("is an empty list: no pipeline exists until a status makes one", async () => {
        const { project: fresh } = await freshProject("ci-empty");
        const r = await h.request("GET", api("/pipelines", fresh), alice());
        expect(r.status).toBe(200);
        expect(r.json).toEqual([]);
        expect(r.headers["x-total"]).toBe("0");
      });

      it("a commit without statuses has last_pipeline and status null", async () => {
        const sha = await own("no-statuses");
        const r = await h.request("GET", api(`/repository/commits/${sha}`), alice());
        expect(r.json).toMatchObject({ id: sha, last_pipeline: null, status: null });
      });
    });

    describe("POST /projects/:id/statuses/:sha", () => {
      it("201: a new status in a new external pipeline of the sha; ref defaults to the branch containing the commit, name to default", async () => {
        // Its own project, so that its pipeline is the project's first (iid 1).
        const { project: fresh } = await freshProject("ci-first");
        const feature = await commit("feature", "feature.txt", "main", fresh);
        const r = await post(feature, { state: "pending", description: "queued", target_url: "https://ci.example.com/1" }, t.tokens.alice, fresh);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ sha: feature, ref: "feature", status: "pending", name: "default", description: "queued", target_url: "https://ci.example.com/1", allow_failure: false, coverage: null, started_at: null, finished_at: null, author: { id: t.users.alice.id, username: "alice" } });
        const pipelineId = (r.json as Json)["pipeline_id"];
        const pipeline = await h.request("GET", api(`/pipelines/${String(pipelineId)}`, fresh), alice());
        expect(pipeline.status).toBe(200);
        expect(pipeline.json).toMatchObject({ id: pipelineId, iid: 1, project_id: fresh.id, sha: feature, ref: "feature", status: "pending", source: "external", user: { username: "alice" }, web_url: `${t.baseUrl}/${fresh.fullPath}/-/pipelines/${String(pipelineId)}` });
      });

      it("updates the author's pending status of that name: running, then success; the pipeline follows", async () => {
        const sha = await own("updated");
        expect((await post(sha, { state: "pending", description: "queued" })).status).toBe(201);
        const running = await post(sha, { state: "running", ref: "updated" });
        expect(running.status).toBe(201);
        expect(running.json).toMatchObject({ status: "running", description: "queued" });
        expect((running.json as Json)["started_at"]).not.toBeNull();
        const done = await post(sha, { state: "success", ref: "updated", coverage: "87.5" });
        expect(done.json).toMatchObject({ id: (running.json as Json)["id"], status: "success", coverage: 87.5 });
        const commit = await h.request("GET", api(`/repository/commits/${sha}`), alice());
        expect(commit.json).toMatchObject({ status: "success", last_pipeline: { id: (done.json as Json)["pipeline_id"], sha, ref: "updated", status: "success", source: "external" } });
      });

      it("400 with the reference's message when the state cannot be reached: running twice", async () => {
        const sha = await own("running-twice");
        expect((await post(sha, { state: "running", ref: "running-twice", context: "lint" })).status).toBe(201);
        const again = await post(sha, { state: "running", ref: "running-twice", context: "lint" });
        expect(again.status).toBe(400);
        expect(again.json).toEqual({ message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' });
      });

      it("context names the status; another name joins the same pipeline, and the pipeline runs until every latest status succeeds", async () => {
        const sha = await own("two-names");
        const lint = await post(sha, { state: "success", ref: "two-names", context: "lint" });
        const test = await post(sha, { state: "running", ref: "two-names", name: "test" });
        expect(lint.json).toMatchObject({ name: "lint", status: "success" });
        expect((test.json as Json)["pipeline_id"]).toBe((lint.json as Json)["pipeline_id"]);
        expect((await h.request("GET", api(`/repository/commits/${sha}`), alice())).json).toMatchObject({ status: "running" });
        await post(sha, { state: "failed", ref: "two-names", name: "test" });
        expect((await h.request("GET", api(`/repository/commits/${sha}`), alice())).json).toMatchObject({ status: "failed" });
      });

      it("a new post after a finished status of that name makes a new status and retries the old one", async () => {
        const sha = await own("retried");
        expect((await post(sha, { state: "running", ref: "retried", name: "test" })).status).toBe(201);
        expect((await post(sha, { state: "failed", ref: "retried", name: "test" })).json).toMatchObject({ name: "test", status: "failed" });
        const again = await post(sha, { state: "success", ref: "retried", name: "test" });
        expect(again.status).toBe(201);
        const latest = await h.request("GET", api(`/repository/commits/${sha}/statuses?name=test`), alice());
        expect((latest.json as Json[]).map((s) => s["status"])).toEqual(["success"]);
        const all = await h.request("GET", api(`/repository/commits/${sha}/statuses?name=test&all=true`), alice());
        expect((all.json as Json[]).map((s) => s["status"])).toEqual(["failed", "success"]);
        expect((await h.request("GET", api(`/repository/commits/${sha}`), alice())).json).toMatchObject({ status: "success" });
      });

      it("404 for an unknown commit, a pipeline_id not of this sha and ref", async () => {
        const unknown = await post("0".repeat(40), { state: "success" });
        expect(unknown.status).toBe(404);
        expect(unknown.json).toEqual({ message: "404 Commit Not Found" });
        const foreign = await post(main, { state: "success", pipeline_id: 999_999 });
        expect(foreign.status).toBe(404);
        expect(foreign.json).toEqual({ message: "404 Pipeline for pipeline_id, sha and ref Not Found" });
      });

      it("400 for a missing or unknown state, a target_url that is not a URL, and a name or description over 255 characters", async () => {
        expect((await post(main, { ref: "main" })).json).toEqual({ message: '400 (Bad request) "state" not given' });
        expect((await post(main, { state: "done" })).json).toEqual({ error: "state does not have a valid value" });
        const url = await post(main, { state: "success", target_url: "not a url" });
        expect(url.status).toBe(400);
        expect(url.json).toEqual({ message: { target_url: ["must be a valid URL"] } });
        const long = await post(main, { state: "success", name: "n".repeat(256), description: "d".repeat(256) });
        expect(long.json).toEqual({ message: { name: ["is too long (maximum is 255 characters)"], description: ["is too long (maximum is 255 characters)"] } });
      });

      it("Developer+ only: a Reporter gets 403, anonymous 401", async () => {
        expect((await post(main, { state: "success" }, t.tokens.bob)).status).toBe(403);
        expect((await h.request("POST", api(`/statuses/${main}`), { json: { state: "success" } })).status).toBe(401);
      });
    });

    describe("GET /projects/:id/repository/commits/:sha/statuses", () => {
      it("lists the commit's latest statuses oldest first, filtered by ref and name, paginated", async () => {
        // Its own commit with three statuses, two of them latest: lint, then test (failed, retried by success).
        const sha = await own("listed");
        expect((await post(sha, { state: "success", ref: "listed", name: "lint" })).status).toBe(201);
        expect((await post(sha, { state: "failed", ref: "listed", name: "test" })).status).toBe(201);
        expect((await post(sha, { state: "success", ref: "listed", name: "test" })).status).toBe(201);
        const r = await h.request("GET", api(`/repository/commits/${sha}/statuses?per_page=1`), alice());
        expect(r.status).toBe(200);
        expect(r.headers["x-total"]).toBe("2");
        expect((r.json as Json[]).map((s) => s["name"])).toEqual(["lint"]);
        expect((await h.request("GET", api(`/repository/commits/${sha}/statuses?ref=other`), alice())).json).toEqual([]);
      });

      it("a Reporter may read; anonymous → 401; an unknown commit → 404", async () => {
        expect((await h.request("GET", api(`/repository/commits/${main}/statuses`), as(t.tokens.bob))).status).toBe(200);
        expect((await h.request("GET", api(`/repository/commits/${main}/statuses`))).status).toBe(401);
        expect((await h.request("GET", api(`/repository/commits/${"1".repeat(40)}/statuses`), alice())).status).toBe(404);
      });
    });

    describe("GET /projects/:id/pipelines", () => {
      it("lists the external pipelines newest first, filtered by ref, sha, status and scope", async () => {
        // Its own project: the list is every pipeline of the project, here two made in order.
        const { project: fresh, main } = await freshProject("ci-list");
        const feature = await commit("feature", "feature.txt", "main", fresh);
        expect((await post(feature, { state: "success", ref: "feature" }, t.tokens.alice, fresh)).status).toBe(201);
        expect((await post(main, { state: "success", ref: "main" }, t.tokens.alice, fresh)).status).toBe(201);
        const list = (query: string) => h.request("GET", api(`/pipelines${query}`, fresh), alice());
        const all = await list("");
        expect((all.json as Json[]).map((p) => [p["ref"], p["status"]])).toEqual([
          ["main", "success"],
          ["feature", "success"],
        ]);
        expect((await list("?ref=feature")).json).toMatchObject([{ sha: feature }]);
        expect((await list(`?sha=${main}`)).json).toMatchObject([{ ref: "main" }]);
        expect((await list("?scope=running")).json).toEqual([]);
        expect((await list("?scope=finished&status=success")).json).toHaveLength(2);
        expect((await list("?scope=tags")).json).toEqual([]);
      });

      it("an unknown pipeline → 404 Not found", async () => {
        const r = await h.request("GET", api("/pipelines/999999"), alice());
        expect(r.status).toBe(404);
        expect(r.json).toEqual({ message: "404 Not found" });
      });
    });
  });
};
