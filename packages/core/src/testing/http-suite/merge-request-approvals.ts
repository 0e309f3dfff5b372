/**
 * Merge-request approvals (issue 19 §2; reference `lib/api/merge_request_approvals.rb`,
 * `project_approvals.rb`, `project_approval_rules.rb`): the free tier's approve / unapprove /
 * approvals with the project's author, committer and reset-on-push settings; on premium required
 * approvals (`approvals_before_merge`, approval rules) that hold merges back, and `approval_state`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

interface People {
  carol: User;
  carolToken: string;
  dave: User;
  daveToken: string;
}

async function people(k: ReviewKit): Promise<People> {
  const carol = await k.t.createUser({ username: "carol" });
  const dave = await k.t.createUser({ username: "dave" });
  await k.t.addMember({ project: k.project }, carol, AccessLevel.Developer);
  await k.t.addMember({ project: k.project }, dave, AccessLevel.Developer);
  await k.t.addMember({ project: k.project }, k.t.users.bob, AccessLevel.Reporter);
  return { carol, dave, carolToken: (await k.t.createToken(carol.id)).plaintext, daveToken: (await k.t.createToken(dave.id)).plaintext };
}

/**
 * A private project of alice's of its own (`main` with one commit, carol and dave Developers, bob
 * Reporter), for a test that changes the project's approval settings or rules or reads them whole:
 * whatever another test set or left on the kit's project does not reach it.
 */
async function ownProject(k: ReviewKit, u: People, path: string): Promise<Project> {
  const project = await k.t.createProject({ namespaceId: k.t.users.alice.namespaceId ?? -1, path, name: path, visibility: "private", creatorId: k.t.users.alice.id });
  await k.t.addMember({ project }, u.carol, AccessLevel.Developer);
  await k.t.addMember({ project }, u.dave, AccessLevel.Developer);
  await k.t.addMember({ project }, k.t.users.bob, AccessLevel.Reporter);
  await k.commit("main", "README.md", { project });
  return project;
}

/** Opens a merge request of `source` into `main` of `project` as alice (201 expected). */
async function openIn(h: HttpHarness, k: ReviewKit, project: Project, source: string, extra: Json = {}) {
  const r = await h.request("POST", k.api("/merge_requests", project), k.alice({ json: { source_branch: source, target_branch: "main", title: `Merge ${source}`, ...extra } }));
  expect(r.status).toBe(201);
  return json<Json & { iid: number; id: number; sha: string }>(r);
}

