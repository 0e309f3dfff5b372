/**
 * Protected branches and tags API (issue #19 §2; reference `lib/api/protected_branches.rb`,
 * `protected_tags.rb`): the endpoints python-gitlab's `project-protected-branch` /
 * `project-protected-tag` call, their permissions, the premium parameters, and the branch entity's
 * `protected`, `developers_can_push`, `developers_can_merge`, `can_push` computed from the rules.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const role = (id: unknown, level: number, description: string) => ({ id, access_level: level, access_level_description: description, user_id: null, group_id: null });

export const protectedRefsApiSuite: HttpSuite = (h: HttpHarness) => {
  describe("protected branches and tags API", () => {
    let t: TestForgekit;
    let project: Project;
    let dev: User;
    let devToken: string;
    let maintainer: User;
    let maintainerToken: string;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const api = (path: string, p: Project = project) => `/api/v4/projects/${p.id}${path}`;
    let n = 0;
    /** A private project of its own in `grp` with the same Developer and Maintainer: for a test that reads a whole list. */
    const guarded = async () => {
      const own = await t.createProject({ namespaceId: t.groups.grp.id, path: `guarded-${++n}`, name: `guarded-${n}`, visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project: own }, dev, AccessLevel.Developer);
      await t.addMember({ project: own }, maintainer, AccessLevel.Maintainer);
      return own;
    };

    beforeAll(async () => {
      t = await createTestForgekit({ tier: "premium" });
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: "guarded", name: "guarded", visibility: "private", creatorId: t.users.alice.id });
      dev = await t.createUser({ username: "pr-dev", name: "Dee Veloper" });
      await t.addMember({ project }, dev, AccessLevel.Developer);
      devToken = (await t.createToken(dev.id)).plaintext;
      maintainer = await t.createUser({ username: "pr-maintainer" });
      await t.addMember({ project }, maintainer, AccessLevel.Maintainer);
      maintainerToken = (await t.createToken(maintainer.id)).plaintext;
    });

    describe("POST /projects/:id/protected_branches", () => {
      it("protects a wildcard with the reference's defaults (Maintainers push, merge, unprotect; no force push) → 201", async () => {
        const r = await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "release/*" } });
        expect(r.status).toBe(201);
        expect(r.json).toEqual({
          id: expect.any(Number),
          name: "release/*",
          push_access_levels: [role(expect.any(Number), 40, "Maintainers")],
          merge_access_levels: [role(expect.any(Number), 40, "Maintainers")],
          unprotect_access_levels: [role(expect.any(Number), 40, "Maintainers")],
          allow_force_push: false,
          code_owner_approval_required: false,
          inherited: false,
        });
      });

      it("levels and allow_force_push as sent; an allowed_to_push user is described by name", async () => {
        const r = await h.request("POST", api("/protected_branches"), {
          ...as(maintainerToken),
          json: { name: "stable", push_access_level: 30, merge_access_level: 0, allow_force_push: true, allowed_to_push: [{ user_id: dev.id }] },
        });
        expect(r.status).toBe(201);
        const body = r.json as Record<string, unknown>;
        expect(body["push_access_levels"]).toEqual([role(expect.any(Number), 30, "Developers + Maintainers"), { id: expect.any(Number), access_level: 40, access_level_description: "Dee Veloper", user_id: dev.id, group_id: null }]);
        expect(body["merge_access_levels"]).toEqual([role(expect.any(Number), 0, "No one")]);
        expect(body["allow_force_push"]).toBe(true);
      });

      it("the same name again → 409 \"Protected branch 'x' already exists\"", async () => {
        await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "dup" } });
        const r = await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "dup" } });
        expect(r.status).toBe(409);
        expect(r.json).toEqual({ message: "Protected branch 'dup' already exists" });
      });

      it("bad input → 400: missing name, a level outside 0/30/40/60, a malformed allowed_to_push", async () => {
        expect((await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: {} })).json).toEqual({ message: '400 (Bad request) "name" not given' });
        const level = await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "x", push_access_level: 50 } });
        expect([level.status, level.json]).toEqual([400, { error: "push_access_level does not have a valid value" }]);
        const allowed = await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "x", allowed_to_push: "yes" } });
        expect(allowed.status).toBe(400);
      });

      it("a Developer → 403; a non-member of the private project → 404; anonymous → 401", async () => {
        expect((await h.request("POST", api("/protected_branches"), { ...as(devToken), json: { name: "d" } })).status).toBe(403);
        expect((await h.request("GET", api("/protected_branches"), as(devToken))).status).toBe(403);
        expect((await h.request("POST", api("/protected_branches"), { ...as(t.tokens.bob), json: { name: "d" } })).status).toBe(404);
        expect((await h.request("GET", api("/protected_branches"))).status).toBe(401);
      });
    });

    describe("GET, PATCH, DELETE /projects/:id/protected_branches/:name", () => {
      it("a URL-encoded wildcard name is found, updated and unprotected; then 404", async () => {
        await h.request("POST", api("/protected_branches"), { ...as(maintainerToken), json: { name: "hotfix/*" } });
        const shown = await h.request("GET", api("/protected_branches/hotfix%2F*"), as(maintainerToken));
        expect([shown.status, (shown.json as { name: string }).name]).toEqual([200, "hotfix/*"]);
        const patched = await h.request("PATCH", api("/protected_branches/hotfix%2F*"), { ...as(maintainerToken), json: { allow_force_push: true } });
        expect([patched.status, (patched.json as { allow_force_push: boolean }).allow_force_push]).toEqual([200, true]);
        expect((await h.request("DELETE", api("/protected_branches/hotfix%2F*"), as(maintainerToken))).status).toBe(204);
        const gone = await h.request("GET", api("/protected_branches/hotfix%2F*"), as(maintainerToken));
        expect([gone.status, gone.json]).toEqual([404, { message: "404 Protected branch Not Found" }]);
      });

      it("the list is paginated and filtered by search", async () => {
        // A project of its own: its protected branches are these two, one of them matching.
        const own = await guarded();
        for (const name of ["release/*", "stable"]) expect((await h.request("POST", api("/protected_branches", own), { ...as(maintainerToken), json: { name } })).status).toBe(201);
        const listed = await h.request("GET", api("/protected_branches", own), { ...as(maintainerToken), query: { search: "release", per_page: "1" } });
        expect(listed.status).toBe(200);
        expect((listed.json as { name: string }[]).map((b) => b.name)).toEqual(["release/*"]);
        expect(listed.headers["x-total"]).toBe("1");
      });
    });

    describe("protected tags", () => {
      it("POST with create_access_level, GET one and the list, DELETE; 409 on a repeat", async () => {
        // A project of its own: the list is its one protected tag.
        const own = await guarded();
        const created = await h.request("POST", api("/protected_tags", own), { ...as(maintainerToken), json: { name: "v*", create_access_level: 30 } });
        expect([created.status, created.json]).toEqual([201, { name: "v*", create_access_levels: [role(expect.any(Number), 30, "Developers + Maintainers")] }]);
        expect((await h.request("POST", api("/protected_tags", own), { ...as(maintainerToken), json: { name: "v*" } })).json).toEqual({ message: "Protected tag 'v*' already exists" });
        expect(((await h.request("GET", api("/protected_tags", own), as(maintainerToken))).json as { name: string }[]).map((x) => x.name)).toEqual(["v*"]);
        expect((await h.request("GET", api("/protected_tags/v*", own), as(maintainerToken))).status).toBe(200);
        expect((await h.request("DELETE", api("/protected_tags/v*", own), as(maintainerToken))).status).toBe(204);
        expect((await h.request("GET", api("/protected_tags/v*", own), as(maintainerToken))).status).toBe(404);
      });
    });
  });

  describe("protected branches on the free tier", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    it("allowed_to_push and code_owner_approval_required are premium → 403 naming the tier; the rest works", async () => {
      const api = `/api/v4/projects/${t.projects.publicProject.id}/protected_branches`;
      const headers = { "private-token": t.tokens.alice };
      const users = await h.request("POST", api, { headers, json: { name: "a", allowed_to_push: [{ user_id: t.users.bob.id }] } });
      expect([users.status, users.json]).toEqual([403, { message: "403 Forbidden - Protected branch user and group permissions require the premium tier" }]);
      const owners = await h.request("POST", api, { headers, json: { name: "a", code_owner_approval_required: true } });
      expect([owners.status, owners.json]).toEqual([403, { message: "403 Forbidden - Code owner approvals require the premium tier" }]);
      expect((await h.request("POST", api, { headers, json: { name: "a", push_access_level: 30 } })).status).toBe(201);
    });
  });
};
