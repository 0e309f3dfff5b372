/**
 * The project merge checks (issue 19; reference `only_allow_merge_if_pipeline_succeeds`,
 * `only_allow_merge_if_all_discussions_are_resolved`, `MergeRequest#mergeable?`): set by
 * `POST /projects` and `PUT /projects/:id`, shown on the project, kept by `PUT …/merge` (405 while a
 * check fails) and named by `detailed_merge_status` (`discussions_not_resolved`, `ci_must_pass`).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;
const NOT_ALLOWED = { message: "405 Method Not Allowed" };

export const mergeRequestMergeChecksSuite: HttpSuite = (h: HttpHarness) => {
  describe("project merge checks", () => {
    let t: TestForgekit;
    const alice = (options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { "private-token": t.tokens.alice } });
    const json = <T = Json>(r: { json: unknown }) => r.json as T;
    let n = 0;

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    /**
     * A project of its own, made by `POST /projects` with the merge-check `settings` given (the others
     * at their defaults) and one commit on `main`, and the requests of a test on it: each test sees
     * only the settings it chose, whatever another test set before it.
     */
    const checked = async (settings: Json = {}) => {
      const created = await h.request("POST", "/api/v4/projects", alice({ json: { name: `checks-${++n}`, ...settings } }));
      expect(created.status).toBe(201);
      const api = (path: string) => `/api/v4/projects/${json<{ id: number }>(created).id}${path}`;
      const commit = async (branch: string, start?: string) => {
        n += 1;
        const r = await h.request("POST", api("/repository/commits"), alice({ json: { branch, commit_message: `on ${branch}`, actions: [{ action: "create", file_path: `${branch}-${n}.txt`, content: `${branch}\n` }], ...(start === undefined ? {} : { start_branch: start }) } }));
        expect(r.status).toBe(201);
        return json<{ id: string }>(r).id;
      };
      await commit("main");
      return {
        api,
        commit,
        open: async (source: string) => {
          const sha = await commit(source, "main");
          const r = await h.request("POST", api("/merge_requests"), alice({ json: { source_branch: source, target_branch: "main", title: `Merge ${source}` } }));
          expect(r.status).toBe(201);
          return { iid: json<{ iid: number }>(r).iid, sha };
        },
        settings: (json: Json) => h.request("PUT", api(""), alice({ json })),
        show: async (iid: number) => json(await h.request("GET", api(`/merge_requests/${iid}`), alice())),
        merge: (iid: number, body: Json = {}) => h.request("PUT", api(`/merge_requests/${iid}/merge`), alice({ json: body })),
        status: (sha: string, state: string, ref: string) => h.request("POST", api(`/statuses/${sha}`), alice({ json: { state, ref, name: "ci" } })),
      };
    };

    describe("POST /projects and PUT /projects/:id", () => {
      it("POST /projects stores the settings given, the others off (reference defaults)", async () => {
        const { api } = await checked({ only_allow_merge_if_pipeline_succeeds: true });
        expect(json(await h.request("GET", api(""), alice()))).toMatchObject({ only_allow_merge_if_pipeline_succeeds: true, only_allow_merge_if_all_discussions_are_resolved: false });
      });

      it("PUT /projects/:id sets each setting and keeps the other", async () => {
        const { api, settings } = await checked({ only_allow_merge_if_pipeline_succeeds: true });
        expect(json(await settings({ only_allow_merge_if_all_discussions_are_resolved: true }))).toMatchObject({ only_allow_merge_if_pipeline_succeeds: true, only_allow_merge_if_all_discussions_are_resolved: true });
        expect(json(await settings({ only_allow_merge_if_pipeline_succeeds: false }))).toMatchObject({ only_allow_merge_if_pipeline_succeeds: false, only_allow_merge_if_all_discussions_are_resolved: true });
        expect(json(await h.request("GET", api(""), alice()))).toMatchObject({ only_allow_merge_if_pipeline_succeeds: false, only_allow_merge_if_all_discussions_are_resolved: true });
      });

      it("a setting that is not a boolean is a 400, and nothing is written", async () => {
        const { api, settings } = await checked({ only_allow_merge_if_all_discussions_are_resolved: true });
        const bad = await settings({ only_allow_merge_if_pipeline_succeeds: "sometimes" });
        expect(bad.status).toBe(400);
        expect(json(await h.request("GET", api(""), alice()))).toMatchObject({ only_allow_merge_if_pipeline_succeeds: false });
      });
    });

    describe("PUT /projects/:id/merge_requests/:iid/merge with only_allow_merge_if_all_discussions_are_resolved", () => {
      it("an unresolved discussion makes detailed_merge_status discussions_not_resolved and the merge a 405; resolving it lets it merge", async () => {
        const { api, open, settings, show, merge } = await checked({ only_allow_merge_if_pipeline_succeeds: true });
        await settings({ only_allow_merge_if_all_discussions_are_resolved: true, only_allow_merge_if_pipeline_succeeds: false });
        const { iid } = await open("talk");
        const d = await h.request("POST", api(`/merge_requests/${iid}/discussions`), alice({ json: { body: "please explain" } }));
        expect(d.status).toBe(201);
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "discussions_not_resolved" });
        const refused = await merge(iid);
        expect(refused.status).toBe(405);
        expect(refused.json).toEqual(NOT_ALLOWED);
        expect(await show(iid)).toMatchObject({ state: "opened" });
        expect((await h.request("PUT", api(`/merge_requests/${iid}/discussions/${json<{ id: string }>(d).id}`), alice({ json: { resolved: true } }))).status).toBe(200);
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "mergeable" });
        const merged = await merge(iid);
        expect(merged.status).toBe(200);
        expect(json(merged)).toMatchObject({ state: "merged" });
      });

      it("with the setting off, an unresolved discussion does not block the merge", async () => {
        const { api, open, settings, show, merge } = await checked({ only_allow_merge_if_all_discussions_are_resolved: true });
        await settings({ only_allow_merge_if_all_discussions_are_resolved: false });
        const { iid } = await open("talk-off");
        expect((await h.request("POST", api(`/merge_requests/${iid}/discussions`), alice({ json: { body: "open thread" } }))).status).toBe(201);
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "mergeable" });
        expect((await merge(iid)).status).toBe(200);
      });
    });

    describe("PUT /projects/:id/merge_requests/:iid/merge with only_allow_merge_if_pipeline_succeeds", () => {
      it("without a pipeline, or with a failed one, detailed_merge_status is ci_must_pass and the merge a 405; a successful head pipeline lets it merge", async () => {
        const { open, settings, show, merge, status } = await checked();
        await settings({ only_allow_merge_if_pipeline_succeeds: true });
        const { iid, sha } = await open("ci");
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "ci_must_pass" });
        expect(json(await merge(iid))).toEqual(NOT_ALLOWED);
        expect((await status(sha, "failed", "ci")).status).toBe(201);
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "ci_must_pass" });
        const refused = await merge(iid);
        expect(refused.status).toBe(405);
        expect((await status(sha, "success", "ci")).status).toBe(201);
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "mergeable" });
        expect(json(await merge(iid))).toMatchObject({ state: "merged" });
      });

      it("a successful pipeline of an older source commit does not count: the head pipeline is the tip's", async () => {
        const { open, commit, show, merge, status } = await checked({ only_allow_merge_if_pipeline_succeeds: true });
        const { iid, sha } = await open("ci-moved");
        expect((await status(sha, "success", "ci-moved")).status).toBe(201);
        await commit("ci-moved");
        expect(await show(iid)).toMatchObject({ detailed_merge_status: "ci_must_pass" });
        expect((await merge(iid)).status).toBe(405);
      });

      it("merge_when_pipeline_succeeds while the head pipeline runs sets the automatic merge (the pipeline check waits for it)", async () => {
        const { open, merge, status } = await checked({ only_allow_merge_if_pipeline_succeeds: true });
        const { iid, sha } = await open("ci-auto");
        expect((await status(sha, "running", "ci-auto")).status).toBe(201);
        const set = await merge(iid, { merge_when_pipeline_succeeds: true });
        expect(set.status).toBe(200);
        expect(json(set)).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: true });
      });
    });
  });
};
