/**
 * Issues closed by merge requests and commits (issue 19 §2; reference `MergeRequest#closes_issues`,
 * `gitlab.yml` `issue_closing_pattern`, `MergeRequests::PostMergeService#close_issues`,
 * `ProcessCommitWorker`), and the merge requests a commit belongs to (`GET
 * /projects/:id/repository/commits/:sha/merge_requests`).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

export const mergeRequestClosingSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge requests closing issues", () => {
    let k: ReviewKit;
    let sibling: Project;
    let hidden: Project;
    const issue = async (title: string, p?: Project, token?: string) => {
      const r = await h.request("POST", k.api("/issues", p), k.as(token ?? k.t.tokens.alice, { json: { title } }));
      expect(r.status).toBe(201);
      return json<{ iid: number }>(r).iid;
    };
    const issueOf = async (iid: number, p?: Project) => json(await h.request("GET", k.api(`/issues/${iid}`, p), k.alice()));
    const notesOf = async (iid: number, p?: Project) => json<Json[]>(await h.request("GET", k.api(`/issues/${iid}/notes`, p), k.alice()));
    const closes = (iid: number) => k.api(`/merge_requests/${iid}/closes_issues`);

    beforeAll(async () => {
      k = await reviewKit(h, "closing");
      sibling = await k.t.createProject({ namespaceId: k.t.users.alice.namespaceId ?? -1, path: "sibling", name: "sibling", visibility: "private", creatorId: k.t.users.alice.id });
      hidden = await k.t.createProject({ namespaceId: k.t.users.root.namespaceId ?? -1, path: "hidden", name: "hidden", visibility: "private", creatorId: k.t.users.root.id });
    });

    describe("GET /projects/:id/merge_requests/:iid/closes_issues", () => {
      it("the issues named by closing phrases of the title, description and commit messages, same-project and cross-project; mentions and invisible issues do not count", async () => {
        const [a, b, c, mentioned] = [await issue("a"), await issue("b"), await issue("c"), await issue("mentioned")];
        const other = await issue("in sibling", sibling);
        const secret = await issue("secret", hidden, k.t.tokens.root);
        await k.commit("feature", "f.txt", { start: "main", message: `Add f\n\nResolves #${b}` });
        const mr = await k.open("feature", { title: `Implements #${c}`, description: `Closes #${a} and fixes ${sibling.path}#${other}, fixes ${hidden.fullPath}#${secret}. See #${mentioned}.` });
        const r = await h.request("GET", closes(mr.iid), k.alice());
        expect(r.status).toBe(200);
        expect(json<Json[]>(r).map((i) => [i["project_id"], i["iid"]])).toEqual([
          [k.project.id, c],
          [k.project.id, a],
          [sibling.id, other],
          [k.project.id, b],
        ]);
        expect(r.headers["x-total"]).toBe("4");
      });

      it("a merge request into another branch than the default closes nothing", async () => {
        const target = await issue("target");
        await k.commit("side", "side.txt", { start: "main" });
        await k.commit("side-work", "sw.txt", { start: "main" });
        const r = await h.request("POST", k.api("/merge_requests"), k.alice({ json: { source_branch: "side-work", target_branch: "side", title: `Fixes #${target}` } }));
        expect(r.status).toBe(201);
        expect(json<Json[]>(await h.request("GET", closes(json<{ iid: number }>(r).iid), k.alice()))).toEqual([]);
      });

      it("404 for an unknown merge request and for an invisible project", async () => {
        expect((await h.request("GET", closes(9999), k.alice())).status).toBe(404);
        expect((await h.request("GET", closes(1), k.as(undefined))).status).toBe(404);
      });
    });

    describe("merging into the default branch closes them", () => {
      it("each issue is closed as the merging user with the system note `closed via merge request !n` (cross-project: with the project path)", async () => {
        const local = await issue("local");
        const other = await issue("other", sibling);
        const untouched = await issue("untouched");
        await k.commit("to-merge", "m.txt", { start: "main" });
        const mr = await k.open("to-merge", { description: `Closes #${local}, closes ${sibling.fullPath}#${other}` });
        const merged = await h.request("PUT", k.api(`/merge_requests/${mr.iid}/merge`), k.alice());
        expect(merged.status).toBe(200);
        expect(await issueOf(local)).toMatchObject({ state: "closed", closed_by: { id: k.t.users.alice.id } });
        expect(await issueOf(other, sibling)).toMatchObject({ state: "closed" });
        expect(await issueOf(untouched)).toMatchObject({ state: "opened" });
        expect((await notesOf(local)).filter((n) => n["system"]).map((n) => n["body"])).toContain(`closed via merge request !${mr.iid}`);
        expect((await notesOf(other, sibling)).filter((n) => n["system"]).map((n) => n["body"])).toContain(`closed via merge request ${k.project.fullPath}!${mr.iid}`);
      });
    });

    describe("commits pushed to the default branch close issues", () => {
      it("a commit with `Fixes #n` on the default branch closes it (`closed via commit <sha>`); on another branch it does not", async () => {
        const onMain = await issue("on main");
        const onBranch = await issue("on branch");
        await k.commit("elsewhere", "e.txt", { start: "main", message: `Fixes #${onBranch}` });
        const sha = await k.commit("main", "fix.txt", { message: `Fixes #${onMain}` });
        expect(await issueOf(onMain)).toMatchObject({ state: "closed", closed_by: { id: k.t.users.alice.id } });
        expect((await notesOf(onMain)).filter((n) => n["system"]).map((n) => n["body"])).toContain(`closed via commit ${sha}`);
        expect(await issueOf(onBranch)).toMatchObject({ state: "opened" });
      });
    });

    describe("GET /projects/:id/repository/commits/:sha/merge_requests", () => {
      it("the merge requests whose commits include the commit, open or merged, filtered by state", async () => {
        const sha = await k.commit("shared", "s.txt", { start: "main" });
        const openOne = await k.open("shared");
        await k.commit("shared-more", "s2.txt", { start: "shared" });
        const mergedOne = await k.open("shared-more");
        expect((await h.request("PUT", k.api(`/merge_requests/${mergedOne.iid}/merge`), k.alice())).status).toBe(200);
        const r = await h.request("GET", k.api(`/repository/commits/${sha}/merge_requests`), k.alice());
        expect(r.status).toBe(200);
        expect(json<Json[]>(r).map((m) => m["iid"])).toEqual([mergedOne.iid, openOne.iid]);
        expect(json<Json[]>(r)[0]).toMatchObject({ state: "merged", source_branch: "shared-more", project_id: k.project.id });
        const merged = json<Json[]>(await h.request("GET", k.api(`/repository/commits/${sha}/merge_requests?state=merged`), k.alice()));
        expect(merged.map((m) => m["iid"])).toEqual([mergedOne.iid]);
      });

      it("a commit already on the target when the merge request opened is in none of them; 404 for an unknown commit", async () => {
        const main = json<{ commit: { id: string } }>(await h.request("GET", k.api("/repository/branches/main"), k.alice())).commit.id;
        await k.commit("later", "l.txt", { start: "main" });
        await k.open("later");
        expect(json<Json[]>(await h.request("GET", k.api(`/repository/commits/${main}/merge_requests`), k.alice()))).toEqual([]);
        expect((await h.request("GET", k.api(`/repository/commits/${"0".repeat(40)}/merge_requests`), k.alice())).status).toBe(404);
      });
    });
  });
};
