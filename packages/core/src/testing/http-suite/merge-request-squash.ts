/**
 * Squashing on merge (reference `squash`, `MergeRequests::SquashService`, Gitaly `UserSquash`):
 * `squash` on create, update or the merge itself (which keeps it), a squash commit with the source
 * tip's tree on the merge base, written as the merge request's author, merged with a merge commit in
 * the source commits' stead; `squash_commit_sha` records it. Every test makes its own project.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

export const mergeRequestSquashSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge request squashing", () => {
    let k: ReviewKit;
    let made = 0;
    beforeAll(async () => {
      k = await reviewKit(h, "mr-squash");
    });

    /** A project of alice's whose `feature` has two commits on `main`'s tip; a merge request of it, with `extra`. */
    const world = async (extra: Json = {}) => {
      made += 1;
      const p = await k.t.createProject({ namespaceId: k.t.users.alice.namespaceId ?? -1, path: `mr-squash-${made}`, name: `mr-squash-${made}`, visibility: "private", creatorId: k.t.users.alice.id });
      const base = await k.commit("main", "README.md", { project: p });
      const first = await k.commit("feature", "one.txt", { start: "main", project: p, message: "first" });
      const second = await k.commit("feature", "two.txt", { project: p, message: "second" });
      const r = await h.request("POST", k.api("/merge_requests", p), k.alice({ json: { source_branch: "feature", target_branch: "main", title: "Add the feature", ...extra } }));
      expect(r.status).toBe(201);
      return { p, base, first, second, mr: json<Json & { iid: number }>(r) };
    };
    const merge = (p: Project, iid: number, body: Json = {}) => h.request("PUT", k.api(`/merge_requests/${iid}/merge`, p), k.alice({ json: body }));
    const commitOf = async (p: Project, sha: string) => json<Json & { parent_ids: string[] }>(await h.request("GET", k.api(`/repository/commits/${sha}`, p), k.alice()));
    const mainIds = async (p: Project) => json<Json[]>(await h.request("GET", k.api("/repository/commits", p), k.alice({ query: { ref_name: "main", per_page: "100" } }))).map((c) => c["id"]);

    describe("PUT /projects/:id/merge_requests/:merge_request_iid/merge", () => {
      it("a merge request with squash merges one squash commit (the source tree on the merge base, the author's, the message given) with a merge commit; the source commits stay off main", async () => {
        const { p, base, first, second, mr } = await world({ squash: true });
        expect(mr).toMatchObject({ squash: true, squash_on_merge: true, squash_commit_sha: null });
        const r = await merge(p, mr.iid, { squash_commit_message: "Squashed feature" });
        expect(r.status).toBe(200);
        const merged = json(r);
        const squash = merged["squash_commit_sha"] as string;
        expect(squash).toMatch(/^[0-9a-f]{40}$/);
        expect((await commitOf(p, merged["merge_commit_sha"] as string)).parent_ids).toEqual([base, squash]);
        expect(await commitOf(p, squash)).toMatchObject({ parent_ids: [base], title: "Squashed feature", author_name: k.t.users.alice.name });
        const ids = await mainIds(p);
        expect([ids.includes(squash), ids.includes(first), ids.includes(second)]).toEqual([true, false, false]);
        const tree = json<Json[]>(await h.request("GET", k.api("/repository/tree", p), k.alice({ query: { ref: "main" } }))).map((e) => e["name"]);
        expect(tree).toEqual(expect.arrayContaining(["one.txt", "two.txt"]));
      });

      it("squash=true on the merge squashes a merge request that did not ask, and keeps it; the squash message defaults to the title", async () => {
        const { p, mr } = await world();
        expect(mr).toMatchObject({ squash: false, squash_on_merge: false });
        const merged = json(await merge(p, mr.iid, { squash: true }));
        expect(merged).toMatchObject({ state: "merged", squash: true });
        expect(await commitOf(p, merged["squash_commit_sha"] as string)).toMatchObject({ title: "Add the feature" });
      });

      it("without squash the merge commit's second parent is the source tip and squash_commit_sha stays null", async () => {
        const { p, base, second, mr } = await world();
        const merged = json(await merge(p, mr.iid));
        expect(merged["squash_commit_sha"]).toBeNull();
        expect((await commitOf(p, merged["merge_commit_sha"] as string)).parent_ids).toEqual([base, second]);
      });
    });

    describe("PUT /projects/:id/merge_requests/:merge_request_iid squash", () => {
      it("sets and clears squash", async () => {
        const { p, mr } = await world();
        const edit = (squash: boolean) => h.request("PUT", k.api(`/merge_requests/${mr.iid}`, p), k.alice({ json: { squash } }));
        expect(json(await edit(true))).toMatchObject({ squash: true, squash_on_merge: true });
        expect(json(await edit(false))).toMatchObject({ squash: false, squash_on_merge: false });
      });
    });
  });
};
