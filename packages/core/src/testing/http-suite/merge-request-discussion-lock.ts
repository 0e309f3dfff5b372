/**
 * A merge request's discussion lock (reference `merge_requests.discussion_locked`,
 * `IssuablePolicy` `locked & ~is_project_member`): `discussion_locked` on update (Developers and
 * above; others' is dropped), shown by the entity (null until set), a system note when it changes,
 * and while locked only project members comment. Every test makes its own public project.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

export const mergeRequestDiscussionLockSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge request discussion locks", () => {
    let k: ReviewKit;
    let outsider: string;
    let made = 0;
    beforeAll(async () => {
      k = await reviewKit(h, "mr-locks");
      const carol = await k.t.createUser({ username: "carol-locks" });
      outsider = (await k.t.createToken(carol.id)).plaintext;
    });

    /** A public project of alice's with an open merge request; bob a Reporter. */
    const world = async (): Promise<{ p: Project; iid: number }> => {
      made += 1;
      const p = await k.t.createProject({ namespaceId: k.t.users.alice.namespaceId ?? -1, path: `mr-locks-${made}`, name: `mr-locks-${made}`, visibility: "public", creatorId: k.t.users.alice.id });
      await k.t.addMember({ project: p }, k.t.users.bob, AccessLevel.Reporter);
      await k.commit("main", "README.md", { project: p });
      await k.commit("feature", "feature.txt", { start: "main", project: p });
      const r = await h.request("POST", k.api("/merge_requests", p), k.alice({ json: { source_branch: "feature", target_branch: "main", title: "Feature" } }));
      expect(r.status).toBe(201);
      return { p, iid: json<{ iid: number }>(r).iid };
    };
    const edit = (p: Project, iid: number, body: Json, token = k.t.tokens.alice) => h.request("PUT", k.api(`/merge_requests/${iid}`, p), k.as(token, { json: body }));
    const comment = (p: Project, iid: number, token: string) => h.request("POST", k.api(`/merge_requests/${iid}/notes`, p), k.as(token, { json: { body: "a comment" } }));
    const systemNotes = async (p: Project, iid: number) => json<Json[]>(await h.request("GET", k.api(`/merge_requests/${iid}/notes`, p), k.alice({ query: { sort: "asc" } }))).filter((n) => n["system"] === true).map((n) => n["body"]);

    describe("PUT /projects/:id/merge_requests/:merge_request_iid discussion_locked", () => {
      it("null until set; true locks it with a system note, false unlocks it with another; the same value again notes nothing", async () => {
        const { p, iid } = await world();
        expect(json(await h.request("GET", k.api(`/merge_requests/${iid}`, p), k.alice()))["discussion_locked"]).toBeNull();
        expect(json(await edit(p, iid, { discussion_locked: true }))["discussion_locked"]).toBe(true);
        expect(json(await edit(p, iid, { discussion_locked: true }))["discussion_locked"]).toBe(true);
        expect(json(await edit(p, iid, { discussion_locked: false }))["discussion_locked"]).toBe(false);
        expect(await systemNotes(p, iid)).toEqual(["locked the discussion in this merge request", "unlocked the discussion in this merge request"]);
      });

      it("while locked a signed-in user who is not a member may not comment (403); members may; unlocked, anyone who reads it may", async () => {
        const { p, iid } = await world();
        await edit(p, iid, { discussion_locked: true });
        expect((await comment(p, iid, outsider)).status).toBe(403);
        expect((await comment(p, iid, k.t.tokens.bob)).status).toBe(201);
        await edit(p, iid, { discussion_locked: false });
        expect((await comment(p, iid, outsider)).status).toBe(201);
      });

      it("a Reporter who is not the author may not lock it (403): nothing changes", async () => {
        const { p, iid } = await world();
        expect((await edit(p, iid, { discussion_locked: true }, k.t.tokens.bob)).status).toBe(403);
        expect(json(await h.request("GET", k.api(`/merge_requests/${iid}`, p), k.alice()))["discussion_locked"]).toBeNull();
      });
    });
  });
};
