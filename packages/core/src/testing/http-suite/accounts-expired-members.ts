/**
 * Expired memberships never count (issue #23 item 11): a project or group membership whose
 * `expires_at` has passed grants nothing anywhere a membership is read — `permissions` of
 * `GET /projects/:id`, visibility, member lists (`/members`, `/members/all`, single members),
 * project and group lists (`membership`, `min_access_level`), events, issues and merge requests.
 * Each place is checked against a control user whose membership has not expired. (Git over HTTP:
 * the git-http suite.)
 */
import { beforeEach, describe, expect, it } from "vitest";
import { AccessLevel, type Group, type Project, type User } from "../../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

/** An instant before the fixed test clock (2024-05-01T12:00Z): memberships expiring then have expired. */
const EXPIRED = new Date("2024-05-01T00:00:00.000Z");
/** An instant after the test clock. */
const LATER = new Date("2024-06-01T00:00:00.000Z");

type Json = Record<string, unknown>;

export const expiredMembersSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  /** Members whose memberships expired / have not expired, with their tokens. */
  let gone: { user: User; token: string };
  let kept: { user: User; token: string };
  const as = (who: { token: string }) => ({ "private-token": who.token });
  const usernames = (json: unknown) => (json as Json[]).map((m) => m["username"]);
  const projectIds = (json: unknown) => (json as Json[]).map((p) => p["id"]);

  const join = async (source: { project: Project } | { group: Group }, level: AccessLevel) => {
    const target = "project" in source ? { sourceType: "project" as const, sourceId: source.project.id } : { sourceType: "namespace" as const, sourceId: source.group.id };
    await must(t.fk.members.add({ ...target, userId: gone.user.id, accessLevel: level, expiresAt: EXPIRED }));
    await must(t.fk.members.add({ ...target, userId: kept.user.id, accessLevel: level, expiresAt: LATER }));
  };

  describe("expired memberships", () => {
    beforeEach(async () => {
      t = await createTestForgekit();
      const user = async (username: string) => {
        const created = await t.createUser({ username });
        return { user: created, token: (await t.createToken(created.id)).plaintext };
      };
      gone = await user("gone");
      kept = await user("kept");
      await h.serve(t.fk);
    });

    describe("GET /projects/:id", () => {
      it("permissions.project_access ignores an expired direct membership (null), as group_access does", async () => {
        await join({ project: t.projects.publicProject }, AccessLevel.Maintainer);
        await join({ group: t.groups.grp }, AccessLevel.Developer);
        const path = `/api/v4/projects/${t.projects.publicProject.id}`;
        const [mine, theirs] = [await h.request("GET", path, { headers: as(gone) }), await h.request("GET", path, { headers: as(kept) })];
        expect([mine.status, (mine.json as Json)["permissions"]]).toEqual([200, { project_access: null, group_access: null }]);
        expect((theirs.json as Json)["permissions"]).toEqual({ project_access: { access_level: 40, notification_level: expect.anything() }, group_access: { access_level: 30, notification_level: expect.anything() } });
      });

      it("a private project seen only through an expired membership is 404", async () => {
        await join({ project: t.projects.hidden }, AccessLevel.Developer);
        const path = `/api/v4/projects/${t.projects.hidden.id}`;
        expect((await h.request("GET", path, { headers: as(gone) })).status).toBe(404);
        expect((await h.request("GET", path, { headers: as(kept) })).status).toBe(200);
      });
    });

    describe("member lists", () => {
      it("GET /projects/:id/members, /members/all and the single-member routes leave expired members out (404)", async () => {
        await join({ project: t.projects.publicProject }, AccessLevel.Developer);
        const base = `/api/v4/projects/${t.projects.publicProject.id}/members`;
        for (const path of [base, `${base}/all`]) {
          const r = await h.request("GET", path, { headers: as(kept) });
          expect(usernames(r.json)).toContain("kept");
          expect(usernames(r.json)).not.toContain("gone");
        }
        for (const path of [`${base}/${gone.user.id}`, `${base}/all/${gone.user.id}`]) expect((await h.request("GET", path, { headers: as(kept) })).status).toBe(404);
        expect((await h.request("GET", `${base}/${kept.user.id}`, { headers: as(kept) })).status).toBe(200);
      });

      it("GET /groups/:id/members/all and a project's /members/all leave out expired group members", async () => {
        await join({ group: t.groups.grp }, AccessLevel.Developer);
        for (const path of [`/api/v4/groups/${t.groups.grp.id}/members/all`, `/api/v4/projects/${t.projects.publicProject.id}/members/all`]) {
          const r = await h.request("GET", path, { headers: as(kept) });
          expect(usernames(r.json)).toContain("kept");
          expect(usernames(r.json)).not.toContain("gone");
        }
      });
    });

    describe("POST /projects/:id/members and /groups/:id/members", () => {
      it("a user whose membership expired is added again (201, the new level and expiry), not 409", async () => {
        await join({ project: t.projects.publicProject }, AccessLevel.Developer);
        await join({ group: t.groups.grp }, AccessLevel.Developer);
        for (const base of [`/api/v4/projects/${t.projects.publicProject.id}/members`, `/api/v4/groups/${t.groups.grp.id}/members`]) {
          const again = await h.request("POST", base, { headers: { "private-token": t.tokens.alice }, json: { user_id: gone.user.id, access_level: 20 } });
          expect([again.status, (again.json as Json)["access_level"], (again.json as Json)["expires_at"]]).toEqual([201, 20, null]);
          const twice = await h.request("POST", base, { headers: { "private-token": t.tokens.alice }, json: { user_id: kept.user.id, access_level: 20 } });
          expect([twice.status, twice.json]).toEqual([409, { message: "Member already exists" }]);
          expect(usernames((await h.request("GET", base, { headers: as(kept) })).json)).toContain("gone");
        }
      });
    });

    describe("DELETE /users/:id", () => {
      it("the group's only unexpired Owner is its sole Owner (409), whatever expired Owner rows remain", async () => {
        const group = await t.createGroup({ name: "Owned", path: "owned", visibility: "private" });
        await must(t.fk.members.add({ sourceType: "namespace", sourceId: group.id, userId: kept.user.id, accessLevel: AccessLevel.Owner }));
        await must(t.fk.members.add({ sourceType: "namespace", sourceId: group.id, userId: gone.user.id, accessLevel: AccessLevel.Owner, expiresAt: EXPIRED }));
        const refused = await h.request("DELETE", `/api/v4/users/${kept.user.id}`, { headers: { "private-token": t.tokens.root } });
        expect([refused.status, refused.json]).toEqual([409, { message: "User cannot be removed while is the sole-owner of a group" }]);
        expect((await h.request("DELETE", `/api/v4/users/${gone.user.id}`, { headers: { "private-token": t.tokens.root } })).status).toBe(204);
      });
    });

    describe("project and group lists", () => {
      it("GET /projects?membership=true and ?min_access_level= leave out projects of expired memberships", async () => {
        await join({ project: t.projects.publicProject }, AccessLevel.Maintainer);
        for (const query of [{ membership: "true" }, { min_access_level: "30" }]) {
          expect(projectIds((await h.request("GET", "/api/v4/projects", { query, headers: as(gone) })).json)).toEqual([]);
          expect(projectIds((await h.request("GET", "/api/v4/projects", { query, headers: as(kept) })).json)).toEqual([t.projects.publicProject.id]);
        }
      });

      it("GET /groups?min_access_level= leaves out groups of expired memberships", async () => {
        await join({ group: t.groups.secret }, AccessLevel.Developer);
        const groups = async (who: { token: string }) => ((await h.request("GET", "/api/v4/groups", { query: { min_access_level: "10" }, headers: as(who) })).json as Json[]).map((g) => g["id"]);
        expect(await groups(gone)).toEqual([]);
        expect(await groups(kept)).toEqual([t.groups.secret.id]);
      });
    });

    describe("events, issues and merge requests of a private project", () => {
      it("GET /projects/:id/events, /issues and /merge_requests are 404 through an expired membership", async () => {
        await join({ project: t.projects.hidden }, AccessLevel.Developer);
        for (const what of ["events", "issues", "merge_requests"]) {
          const path = `/api/v4/projects/${t.projects.hidden.id}/${what}`;
          expect([what, (await h.request("GET", path, { headers: as(gone) })).status]).toEqual([what, 404]);
          expect([what, (await h.request("GET", path, { headers: as(kept) })).status]).toEqual([what, 200]);
        }
      });

      it("POST /projects/:id/issues is refused through an expired membership", async () => {
        await join({ project: t.projects.hidden }, AccessLevel.Developer);
        const path = `/api/v4/projects/${t.projects.hidden.id}/issues`;
        expect((await h.request("POST", path, { headers: as(gone), json: { title: "still here?" } })).status).toBe(404);
        expect((await h.request("POST", path, { headers: as(kept), json: { title: "still here" } })).status).toBe(201);
      });
    });
  });
};
