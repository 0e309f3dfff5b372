/** Project and group access tokens: `/projects/:id/access_tokens`, `/groups/:id/access_tokens`. */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const resourceAccessTokensSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token: string) => ({ "private-token": token });
  const works = async (token: string, path = "/api/v4/user") => (await h.request("GET", path, { headers: as(token) })).status === 200;
  const PROJECT = "/api/v4/projects/grp%2Fpublic-project/access_tokens";
  const create = (body: Json, token = t.tokens.alice, path = PROJECT) => h.request("POST", path, { headers: as(token), json: body });

  describe("POST /projects/:id/access_tokens", () => {
    let maintainer: User;
    let maintainerToken: string;
    beforeAll(async () => {
      t = await createTestForgekit();
      maintainer = await t.createUser({ username: "mia" });
      await t.addMember({ project: t.projects.publicProject }, maintainer, AccessLevel.Maintainer);
      maintainerToken = (await t.createToken(maintainer.id)).plaintext;
      await h.serve(t.fk);
    });
    it("creates a bot member at Maintainer and its token, shown once (201); the token acts as the bot", async () => {
      const r = await create({ name: "deploy", scopes: ["api", "read_repository"], expires_at: "2024-12-31" });
      expect(r.status).toBe(201);
      const body = r.json as Json;
      expect(body).toMatchObject({
        name: "deploy",
        scopes: ["api", "read_repository"],
        revoked: false,
        active: true,
        expires_at: "2024-12-31",
        access_level: 40,
        resource_type: "project",
        resource_id: t.projects.publicProject.id,
        token: expect.stringMatching(/^fkpat-/),
      });
      const me = (await h.request("GET", "/api/v4/user", { headers: as(body["token"] as string) })).json as Json;
      expect(me).toMatchObject({ id: body["user_id"], bot: true });
      expect(String(me["username"])).toMatch(new RegExp(`^project_${t.projects.publicProject.id}_bot_`));
      const member = await t.store.members.find("project", t.projects.publicProject.id, body["user_id"] as number);
      expect(member?.accessLevel).toBe(40);
    });
    it("the bot joining is an event of the project, in the same write", async () => {
      const events = await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { headers: as(t.tokens.root), query: { action: "joined" } });
      expect((events.json as Json[]).map((e) => e["action_name"])).toContain("joined");
    });
    it("access_level above the creator's own → 400; a Maintainer may create up to Maintainer", async () => {
      const owner = await create({ name: "too high", scopes: ["api"], access_level: 50 }, maintainerToken);
      expect(owner.status).toBe(400);
      expect(owner.json).toEqual({ message: "400 Bad request - The access level of the token cannot be greater than the access level of the user who creates it" });
      expect((await create({ name: "ok", scopes: ["read_api"], access_level: 30 }, maintainerToken)).status).toBe(201);
    });
    it("scopes: required, and never sudo, admin_mode or read_user; access_level must be a role", async () => {
      expect((await create({ name: "x" })).json).toEqual({ message: '400 (Bad request) "scopes" not given' });
      expect((await create({ name: "x", scopes: ["sudo"] })).json).toEqual({ error: "scopes does not have a valid value" });
      expect((await create({ name: "x", scopes: ["api"], access_level: 35 })).json).toEqual({ error: "access_level does not have a valid value" });
      expect((await create({ name: "", scopes: ["api"] })).json).toEqual({ message: { name: ["can't be blank"] } });
    });
    it("a Reporter → 403; a project the caller cannot see → 404 Project Not Found", async () => {
      const reporter = await create({ name: "x", scopes: ["api"] }, t.tokens.bob, "/api/v4/projects/grp%2Finternal-project/access_tokens");
      expect(reporter.status).toBe(403);
      const hidden = await create({ name: "x", scopes: ["api"] }, t.tokens.bob, "/api/v4/projects/secret%2Fhidden/access_tokens");
      expect(hidden.status).toBe(404);
      expect(hidden.json).toEqual({ message: "404 Project Not Found" });
    });
    it("a project access token cannot create tokens → 403; a read_api token → 403 insufficient_scope", async () => {
      const bot = (await create({ name: "bot", scopes: ["api"] })).json as Json;
      expect((await create({ name: "x", scopes: ["api"] }, bot["token"] as string)).status).toBe(403);
      const reader = await t.createToken(t.users.alice.id, { scopes: ["read_api"] });
      const r = await create({ name: "x", scopes: ["api"] }, reader.plaintext);
      expect(r.status).toBe(403);
      expect((r.json as Json)["error"]).toBe("insufficient_scope");
    });
  });

  describe("GET /projects/:id/access_tokens[/:token_id]", () => {
    let created: Json;
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      created = (await create({ name: "listed", scopes: ["read_api"], access_level: 20 })).json as Json;
    });
    it("lists the project's tokens with their bot's access level and no secret", async () => {
      const r = await h.request("GET", PROJECT, { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      const [only] = r.json as Json[];
      expect(r.json).toHaveLength(1);
      expect(only).toMatchObject({ id: created["id"], name: "listed", access_level: 20, scopes: ["read_api"] });
      expect(only!["token"]).toBeUndefined();
      expect(r.headers["x-total"]).toBe("1");
    });
    it("shows one token; another project's or an unknown id → 404 project Access Token Not Found", async () => {
      const one = await h.request("GET", `${PROJECT}/${String(created["id"])}`, { headers: as(t.tokens.alice) });
      expect(one.json).toMatchObject({ name: "listed", access_level: 20 });
      const elsewhere = await h.request("GET", `/api/v4/projects/grp%2Finternal-project/access_tokens/${String(created["id"])}`, { headers: as(t.tokens.alice) });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.json).toEqual({ message: "404 project Access Token Not Found" });
      expect((await h.request("GET", `${PROJECT}/9999`, { headers: as(t.tokens.alice) })).status).toBe(404);
    });
    it("filters by state and search", async () => {
      expect((await h.request("GET", PROJECT, { headers: as(t.tokens.alice), query: { state: "inactive" } })).json).toEqual([]);
      expect((await h.request("GET", PROJECT, { headers: as(t.tokens.alice), query: { search: "LIST" } })).json).toHaveLength(1);
    });
    it("a member below Maintainer → 403; anonymous → 401", async () => {
      const bob = await t.createUser({ username: "dev" });
      await t.addMember({ project: t.projects.publicProject }, bob, AccessLevel.Developer);
      const devToken = (await t.createToken(bob.id)).plaintext;
      expect((await h.request("GET", PROJECT, { headers: as(devToken) })).status).toBe(403);
      expect((await h.request("GET", PROJECT)).status).toBe(401);
    });
  });

  describe("DELETE /projects/:id/access_tokens/:token_id", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("revokes the token (204): it stops working", async () => {
      const created = (await create({ name: "gone", scopes: ["api"] })).json as Json;
      const r = await h.request("DELETE", `${PROJECT}/${String(created["id"])}`, { headers: as(t.tokens.alice) });
      expect(r.status).toBe(204);
      expect(await works(created["token"] as string)).toBe(false);
      expect(((await h.request("GET", `${PROJECT}/${String(created["id"])}`, { headers: as(t.tokens.alice) })).json as Json)["revoked"]).toBe(true);
    });
    it("an unknown token → 404; a member below Maintainer → 403 and the token stays", async () => {
      expect((await h.request("DELETE", `${PROJECT}/9999`, { headers: as(t.tokens.alice) })).status).toBe(404);
      const created = (await create({ name: "stays", scopes: ["api"] })).json as Json;
      const r = await h.request("DELETE", `/api/v4/projects/grp%2Finternal-project/access_tokens/${String(created["id"])}`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(403);
      expect(await works(created["token"] as string)).toBe(true);
    });
  });

  describe("POST /projects/:id/access_tokens/:token_id/rotate and /self/rotate", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("rotation revokes the token and returns its successor once (200) for the same bot and level", async () => {
      const created = (await create({ name: "rotating", scopes: ["api"], access_level: 30 })).json as Json;
      const r = await h.request("POST", `${PROJECT}/${String(created["id"])}/rotate`, { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: "rotating", user_id: created["user_id"], access_level: 30, expires_at: "2024-05-08", token: expect.stringMatching(/^fkpat-/) });
      expect(await works(created["token"] as string)).toBe(false);
      expect(await works((r.json as Json)["token"] as string)).toBe(true);
      const again = await h.request("POST", `${PROJECT}/${String(created["id"])}/rotate`, { headers: as(t.tokens.alice) });
      expect(again.json).toEqual({ message: "400 Bad request - Token already revoked" });
    });
    it("a token with the self_rotate scope rotates itself; another resource's path → 404", async () => {
      const created = (await create({ name: "self", scopes: ["self_rotate", "read_api"] })).json as Json;
      const token = created["token"] as string;
      const wrong = await h.request("POST", "/api/v4/projects/grp%2Finternal-project/access_tokens/self/rotate", { headers: as(token) });
      expect(wrong.status).toBe(404);
      const r = await h.request("POST", `${PROJECT}/self/rotate`, { headers: as(token), json: { expires_at: "2024-06-30" } });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: "self", expires_at: "2024-06-30" });
      expect(await works(token)).toBe(false);
    });
  });

  describe("/groups/:id/access_tokens", () => {
    const GROUP = "/api/v4/groups/grp/access_tokens";
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("a group Owner creates, lists, rotates and revokes group tokens; the bot reaches the group's projects", async () => {
      const created = await create({ name: "group bot", scopes: ["read_api"], access_level: 30 }, t.tokens.alice, GROUP);
      expect(created.status).toBe(201);
      const body = created.json as Json;
      expect(body).toMatchObject({ resource_type: "group", resource_id: t.groups.grp.id, access_level: 30 });
      expect(String(((await h.request("GET", "/api/v4/user", { headers: as(body["token"] as string) })).json as Json)["username"])).toMatch(/^group_\d+_bot_/);
      expect(await works(body["token"] as string, "/api/v4/projects/grp%2Fsub%2Fprivate-project")).toBe(true);
      expect(((await h.request("GET", GROUP, { headers: as(t.tokens.alice) })).json as Json[]).map((x) => x["name"])).toEqual(["group bot"]);
      const rotated = await h.request("POST", `${GROUP}/${String(body["id"])}/rotate`, { headers: as(t.tokens.alice) });
      expect(rotated.status).toBe(200);
      const next = rotated.json as Json;
      expect((await h.request("DELETE", `${GROUP}/${String(next["id"])}`, { headers: as(t.tokens.alice) })).status).toBe(204);
      expect(await works(next["token"] as string)).toBe(false);
    });
    it("below Owner → 403 (bob is a Developer of grp/sub); an invisible group → 404 Group Not Found", async () => {
      expect((await h.request("GET", "/api/v4/groups/grp%2Fsub/access_tokens", { headers: as(t.tokens.bob) })).status).toBe(403);
      const r = await h.request("GET", "/api/v4/groups/secret/access_tokens", { headers: as(t.tokens.bob) });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 Group Not Found" });
    });
  });
};
