/** Members of projects and groups: `/projects/:id/members`, `/groups/:id/members` (list, all, show, add, edit, remove). */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;
const levels = (json: unknown): Json => Object.fromEntries((json as Json[]).map((m): [string, unknown] => [String(m["username"]), m["access_level"]]));

export const membersSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  let carol: User;
  let carolToken: string;
  const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const fresh = async () => {
    t = await createTestForgekit();
    carol = await t.createUser({ username: "carol" });
    carolToken = (await t.createToken(carol.id)).plaintext;
    await h.serve(t.fk);
  };

  describe("GET /projects/:id/members and /groups/:id/members", () => {
    beforeAll(fresh);
    it("lists direct members with the Member entity", async () => {
      const r = await h.request("GET", "/api/v4/projects/grp%2Finternal-project/members", { headers: as(t.tokens.bob) });
      expect(r.status).toBe(200);
      expect(r.json).toEqual([
        { id: t.users.bob.id, username: "bob", name: t.users.bob.name, state: "active", locked: false, avatar_url: null, web_url: `${t.baseUrl}/bob`, access_level: 20, created_at: expect.any(String), expires_at: null, membership_state: "active" },
      ]);
      expect(r.headers["x-total"]).toBe("1");
      expect(levels((await h.request("GET", "/api/v4/groups/grp/members", { headers: as(t.tokens.bob) })).json)).toEqual({ alice: 50 });
    });
    it("query and user_ids filter the list", async () => {
      const q = await h.request("GET", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.bob), query: { query: "BO" } });
      expect(levels(q.json)).toEqual({ bob: 30 });
      const ids = await h.request("GET", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.bob), query: { user_ids: `${t.users.alice.id}` } });
      expect(ids.json).toEqual([]);
    });
    it("anonymous → 401; an invisible project or group → 404", async () => {
      expect((await h.request("GET", "/api/v4/groups/grp/members")).status).toBe(401);
      expect((await h.request("GET", "/api/v4/groups/secret/members", { headers: as(t.tokens.bob) })).status).toBe(404);
      expect((await h.request("GET", "/api/v4/projects/secret%2Fhidden/members", { headers: as(t.tokens.bob) })).status).toBe(404);
    });
  });

  describe("GET /projects/:id/members/all and /groups/:id/members/all[/:user_id]", () => {
    beforeAll(fresh);
    it("adds members inherited from ancestor groups, each user once at their highest level", async () => {
      const r = await h.request("GET", "/api/v4/projects/grp%2Fsub%2Fprivate-project/members/all", { headers: as(t.tokens.bob) });
      expect(levels(r.json)).toEqual({ alice: 50, bob: 30 });
      expect(levels((await h.request("GET", "/api/v4/groups/grp%2Fsub/members/all", { headers: as(t.tokens.bob) })).json)).toEqual({ alice: 50, bob: 30 });
      // A personal project's namespace owner is its Owner.
      expect(levels((await h.request("GET", "/api/v4/projects/alice%2Fpersonal/members/all", { headers: as(t.tokens.alice) })).json)).toEqual({ alice: 50 });
    });
    it("show: direct only on /members/:user_id, inherited on /members/all/:user_id; missing → 404 Not found", async () => {
      const direct = await h.request("GET", `/api/v4/groups/grp%2Fsub/members/${t.users.alice.id}`, { headers: as(t.tokens.bob) });
      expect([direct.status, direct.json]).toEqual([404, { message: "404 Not found" }]);
      const inherited = await h.request("GET", `/api/v4/groups/grp%2Fsub/members/all/${t.users.alice.id}`, { headers: as(t.tokens.bob) });
      expect([inherited.status, (inherited.json as Json)["access_level"]]).toEqual([200, 50]);
    });
  });

  describe("POST /projects/:id/members and /groups/:id/members", () => {
    let miaToken: string;
    let newcomers = 0;
    /** A user of the test's own, a member of nothing: no other test's additions meet it. */
    const newcomer = () => t.createUser({ username: `newcomer${++newcomers}` });
    beforeAll(async () => {
      await fresh();
      const mia = await t.createUser({ username: "mia" });
      miaToken = (await t.createToken(mia.id)).plaintext;
      await t.addMember({ project: t.projects.publicProject }, mia, AccessLevel.Maintainer);
    });
    it("a Maintainer adds a project member (201) with expires_at; the project records 'joined'", async () => {
      const user = await newcomer();
      const r = await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: user.id, access_level: 30, expires_at: "2024-06-01" } });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ id: user.id, username: user.username, access_level: 30, expires_at: "2024-06-01" });
      const feed = await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { headers: as(t.tokens.alice), query: { action: "joined" } });
      expect((feed.json as Json[]).map((e) => e["author_id"])).toContain(user.id);
    });
    it("409 when already a member; 404 for an unknown user; 400 for a bad level or a past expiry", async () => {
      // A project member of the test's own, and a user who is a member of nothing for the 400s.
      const member = await newcomer();
      await t.addMember({ project: t.projects.publicProject }, member, AccessLevel.Developer);
      const outsider = await newcomer();
      const again = await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: member.id, access_level: 20 } });
      expect([again.status, again.json]).toEqual([409, { message: "Member already exists" }]);
      const unknown = await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: 99999, access_level: 20 } });
      expect([unknown.status, unknown.json]).toEqual([404, { message: "404 User Not Found" }]);
      const level = await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: outsider.id, access_level: 15 } });
      expect([level.status, level.json]).toEqual([400, { message: { access_level: ["is not included in the list"] } }]);
      const past = await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: outsider.id, access_level: 20, expires_at: "2024-01-01" } });
      expect([past.status, past.json]).toEqual([400, { message: { expires_at: ["cannot be a date in the past"] } }]);
    });
    it("the new member is named by user_id or by username (one of them, not both); an unknown username → 404", async () => {
      const user = await newcomer();
      const byName = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { username: user.username.toUpperCase(), access_level: 20 } });
      expect([byName.status, byName.json]).toEqual([201, expect.objectContaining({ id: user.id, username: user.username, access_level: 20 })]);
      const neither = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { access_level: 20 } });
      expect([neither.status, neither.json]).toEqual([400, { error: "user_id, username are missing, at least one parameter must be provided" }]);
      const both = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { user_id: user.id, username: user.username, access_level: 20 } });
      expect([both.status, both.json]).toEqual([400, { error: "user_id, username are mutually exclusive" }]);
      const unknown = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { username: "nobody-here", access_level: 20 } });
      expect([unknown.status, unknown.json]).toEqual([404, { message: "404 User Not Found" }]);
      const again = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { username: user.username, access_level: 20 } });
      expect([again.status, again.json]).toEqual([409, { message: "Member already exists" }]);
    });
    it("a Maintainer cannot grant Owner (403); a Developer cannot add (403); group members need a group Owner", async () => {
      const user = await newcomer();
      expect((await h.request("POST", "/api/v4/projects/grp%2Fpublic-project/members", { headers: as(miaToken), json: { user_id: t.users.bob.id, access_level: 50 } })).status).toBe(403);
      expect((await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.bob), json: { user_id: user.id, access_level: 10 } })).status).toBe(403);
      const owner = await h.request("POST", "/api/v4/groups/grp%2Fsub/members", { headers: as(t.tokens.alice), json: { user_id: user.id, access_level: 50 } });
      expect([owner.status, (owner.json as Json)["access_level"]]).toEqual([201, 50]);
    });
  });

  describe("PUT /projects/:id/members/:user_id and /groups/:id/members/:user_id", () => {
    beforeAll(fresh);
    it("an Owner changes the level and expiry (200)", async () => {
      const r = await h.request("PUT", `/api/v4/groups/grp%2Fsub/members/${t.users.bob.id}`, { headers: as(t.tokens.alice), json: { access_level: 40, expires_at: "2025-01-01" } });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: t.users.bob.id, access_level: 40, expires_at: "2025-01-01" });
    });
    it("the last Owner of a group cannot be demoted (403); a non-member → 404; a non-Owner → 403", async () => {
      expect((await h.request("PUT", `/api/v4/groups/secret/members/${t.users.alice.id}`, { headers: as(t.tokens.alice), json: { access_level: 40 } })).status).toBe(403);
      const missing = await h.request("PUT", `/api/v4/groups/grp/members/${carol.id}`, { headers: as(t.tokens.alice), json: { access_level: 40 } });
      expect([missing.status, missing.json]).toEqual([404, { message: "404 Not found" }]);
      // carol sees the public group but is no Owner of it; the private subgroup she cannot see at all.
      expect((await h.request("PUT", `/api/v4/groups/grp/members/${t.users.alice.id}`, { headers: as(carolToken), json: { access_level: 10 } })).status).toBe(403);
      expect((await h.request("PUT", `/api/v4/groups/grp%2Fsub/members/${t.users.bob.id}`, { headers: as(carolToken), json: { access_level: 10 } })).status).toBe(404);
    });
  });

  describe("DELETE /projects/:id/members/:user_id and /groups/:id/members/:user_id", () => {
    beforeAll(fresh);
    it("a Maintainer removes a project member (204); the project records 'left'", async () => {
      const r = await h.request("DELETE", `/api/v4/projects/grp%2Finternal-project/members/${t.users.bob.id}`, { headers: as(t.tokens.alice) });
      expect(r.status).toBe(204);
      expect(await t.store.members.find("project", t.projects.internalProject.id, t.users.bob.id)).toBeNull();
      const feed = await h.request("GET", `/api/v4/projects/${t.projects.internalProject.id}/events`, { headers: as(t.tokens.alice), query: { action: "left" } });
      expect((feed.json as Json[]).map((e) => e["author_id"])).toEqual([t.users.bob.id]);
    });
    it("members may leave; others need the manager role; the last group Owner stays (403)", async () => {
      await t.addMember({ group: t.groups.grp }, carol, AccessLevel.Reporter);
      expect((await h.request("DELETE", `/api/v4/groups/grp/members/${t.users.alice.id}`, { headers: as(carolToken) })).status).toBe(403);
      expect((await h.request("DELETE", `/api/v4/groups/grp/members/${carol.id}`, { headers: as(carolToken) })).status).toBe(204);
      expect((await h.request("DELETE", `/api/v4/groups/secret/members/${t.users.alice.id}`, { headers: as(t.tokens.alice) })).status).toBe(403);
      const missing = await h.request("DELETE", `/api/v4/groups/grp/members/${carol.id}`, { headers: as(t.tokens.alice) });
      expect(missing.status).toBe(404);
    });
  });
};