export const mergeRequestApprovalsSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge request approvals (free tier)", () => {
    let k: ReviewKit;
    let u: People;
    let n = 0;
    const fresh = async (extra: Json = {}, project: Project = k.project) => {
      n += 1;
      await k.commit(`f${n}`, `f${n}.txt`, { start: "main", project });
      return openIn(h, k, project, `f${n}`, extra);
    };
    /** A project of its own for a test that changes the approval settings. */
    const own = () => ownProject(k, u, `approvals-${++n}`);
    const approvals = async (iid: number, token?: string, project: Project = k.project) => json(await h.request("GET", k.api(`/merge_requests/${iid}/approvals`, project), k.as(token ?? k.t.tokens.alice)));
    const approve = (iid: number, token: string, body: Json = {}, project: Project = k.project) => h.request("POST", k.api(`/merge_requests/${iid}/approve`, project), k.as(token, { json: body }));
    const settings = (body: Json, project: Project = k.project) => h.request("POST", k.api("/approvals", project), k.alice({ json: body }));

    beforeAll(async () => {
      k = await reviewKit(h, "approvals");
      u = await people(k);
    });

    describe("GET /projects/:id/merge_requests/:iid/approvals", () => {
      it("nothing required on the free tier; who approved, and whether the caller has or may approve", async () => {
        const mr = await fresh();
        expect(await approvals(mr.iid)).toMatchObject({ iid: mr.iid, project_id: k.project.id, approved: false, approvals_required: 0, approvals_left: 0, approved_by: [], user_has_approved: false, user_can_approve: false, approvers: [], approver_groups: [], has_approval_rules: false, merge_request_approvers_available: false });
        expect(await approvals(mr.iid, u.carolToken)).toMatchObject({ user_can_approve: true, user_has_approved: false });
      });

      it("404 for an unknown merge request or an invisible project", async () => {
        const mr = await fresh();
        expect((await h.request("GET", k.api("/merge_requests/9999/approvals"), k.alice())).status).toBe(404);
        expect((await h.request("GET", k.api(`/merge_requests/${mr.iid}/approvals`), k.as(undefined))).status).toBe(404);
      });
    });

    describe("POST /projects/:id/merge_requests/:iid/approve", () => {
      it("201 with the approvals; the approval shows in approved_by, with a system note; a second approval by the same user is 401", async () => {
        const mr = await fresh();
        const r = await approve(mr.iid, u.carolToken);
        expect(r.status).toBe(201);
        expect(json(r)).toMatchObject({ approved: true, approved_by: [{ user: { id: u.carol.id, username: "carol" } }], user_has_approved: true, user_can_approve: false });
        const notes = json<Json[]>(await h.request("GET", k.api(`/merge_requests/${mr.iid}/notes`), k.alice()));
        expect(notes.filter((x) => x["system"]).map((x) => [x["body"], (x["author"] as Json)["id"]])).toContainEqual(["approved this merge request", u.carol.id]);
        const events = json<Json[]>(await h.request("GET", k.api("/events?action=approved"), k.alice()));
        expect(events.map((e) => [e["action_name"], e["target_iid"], e["author_id"]])).toContainEqual(["approved", mr.iid, u.carol.id]);
        expect((await approve(mr.iid, u.carolToken)).status).toBe(401);
      });

      it("the author may not approve their own merge request (401) until the project allows it", async () => {
        const project = await own();
        const mr = await fresh({}, project);
        expect((await approve(mr.iid, k.t.tokens.alice, {}, project)).status).toBe(401);
        expect((await settings({ merge_requests_author_approval: true }, project)).status).toBe(201);
        expect((await approve(mr.iid, k.t.tokens.alice, {}, project)).status).toBe(201);
        expect((await settings({ merge_requests_author_approval: false }, project)).status).toBe(201);
      });

      it("a committer may approve unless merge_requests_disable_committers_approval", async () => {
        const project = await own();
        n += 1;
        await k.commit(`c${n}`, `c${n}.txt`, { start: "main", as: u.daveToken, project });
        const mr = await openIn(h, k, project, `c${n}`);
        expect((await settings({ merge_requests_disable_committers_approval: true }, project)).status).toBe(201);
        expect(await approvals(mr.iid, u.daveToken, project)).toMatchObject({ user_can_approve: false });
        expect((await approve(mr.iid, u.daveToken, {}, project)).status).toBe(401);
        expect((await settings({ merge_requests_disable_committers_approval: false }, project)).status).toBe(201);
        expect((await approve(mr.iid, u.daveToken, {}, project)).status).toBe(201);
      });

      it("409 when sha is not the source tip; the source tip approves", async () => {
        const mr = await fresh();
        const r = await approve(mr.iid, u.carolToken, { sha: "0".repeat(40) });
        expect(r.status).toBe(409);
        expect(json(r)).toEqual({ message: `SHA does not match HEAD of source branch: ${mr.sha}` });
        expect((await approve(mr.iid, u.carolToken, { sha: mr.sha })).status).toBe(201);
      });

      it("a Reporter → 403; anonymous → 401", async () => {
        const mr = await fresh();
        expect((await approve(mr.iid, k.t.tokens.bob)).status).toBe(403);
        expect((await h.request("POST", k.api(`/merge_requests/${mr.iid}/approve`))).status).toBe(401);
      });
    });

    describe("POST /projects/:id/merge_requests/:iid/unapprove", () => {
      it("removes the caller's approval (201); without one → 404", async () => {
        const mr = await fresh();
        await approve(mr.iid, u.carolToken);
        const r = await h.request("POST", k.api(`/merge_requests/${mr.iid}/unapprove`), k.as(u.carolToken));
        expect(r.status).toBe(201);
        expect(json(r)).toMatchObject({ approved: false, approved_by: [], user_has_approved: false, user_can_approve: true });
        expect((await h.request("POST", k.api(`/merge_requests/${mr.iid}/unapprove`), k.as(u.carolToken))).status).toBe(404);
      });
    });

    describe("reset_approvals_on_push", () => {
      it("a push to the source branch drops the approvals (the default); with the setting off they stay", async () => {
        const project = await own();
        const mr = await fresh({}, project);
        const branch = mr["source_branch"] as string;
        await approve(mr.iid, u.carolToken, {}, project);
        await k.commit(branch, `more-${branch}.txt`, { project });
        expect(await approvals(mr.iid, undefined, project)).toMatchObject({ approved: false, approved_by: [] });
        expect((await settings({ reset_approvals_on_push: false }, project)).status).toBe(201);
        await approve(mr.iid, u.carolToken, {}, project);
        await k.commit(branch, `even-more-${branch}.txt`, { project });
        expect(await approvals(mr.iid, undefined, project)).toMatchObject({ approved: true, approved_by: [{ user: { id: u.carol.id } }] });
        expect((await settings({ reset_approvals_on_push: true }, project)).status).toBe(201);
      });
    });

    describe("GET/POST /projects/:id/approvals", () => {
      it("the configuration with the deprecated approver lists as empty arrays; Maintainers change it (201)", async () => {
        // A project of its own: the defaults, whatever another test set on the kit's project.
        const project = await own();
        const r = await h.request("GET", k.api("/approvals", project), k.as(u.carolToken));
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ approvers: [], approval_groups: [], approvals_before_merge: 0, reset_approvals_on_push: true, disable_overriding_approvers_per_merge_request: false, merge_requests_author_approval: false, merge_requests_disable_committers_approval: false });
        const changed = await settings({ disable_overriding_approvers_per_merge_request: true }, project);
        expect(changed.status).toBe(201);
        expect(json(changed)).toMatchObject({ disable_overriding_approvers_per_merge_request: true });
        expect((await h.request("POST", k.api("/approvals", project), k.as(u.carolToken, { json: { reset_approvals_on_push: false } }))).status).toBe(403);
      });

      it("required approvals, approval_state and approval rules need the premium tier (403)", async () => {
        const r = await settings({ approvals_before_merge: 2 });
        expect(r.status).toBe(403);
        expect(json(r)).toEqual({ message: "403 Forbidden - Merge request approval rules require the premium tier" });
        expect((await h.request("GET", k.api("/approval_rules"), k.alice())).status).toBe(403);
        const mr = await fresh();
        expect((await h.request("GET", k.api(`/merge_requests/${mr.iid}/approval_state`), k.alice())).status).toBe(403);
        expect((await settings({ approvals_before_merge: -1 })).status).toBe(400);
        const huge = await settings({ approvals_before_merge: 2 ** 40 });
        expect(huge.status).toBe(400);
        expect(json(huge)).toEqual({ message: { approvals_before_merge: ["must be less than or equal to 2147483647"] } });
      });
    });
  });

  describe("merge request approvals (premium tier)", () => {
    let k: ReviewKit;
    let u: People;
    let n = 0;
    const fresh = async (project: Project) => {
      n += 1;
      await k.commit(`p${n}`, `p${n}.txt`, { start: "main", project });
      return openIn(h, k, project, `p${n}`);
    };
    /** A project of its own for each test: the required approvals and rules it sets hold only there. */
    const own = () => ownProject(k, u, `premium-${++n}`);
    const approve = (iid: number, token: string, project: Project) => h.request("POST", k.api(`/merge_requests/${iid}/approve`, project), k.as(token));
    const show = async (iid: number, project: Project) => json(await h.request("GET", k.api(`/merge_requests/${iid}`, project), k.alice()));

    beforeAll(async () => {
      k = await reviewKit(h, "premium-approvals", { tier: "premium" });
      u = await people(k);
    });

    describe("approvals_before_merge", () => {
      it("a merge request needs that many approvals: not_approved and merging refused (405) until they are given", async () => {
        const project = await own();
        expect((await h.request("POST", k.api("/approvals", project), k.alice({ json: { approvals_before_merge: 2 } }))).status).toBe(201);
        const mr = await fresh(project);
        expect(json(await h.request("GET", k.api(`/merge_requests/${mr.iid}/approvals`, project), k.alice()))).toMatchObject({ approved: false, approvals_required: 2, approvals_left: 2, merge_request_approvers_available: true });
        expect(await show(mr.iid, project)).toMatchObject({ detailed_merge_status: "not_approved" });
        expect((await h.request("PUT", k.api(`/merge_requests/${mr.iid}/merge`, project), k.alice())).status).toBe(405);
        expect(json(await approve(mr.iid, u.carolToken, project))).toMatchObject({ approved: false, approvals_left: 1 });
        expect(json(await approve(mr.iid, u.daveToken, project))).toMatchObject({ approved: true, approvals_left: 0 });
        expect(await show(mr.iid, project)).toMatchObject({ detailed_merge_status: "mergeable" });
        expect((await h.request("PUT", k.api(`/merge_requests/${mr.iid}/merge`, project), k.alice())).status).toBe(200);
        expect((await h.request("POST", k.api("/approvals", project), k.alice({ json: { approvals_before_merge: 0 } }))).status).toBe(201);
      });
    });

    describe("/projects/:id/approval_rules", () => {
      it("create (201), list, show, change and delete (204) a rule; Developers may not write (403); unknown → 404; a blank or taken name → 400", async () => {
        const project = await own();
        const created = await h.request("POST", k.api("/approval_rules", project), k.alice({ json: { name: "Security", approvals_required: 1, user_ids: [u.carol.id] } }));
        expect(created.status).toBe(201);
        const rule = json<Json & { id: number }>(created);
        expect(rule).toMatchObject({ name: "Security", rule_type: "regular", approvals_required: 1, users: [{ id: u.carol.id }], eligible_approvers: [{ id: u.carol.id }], groups: [], contains_hidden_groups: false });
        expect(json<Json[]>(await h.request("GET", k.api("/approval_rules", project), k.alice())).map((r) => r["id"])).toEqual([rule.id]);
        expect(json(await h.request("GET", k.api(`/approval_rules/${rule.id}`, project), k.alice()))).toEqual(rule);
        const changed = await h.request("PUT", k.api(`/approval_rules/${rule.id}`, project), k.alice({ json: { approvals_required: 2 } }));
        expect(json(changed)).toMatchObject({ id: rule.id, approvals_required: 2, users: [{ id: u.carol.id }] });
        expect((await h.request("POST", k.api("/approval_rules", project), k.as(u.carolToken, { json: { name: "x", approvals_required: 1 } }))).status).toBe(403);
        const blank = await h.request("POST", k.api("/approval_rules", project), k.alice({ json: { name: " ", approvals_required: 1 } }));
        expect(blank.status).toBe(400);
        expect(json(blank)).toEqual({ message: { name: ["can't be blank"] } });
        expect(json(await h.request("POST", k.api("/approval_rules", project), k.alice({ json: { name: "Security", approvals_required: 1 } })))).toEqual({ message: { name: ["has already been taken"] } });
        expect((await h.request("POST", k.api("/approval_rules", project), k.alice({ json: { name: "Huge", approvals_required: 2 ** 40 } }))).status).toBe(400);
        expect((await h.request("DELETE", k.api(`/approval_rules/${rule.id}`, project), k.alice())).status).toBe(204);
        expect((await h.request("GET", k.api(`/approval_rules/${rule.id}`, project), k.alice())).status).toBe(404);
      });

      it("a rule naming users: only they may approve; approval_state shows each rule with who approved it", async () => {
        const project = await own();
        const created = json<{ id: number }>(await h.request("POST", k.api("/approval_rules", project), k.alice({ json: { name: "Owners", approvals_required: 1, usernames: ["carol"] } })));
        const mr = await fresh(project);
        expect((await approve(mr.iid, u.daveToken, project)).status).toBe(401);
        expect(await show(mr.iid, project)).toMatchObject({ detailed_merge_status: "not_approved" });
        expect(json(await approve(mr.iid, u.carolToken, project))).toMatchObject({ approved: true, approvals_required: 1, approvals_left: 0, has_approval_rules: true });
        const state = json<{ rules: Json[] }>(await h.request("GET", k.api(`/merge_requests/${mr.iid}/approval_state`, project), k.alice()));
        expect(state.rules).toEqual([expect.objectContaining({ id: created.id, approved: true, approvals_required: 1, approved_by: [expect.objectContaining({ id: u.carol.id })] })]);
        expect((await h.request("DELETE", k.api(`/approval_rules/${created.id}`, project), k.alice())).status).toBe(204);
      });
    });
  });
};
