/**
 * The stored relation of merge requests to the issues they close (issue 19 §1; reference table
 * `merge_requests_closing_issues`, `MergeRequest#cache_merge_request_closes_issues!`): the issue
 * entity's `merge_requests_count` (`MergeRequestsClosingIssues.count_for_issue(issue, current_user)`)
 * and `GET /projects/:id/issues/:issue_iid/closed_by`. Every test makes its own projects, issues
 * and merge requests.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

type Visibility = Project["visibility"];

export const issueClosedBySuite: HttpSuite = (h: HttpHarness) => {
  describe("merge requests that close an issue", () => {
    let k: ReviewKit;
    let made = 0;
    beforeAll(async () => {
      k = await reviewKit(h, "closed-by");
    });

    /** A new project with a `main` branch (alice's namespace unless given; alice creates it and owns it). */
    const project = async (visibility: Visibility = "private", namespaceId = k.t.users.alice.namespaceId ?? -1, creator = k.t.users.alice) => {
      made += 1;
      const p = await k.t.createProject({ namespaceId, path: `closed-by-${made}`, name: `closed-by-${made}`, visibility, creatorId: creator.id });
      await k.commit("main", "README.md", { project: p, as: creator.id === k.t.users.alice.id ? k.t.tokens.alice : k.t.tokens.root });
      return p;
    };
    const issue = async (p: Project, extra: Json = {}, token = k.t.tokens.alice) => {
      const r = await h.request("POST", k.api("/issues", p), k.as(token, { json: { title: "an issue", ...extra } }));
      expect(r.status).toBe(201);
      return json<{ iid: number; id: number }>(r);
    };
    /** Opens a merge request of a new branch `source` (one commit, `message`) into `main` of `p`. */
    const open = async (p: Project, source: string, extra: Json = {}, message?: string) => {
      await k.commit(source, `${source}.txt`, { start: "main", project: p, ...(message === undefined ? {} : { message }) });
      const r = await h.request("POST", k.api("/merge_requests", p), k.alice({ json: { source_branch: source, target_branch: "main", title: `Merge ${source}`, ...extra } }));
      expect(r.status).toBe(201);
      return json<{ iid: number; id: number }>(r);
    };
    const editMr = async (p: Project, iid: number, body: Json) => expect((await h.request("PUT", k.api(`/merge_requests/${iid}`, p), k.alice({ json: body }))).status).toBe(200);
    // A null token asks anonymously.
    const closedBy = (p: Project, iid: number, token: string | null = k.t.tokens.alice, query = "") => h.request("GET", k.api(`/issues/${iid}/closed_by${query}`, p), k.as(token ?? undefined));
    const closedByIids = async (p: Project, iid: number, token: string | null = k.t.tokens.alice) => {
      const r = await closedBy(p, iid, token);
      expect(r.status).toBe(200);
      return json<Json[]>(r).map((m) => m["iid"]);
    };
    const count = async (p: Project, iid: number, token: string | null = k.t.tokens.alice) => {
      const r = await h.request("GET", k.api(`/issues/${iid}`, p), k.as(token ?? undefined));
      expect(r.status).toBe(200);
      return json(r)["merge_requests_count"];
    };

    describe("GET /projects/:id/issues/:issue_iid/closed_by", () => {
      it("the project's merge requests whose title, description or commit messages close the issue — open, closed or merged — newest first, as MergeRequestBasic, paginated", async () => {
        const p = await project();
        const target = await issue(p);
        const byDescription = await open(p, "by-description", { description: `Closes #${target.iid}` });
        const byTitle = await open(p, "by-title", { title: `Fix #${target.iid}` });
        await editMr(p, byTitle.iid, { state_event: "close" });
        const byCommit = await open(p, "by-commit", {}, `Do it\n\nResolves #${target.iid}`);
        expect((await h.request("PUT", k.api(`/merge_requests/${byCommit.iid}/merge`, p), k.alice())).status).toBe(200);
        await open(p, "mentions", { description: `See #${target.iid}` });
        await k.commit("side", "side.txt", { start: "main", project: p });
        await k.commit("into-side", "into-side.txt", { start: "main", project: p });
        const intoSide = await h.request("POST", k.api("/merge_requests", p), k.alice({ json: { source_branch: "into-side", target_branch: "side", title: `Closes #${target.iid}` } }));
        expect(intoSide.status).toBe(201);

        const r = await closedBy(p, target.iid);
        expect(r.status).toBe(200);
        const listed = json<Json[]>(r);
        expect(listed.map((m) => m["iid"])).toEqual([byCommit.iid, byTitle.iid, byDescription.iid]);
        expect(listed.map((m) => m["state"])).toEqual(["merged", "closed", "opened"]);
        expect(listed[2]).toMatchObject({ id: byDescription.id, project_id: p.id, source_branch: "by-description", target_branch: "main", description: `Closes #${target.iid}`, author: { username: "alice" } });
        expect(r.headers["x-total"]).toBe("3");
        const paged = await closedBy(p, target.iid, k.t.tokens.alice, "?per_page=1&page=2");
        expect(json<Json[]>(paged).map((m) => m["iid"])).toEqual([byTitle.iid]);
        expect([paged.headers["x-total"], paged.headers["x-next-page"], paged.headers["x-prev-page"]]).toEqual(["3", "3", "1"]);
      });

      it("only the issue's own project's merge requests are listed (a merge request of another project that closes it is counted, not listed)", async () => {
        const p = await project();
        const other = await project();
        const target = await issue(p);
        const local = await open(p, "local", { description: `Closes #${target.iid}` });
        await open(other, "remote", { description: `Closes ${p.fullPath}#${target.iid}` });
        expect(await closedByIids(p, target.iid)).toEqual([local.iid]);
        expect(await count(p, target.iid)).toBe(2);
      });

      it("edits keep it in step with the text: dropping the phrase removes the merge request, adding one adds it, retargeting away from the default branch removes it", async () => {
        const p = await project();
        const [a, b] = [await issue(p), await issue(p)];
        const mr = await open(p, "edited", { description: `Closes #${a.iid}` });
        expect([await closedByIids(p, a.iid), await closedByIids(p, b.iid)]).toEqual([[mr.iid], []]);
        await editMr(p, mr.iid, { description: `Closes #${b.iid}` });
        expect([await closedByIids(p, a.iid), await closedByIids(p, b.iid)]).toEqual([[], [mr.iid]]);
        await editMr(p, mr.iid, { title: `Fixes #${a.iid}` });
        expect([await closedByIids(p, a.iid), await closedByIids(p, b.iid)]).toEqual([[mr.iid], [mr.iid]]);
        await k.commit("elsewhere", "elsewhere.txt", { start: "main", project: p });
        await editMr(p, mr.iid, { target_branch: "elsewhere" });
        expect([await closedByIids(p, a.iid), await closedByIids(p, b.iid)]).toEqual([[], []]);
      });

      it("a push to the source branch whose commit message closes an issue adds the merge request", async () => {
        const p = await project();
        const target = await issue(p);
        const mr = await open(p, "pushed");
        expect(await closedByIids(p, target.iid)).toEqual([]);
        await k.commit("pushed", "more.txt", { project: p, message: `More\n\nFixes #${target.iid}` });
        expect(await closedByIids(p, target.iid)).toEqual([mr.iid]);
      });

      it("404 for an unknown issue, a confidential issue the caller may not read and an invisible project; an empty list for a caller who may not read the project's merge requests", async () => {
        const p = await project("public");
        const secret = await issue(p, { confidential: true });
        const target = await issue(p);
        const mr = await open(p, "feature-gated", { description: `Closes #${target.iid}, closes #${secret.iid}` });
        expect((await closedBy(p, 9999)).status).toBe(404);
        expect((await closedBy(p, secret.iid, k.t.tokens.bob)).status).toBe(404);
        expect(await closedByIids(p, secret.iid)).toEqual([mr.iid]);
        const hidden = await project("private");
        const hiddenIssue = await issue(hidden);
        expect((await closedBy(hidden, hiddenIssue.iid, null)).status).toBe(404);
        expect(await closedByIids(p, target.iid, null)).toEqual([mr.iid]);
        expect((await h.request("PUT", `/api/v4/projects/${p.id}`, k.alice({ json: { merge_requests_access_level: "private" } }))).status).toBe(200);
        expect(await closedByIids(p, target.iid, null)).toEqual([]);
        expect(await closedByIids(p, target.iid, k.t.tokens.bob)).toEqual([]);
        expect(await closedByIids(p, target.iid)).toEqual([mr.iid]);
      });
    });

    describe("merge_requests_count of the issue entity", () => {
      it("counts the merge requests that close the issue, in the single issue and in the project, group and global lists", async () => {
        const p = await project("private", k.t.groups.grp.id);
        const other = await project();
        const target = await issue(p, { title: "counted-target" });
        const untouched = await issue(p, { title: "counted-untouched" });
        await open(p, "count-local", { description: `Closes #${target.iid}` });
        await open(other, "count-remote", { description: `Fixes ${p.fullPath}#${target.iid}` });
        expect(await count(p, target.iid)).toBe(2);
        expect(await count(p, untouched.iid)).toBe(0);
        const counts = async (path: string) => {
          const r = await h.request("GET", `/api/v4${path}`, k.alice());
          expect(r.status).toBe(200);
          return json<Json[]>(r)
            .filter((i) => i["project_id"] === p.id)
            .map((i) => [i["iid"], i["merge_requests_count"]]);
        };
        const expected = [
          [untouched.iid, 0],
          [target.iid, 2],
        ];
        expect(await counts(`/projects/${p.id}/issues`)).toEqual(expected);
        expect(await counts(`/groups/${k.t.groups.grp.id}/issues?search=counted-`)).toEqual(expected);
        expect(await counts("/issues?scope=all&search=counted-")).toEqual(expected);
      });

      it("only merge requests the caller may read count", async () => {
        const p = await project("public");
        const sibling = await project("private");
        const target = await issue(p);
        await open(p, "readable", { description: `Closes #${target.iid}` });
        await open(sibling, "unreadable", { description: `Closes ${p.fullPath}#${target.iid}` });
        expect([await count(p, target.iid), await count(p, target.iid, k.t.tokens.bob), await count(p, target.iid, null)]).toEqual([2, 1, 1]);
        expect((await h.request("PUT", `/api/v4/projects/${p.id}`, k.alice({ json: { merge_requests_access_level: "private" } }))).status).toBe(200);
        expect([await count(p, target.iid), await count(p, target.iid, k.t.tokens.bob), await count(p, target.iid, null)]).toEqual([2, 0, 0]);
      });

      it("stored as the acting user reads it: an issue the opener may not read is not counted, even for a caller who may read both; an edit by one who may read it counts it", async () => {
        const rootsProject = await project("private", k.t.users.root.namespaceId ?? -1, k.t.users.root);
        const target = await issue(rootsProject, {}, k.t.tokens.root);
        const p = await project();
        const blind = await open(p, "blind", { description: `Closes ${rootsProject.fullPath}#${target.iid}` });
        expect(await count(rootsProject, target.iid, k.t.tokens.root)).toBe(0);
        // Reference `UpdateService`: `cache_merge_request_closes_issues!(current_user)`, here the administrator.
        const edited = await h.request("PUT", k.api(`/merge_requests/${blind.iid}`, p), k.as(k.t.tokens.root, { json: { description: `Closes ${rootsProject.fullPath}#${target.iid} (edited)` } }));
        expect(edited.status).toBe(200);
        expect(await count(rootsProject, target.iid, k.t.tokens.root)).toBe(1);
      });

      it("a merged merge request still counts; a deleted one no longer does", async () => {
        const p = await project();
        const target = await issue(p);
        const merged = await open(p, "to-merge", { description: `Closes #${target.iid}` });
        const deleted = await open(p, "to-delete", { description: `Closes #${target.iid}` });
        expect((await h.request("PUT", k.api(`/merge_requests/${merged.iid}/merge`, p), k.alice())).status).toBe(200);
        expect(await count(p, target.iid)).toBe(2);
        expect((await h.request("DELETE", k.api(`/merge_requests/${deleted.iid}`, p), k.alice())).status).toBe(204);
        expect(await count(p, target.iid)).toBe(1);
        expect(await closedByIids(p, target.iid)).toEqual([merged.iid]);
      });

      it("merge requests the host opens with fk.mergeRequests.create count too", async () => {
        const p = await project();
        const target = await issue(p);
        await k.commit("host-opened", "host.txt", { start: "main", project: p });
        const created = await k.t.fk.mergeRequests.create({ projectId: p.id, authorId: k.t.users.alice.id, title: `Closes #${target.iid}`, sourceBranch: "host-opened", targetBranch: "main" });
        expect(created.isOk()).toBe(true);
        expect(await count(p, target.iid)).toBe(1);
      });
    });
  });
};
