/**
 * A merge request's milestone (issue 19 §1; reference `merge_requests.milestone_id`): set by
 * `milestone_id` on create and update (a milestone of the project; `0` removes it; only Developers
 * and above set it), shown as the entity's `milestone`, filtered by the lists' `milestone` (title,
 * `None`, `Any`), listed by `GET /projects/:id/milestones/:milestone_id/merge_requests`, and cleared
 * when the milestone is deleted. Every test makes its own project.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

export const mergeRequestMilestonesSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge request milestones", () => {
    let k: ReviewKit;
    let made = 0;
    beforeAll(async () => {
      k = await reviewKit(h, "mr-milestones");
    });

    /** A new project of alice's with `main`, milestones v1 and v2, and bob a Reporter. */
    const world = async () => {
      made += 1;
      const p = await k.t.createProject({ namespaceId: k.t.users.alice.namespaceId ?? -1, path: `mr-milestones-${made}`, name: `mr-milestones-${made}`, visibility: "private", creatorId: k.t.users.alice.id });
      await k.t.addMember({ project: p }, k.t.users.bob, AccessLevel.Reporter);
      await k.commit("main", "README.md", { project: p });
      const milestone = async (title: string) => {
        const r = await h.request("POST", k.api("/milestones", p), k.alice({ json: { title } }));
        expect(r.status).toBe(201);
        return json<{ id: number; iid: number; title: string }>(r);
      };
      return { p, v1: await milestone("v1"), v2: await milestone("v2") };
    };
    const open = async (p: Project, source: string, extra: Json = {}) => {
      await k.commit(source, `${source}.txt`, { start: "main", project: p });
      const r = await h.request("POST", k.api("/merge_requests", p), k.alice({ json: { source_branch: source, target_branch: "main", title: `Merge ${source}`, ...extra } }));
      expect(r.status).toBe(201);
      return json<{ iid: number; milestone: Json | null }>(r);
    };
    const edit = (p: Project, iid: number, body: Json, token = k.t.tokens.alice) => h.request("PUT", k.api(`/merge_requests/${iid}`, p), k.as(token, { json: body }));
    const iids = async (path: string, p: Project, query: Record<string, string> = {}) => {
      const r = await h.request("GET", k.api(path, p), k.alice({ query }));
      expect([path, r.status]).toEqual([path, 200]);
      return json<Json[]>(r).map((m) => m["iid"]);
    };

    describe("POST and PUT /projects/:id/merge_requests", () => {
      it("milestone_id sets the milestone the entity shows; 0 removes it; a milestone of another project is not taken", async () => {
        const { p, v1, v2 } = await world();
        const other = await world();
        const mr = await open(p, "feature", { milestone_id: v1.id });
        expect(mr.milestone).toEqual({ id: v1.id, iid: v1.iid, project_id: p.id, title: "v1", description: "", state: "active", created_at: expect.any(String), updated_at: expect.any(String), due_date: null, start_date: null, expired: false, web_url: expect.stringContaining(`/-/milestones/${v1.iid}`) });
        expect(json(await edit(p, mr.iid, { milestone_id: v2.id }))["milestone"]).toMatchObject({ id: v2.id, title: "v2" });
        expect(json(await edit(p, mr.iid, { milestone_id: other.v1.id }))["milestone"]).toBeNull();
        expect(json(await edit(p, mr.iid, { milestone_id: v2.id }))["milestone"]).toMatchObject({ id: v2.id });
        expect(json(await edit(p, mr.iid, { milestone_id: 0 }))["milestone"]).toBeNull();
        expect((await open(p, "plain")).milestone).toBeNull();
      });

      it("an author who is no longer a Developer edits the merge request, but their milestone_id is dropped (only Developers and above set it)", async () => {
        const { p, v1, v2 } = await world();
        const level = async (access_level: number) => expect((await h.request("PUT", k.api(`/members/${k.t.users.bob.id}`, p), k.alice({ json: { access_level } }))).status).toBe(200);
        await level(AccessLevel.Developer);
        await k.commit("bobs", "bobs.txt", { start: "main", project: p });
        const created = await h.request("POST", k.api("/merge_requests", p), k.as(k.t.tokens.bob, { json: { source_branch: "bobs", target_branch: "main", title: "Bob's", milestone_id: v1.id } }));
        expect(json(created)["milestone"]).toMatchObject({ id: v1.id });
        await level(AccessLevel.Reporter);
        const edited = await edit(p, json<{ iid: number }>(created).iid, { title: "Bob's, renamed", milestone_id: v2.id }, k.t.tokens.bob);
        expect(edited.status).toBe(200);
        expect(json(edited)).toMatchObject({ title: "Bob's, renamed", milestone: { id: v1.id } });
      });
    });

    describe("GET /projects/:id/merge_requests?milestone=", () => {
      it("a title, None or Any filter the list", async () => {
        const { p, v1, v2 } = await world();
        const one = await open(p, "one", { milestone_id: v1.id });
        const two = await open(p, "two", { milestone_id: v2.id });
        const none = await open(p, "none");
        expect(await iids("/merge_requests", p, { milestone: "v1" })).toEqual([one.iid]);
        expect(await iids("/merge_requests", p, { milestone: "Any" })).toEqual([two.iid, one.iid]);
        expect(await iids("/merge_requests", p, { milestone: "None" })).toEqual([none.iid]);
        expect(await iids("/merge_requests", p, { milestone: "v9" })).toEqual([]);
      });
    });

    describe("GET /projects/:id/milestones/:milestone_id/merge_requests", () => {
      it("the milestone's merge requests, newest first, as MergeRequestBasic; 404 for another project's milestone; deleting the milestone clears it", async () => {
        const { p, v1, v2 } = await world();
        const other = await world();
        const first = await open(p, "first", { milestone_id: v1.id });
        const second = await open(p, "second", { milestone_id: v1.id });
        await open(p, "elsewhere", { milestone_id: v2.id });
        expect(await iids(`/milestones/${v1.id}/merge_requests`, p)).toEqual([second.iid, first.iid]);
        const paged = await h.request("GET", k.api(`/milestones/${v1.id}/merge_requests`, p), k.alice({ query: { per_page: "1", page: "2" } }));
        expect([json<Json[]>(paged).map((m) => m["iid"]), paged.headers["x-total"]]).toEqual([[first.iid], "2"]);
        const foreign = await h.request("GET", k.api(`/milestones/${other.v1.id}/merge_requests`, p), k.alice());
        expect(foreign).toMatchObject({ status: 404, json: { message: "404 Milestone Not Found" } });
        expect((await h.request("DELETE", k.api(`/milestones/${v1.id}`, p), k.alice())).status).toBe(204);
        expect(json(await h.request("GET", k.api(`/merge_requests/${first.iid}`, p), k.alice()))["milestone"]).toBeNull();
        expect(await iids("/merge_requests", p, { milestone: "None" })).toEqual([second.iid, first.iid]);
      });
    });
  });
};
