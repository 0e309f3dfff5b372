/** `GET /users`, `POST /users`, `PUT /users/:id`, `DELETE /users/:id` and the state transitions. */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const usersAdminSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token: string) => ({ "private-token": token });
  const usernames = (json: unknown) => (json as Json[]).map((u) => u["username"]);

  describe("GET /users", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await t.createUser({ username: "blocky", state: "blocked" });
      void (await t.fk.tokens.createProjectToken(t.projects.publicProject.id, { name: "bot", scopes: ["api"] }))._unsafeUnwrap();
      await h.serve(t.fk);
    });
    it("lists users newest first with the basic entity for non-administrators", async () => {
      const r = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      const body = r.json as Json[];
      expect(usernames(body).slice(1)).toEqual(["blocky", "bob", "alice", "root"]);
      expect(Object.keys(body[1]!).sort()).toEqual(["avatar_url", "id", "locked", "name", "state", "username", "web_url"]);
      expect(r.headers["x-total"]).toBe("5");
    });
    it("administrators get the admin fields (email, is_admin) and may order", async () => {
      const r = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.root), query: { order_by: "username", sort: "asc", humans: "true" } });
      expect(usernames(r.json)).toEqual(["alice", "blocky", "bob", "root"]);
      expect((r.json as Json[])[0]).toMatchObject({ username: "alice", email: "alice@example.com", is_admin: false });
    });
    it("order_by and sort are ignored for non-administrators", async () => {
      const r = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { order_by: "username", sort: "asc", humans: "true" } });
      expect(usernames(r.json)).toEqual(["blocky", "bob", "alice", "root"]);
    });
    it("username matches exactly, case-insensitively; search matches a substring", async () => {
      expect(usernames((await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { username: "ALICE" } })).json)).toEqual(["alice"]);
      expect(usernames((await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { search: "build" } })).json)).toEqual(["bob"]);
    });
    it("active=true and blocked=true filter by state; both together match nobody", async () => {
      const q = (query: Record<string, string>) => h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { humans: "true", ...query } });
      expect(usernames((await q({ blocked: "true" })).json)).toEqual(["blocky"]);
      expect(usernames((await q({ active: "true" })).json)).toEqual(["bob", "alice", "root"]);
      expect((await q({ active: "true", blocked: "true" })).json).toEqual([]);
    });
    it("humans / without_project_bots leave bot users out", async () => {
      const all = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice) });
      expect((usernames(all.json)[0] as string).startsWith("project_")).toBe(true);
      expect(usernames((await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { without_project_bots: "true" } })).json)).not.toContain(usernames(all.json)[0]);
    });
    it("pages with absolute Link headers", async () => {
      const r = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.alice), query: { per_page: "2", humans: "true" } });
      expect(usernames(r.json)).toEqual(["blocky", "bob"]);
      expect(r.headers["x-next-page"]).toBe("2");
      expect(r.headers["link"]).toContain(`${t.baseUrl}/api/v4/users?`);
    });
    it("an invalid filter value → 400 in the reference's wording", async () => {
      const r = await h.request("GET", "/api/v4/users", { headers: as(t.tokens.root), query: { order_by: "email" } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "order_by does not have a valid value" });
    });
  });

  describe("POST /users", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const create = (body: Json, token = t.tokens.root) => h.request("POST", "/api/v4/users", { headers: as(token), json: body });

    it("an administrator creates a user (201, admin entity) who can sign in with the password", async () => {
      const r = await create({ username: "carol", name: "Carol", email: "carol@example.com", password: "carol-secret", skip_confirmation: true });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ username: "carol", name: "Carol", state: "active", email: "carol@example.com", is_admin: false, namespace_id: expect.any(Number) });
      expect((await t.fk.users.verifyPassword("carol", "carol-secret")).isOk()).toBe(true);
      expect((await t.fk.users.verifyPassword("carol", "carol-secret"))._unsafeUnwrap()).toMatchObject({ username: "carol" });
      expect((await t.fk.users.verifyPassword("carol@example.com", "carol-secret"))._unsafeUnwrap()).toMatchObject({ username: "carol" });
    });
    it("without skip_confirmation the address is unconfirmed", async () => {
      const r = await create({ username: "dora", name: "Dora", email: "dora@example.com", password: "dora-secret" });
      expect((r.json as Json)["confirmed_at"]).toBeNull();
    });
    it("force_random_password / reset_password create a user without a usable password", async () => {
      const r = await create({ username: "erin", name: "Erin", email: "erin@example.com", force_random_password: true });
      expect(r.status).toBe(201);
      expect((await t.fk.users.verifyPassword("erin", ""))._unsafeUnwrap()).toBeNull();
    });
    it("none of password, reset_password, force_random_password → 400", async () => {
      const r = await create({ username: "fay", name: "Fay", email: "fay@example.com" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "password, reset_password, force_random_password are missing, at least one parameter must be provided" });
    });
    it("a missing required attribute → 400 not given", async () => {
      const r = await create({ username: "gil", name: "Gil", password: "gil-secret-1" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: '400 (Bad request) "email" not given' });
    });
    it("a taken username or e-mail → 409 with the reference's sentence", async () => {
      const byName = await create({ username: "ALICE", name: "A", email: "other@example.com", password: "password1" });
      expect(byName.status).toBe(409);
      expect(byName.json).toEqual({ message: "Username has already been taken" });
      const byEmail = await create({ username: "newbie", name: "N", email: "BOB@example.com", password: "password1" });
      expect(byEmail.status).toBe(409);
      expect(byEmail.json).toEqual({ message: "Email has already been taken" });
    });
    it("invalid values → 400 with the nested message map", async () => {
      const r = await create({ username: "-bad", name: "Bad", email: "not-an-email", password: "short" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        message: {
          username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"],
          email: ["is invalid"],
          password: ["is too short (minimum is 8 characters)"],
        },
      });
    });
    it("anonymous → 401, non-administrator → 403", async () => {
      expect((await h.request("POST", "/api/v4/users", { json: { username: "x" } })).status).toBe(401);
      const r = await create({ username: "hal", name: "Hal", email: "hal@example.com", password: "password1" }, t.tokens.alice);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden" });
    });
  });

  describe("PUT /users/:id", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const put = (id: number, body: Json, token = t.tokens.root) => h.request("PUT", `/api/v4/users/${id}`, { headers: as(token), json: body });
    let edited = 0;

    it("updates name, admin flag, private profile, password and primary e-mail together", async () => {
      const r = await put(t.users.bob.id, { name: "Robert", admin: true, private_profile: true, password: "new-password", email: "robert@example.com" });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: "Robert", is_admin: true, private_profile: true, email: "robert@example.com" });
      expect((await t.fk.users.verifyPassword("bob", "new-password"))._unsafeUnwrap()).toMatchObject({ username: "bob" });
      expect((await t.fk.users.emails(t.users.bob.id))._unsafeUnwrap().map((e) => [e.email, e.primary])).toEqual([
        ["bob@example.com", false],
        ["robert@example.com", true],
      ]);
    });
    it("renames the user and their personal namespace", async () => {
      const user = await t.createUser({ username: "oldname" });
      const r = await put(user.id, { username: "newname" });
      expect(r.status).toBe(200);
      expect((r.json as Json)["username"]).toBe("newname");
      expect((await t.store.namespaces.findByFullPath("newname"))?.id).toBe(user.namespaceId);
    });
    it("a rename while the personal namespace holds projects → 409", async () => {
      const r = await put(t.users.alice.id, { username: "alicia" });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({ message: "Username cannot be changed while the personal namespace holds projects" });
      expect((await t.store.users.findById(t.users.alice.id))?.username).toBe("alice");
    });
    it("another user's username or e-mail → 409, and nothing of the request is applied", async () => {
      // A user of the test's own, with a name no other test changes.
      const user = await t.createUser({ username: `edited${++edited}`, name: "Robert" });
      const taken = await put(user.id, { username: "root", name: "Not applied" });
      expect(taken.status).toBe(409);
      expect(taken.json).toEqual({ message: "Username has already been taken" });
      const email = await put(user.id, { email: "alice@example.com", name: "Not applied" });
      expect(email.json).toEqual({ message: "Email has already been taken" });
      expect((await t.store.users.findById(user.id))?.name).toBe("Robert");
    });
    it("invalid values → 400 with the nested message map", async () => {
      const r = await put(t.users.bob.id, { name: "", password: "short" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: { name: ["can't be blank"], password: ["is too short (minimum is 8 characters)"] } });
    });
    it("an administrator cannot remove their own admin flag → 403", async () => {
      const r = await put(t.users.root.id, { admin: false });
      expect(r.status).toBe(403);
    });
    it("unknown user → 404 User Not Found; non-administrator → 403", async () => {
      const r = await put(9999, { name: "x" });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User Not Found" });
      expect((await put(t.users.bob.id, { name: "x" }, t.tokens.alice)).status).toBe(403);
    });
  });

  describe("DELETE /users/:id", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const del = (id: number, token = t.tokens.root, headers: Record<string, string> = {}) =>
      h.request("DELETE", `/api/v4/users/${id}`, { headers: { ...as(token), ...headers } });

    it("deletes a user who holds nothing (204): their token stops working, username and e-mail are free again", async () => {
      const user = await t.createUser({ username: "temp" });
      const token = await t.createToken(user.id);
      const r = await del(user.id);
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect((await h.request("GET", "/api/v4/user", { headers: as(token.plaintext) })).status).toBe(401);
      expect(await t.store.users.findById(user.id)).toBeNull();
      expect((await t.createUser({ username: "temp" })).username).toBe("temp");
    });
    it("the sole Owner of a group → 409 (reference wording)", async () => {
      const r = await del(t.users.alice.id);
      expect(r.status).toBe(409);
      expect(r.json).toEqual({ message: "User cannot be removed while is the sole-owner of a group" });
    });
    it("a user who authored records → 409, since forgekit keeps no ghost user", async () => {
      const user = await t.createUser({ username: "author" });
      await t.addMember({ project: t.projects.publicProject }, user, 30);
      const r = await del(user.id);
      expect(r.status).toBe(409);
      expect((r.json as Json)["message"]).toContain("block the user instead");
      expect(await t.store.users.findById(user.id)).not.toBeNull();
    });
    it("hard_delete=true deletes such a user with their contributions", async () => {
      const user = await t.createUser({ username: "contributor" });
      await t.addMember({ project: t.projects.publicProject }, user, 30);
      const r = await h.request("DELETE", `/api/v4/users/${user.id}`, { headers: as(t.tokens.root), query: { hard_delete: "true" } });
      expect(r.status).toBe(204);
      expect(await t.store.users.findById(user.id)).toBeNull();
      expect(await t.store.members.find("project", t.projects.publicProject.id, user.id)).toBeNull();
    });
    it("a user with projects in their namespace → 409 even with hard_delete", async () => {
      const user = await t.createUser({ username: "owner" });
      await t.createProject({ namespaceId: user.namespaceId ?? -1, path: "mine", name: "mine", visibility: "private", creatorId: user.id });
      const r = await h.request("DELETE", `/api/v4/users/${user.id}`, { headers: as(t.tokens.root), query: { hard_delete: "true" } });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({ message: "User cannot be removed while their personal namespace holds projects" });
    });
    it("If-Unmodified-Since before the user's last change → 412", async () => {
      const user = await t.createUser({ username: "stale" });
      const r = await del(user.id, t.tokens.root, { "if-unmodified-since": new Date(Date.UTC(2000, 0, 1)).toUTCString() });
      expect(r.status).toBe(412);
      expect(await t.store.users.findById(user.id)).not.toBeNull();
    });
    it("administrators cannot delete themselves; non-administrator → 403; unknown → 404", async () => {
      expect((await del(t.users.root.id)).status).toBe(403);
      expect((await del(t.users.bob.id, t.tokens.alice)).status).toBe(403);
      expect((await del(9999)).status).toBe(404);
    });
  });

  describe("POST /users/:id/block|unblock|deactivate|activate", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const act = (id: number, action: string, token = t.tokens.root) => h.request("POST", `/api/v4/users/${id}/${action}`, { headers: as(token) });
    const state = async (id: number) => (await t.store.users.findById(id))?.state;

    it("block → 201 true; the blocked user's token is refused with the reason; unblock → 201 true", async () => {
      const r = await act(t.users.bob.id, "block");
      expect(r.status).toBe(201);
      expect(r.json).toBe(true);
      const refused = await h.request("GET", "/api/v4/user", { headers: as(t.tokens.bob) });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ message: "403 Forbidden - Your account has been blocked." });
      expect((await act(t.users.bob.id, "block")).status).toBe(201);
      expect((await act(t.users.bob.id, "unblock")).json).toBe(true);
      expect(await state(t.users.bob.id)).toBe("active");
    });
    it("a blocked user cannot be deactivated or activated → 403 with the reason", async () => {
      await act(t.users.bob.id, "block");
      const deactivate = await act(t.users.bob.id, "deactivate");
      expect(deactivate.status).toBe(403);
      expect(deactivate.json).toEqual({ message: "403 Forbidden - A blocked user cannot be deactivated by the API" });
      const activate = await act(t.users.bob.id, "activate");
      expect(activate.json).toEqual({ message: "403 Forbidden - A blocked user must be unblocked to be activated" });
      await act(t.users.bob.id, "unblock");
    });
    it("deactivate → 201; a deactivated user cannot be unblocked (403); activate → 201", async () => {
      expect((await act(t.users.bob.id, "deactivate")).status).toBe(201);
      expect(await state(t.users.bob.id)).toBe("deactivated");
      const unblock = await act(t.users.bob.id, "unblock");
      expect(unblock.status).toBe(403);
      expect(unblock.json).toEqual({ message: "403 Forbidden - Deactivated users cannot be unblocked by the API" });
      expect((await act(t.users.bob.id, "activate")).status).toBe(201);
      expect(await state(t.users.bob.id)).toBe("active");
    });
    it("the calling administrator cannot block themselves → 403", async () => {
      const r = await act(t.users.root.id, "block");
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - The API initiating user cannot be blocked by the API" });
    });
    it("non-administrator → 403, anonymous → 401, unknown user → 404", async () => {
      expect((await act(t.users.bob.id, "block", t.tokens.alice)).status).toBe(403);
      expect((await h.request("POST", `/api/v4/users/${t.users.bob.id}/block`)).status).toBe(401);
      const r = await act(9999, "block");
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User Not Found" });
      expect(await state(t.users.bob.id)).toBe("active");
    });
  });
};
