/** `GET /user`, `GET /users/:id` and sudo (spec Authentication rules 4–7; reference §2.5). */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

/** Sudo rules 4–7. */
export const sudoSuite: HttpSuite = (h) => {
  describe("sudo", () => {
    let t: TestForgekit;
    let sudoOnly: string;
    const me = (headers: Record<string, string>, query: Record<string, string> = {}) => h.request("GET", "/api/v4/user", { headers, query });

    beforeAll(async () => {
      const sessions = new Map<string, number>();
      t = await createTestForgekit({ session: { resolve: (c) => Promise.resolve(sessions.get(c) ?? null) } });
      sessions.set("s-root", t.users.root.id);
      sudoOnly = (await t.createToken(t.users.root.id, { scopes: ["sudo"] })).plaintext;
      await h.serve(t.fk);
    });

    it("rule 4: an admin token with the sudo scope runs as the user named by the sudo parameter", async () => {
      const r = await me({ "private-token": t.tokens.root }, { sudo: "bob" });
      expect(r.status).toBe(200);
      expect((r.json as Json)["username"]).toBe("bob");
    });
    it("rule 4: the Sudo header works too, with a case-insensitive username", async () => {
      const r = await me({ "private-token": t.tokens.root, sudo: "BoB" });
      expect((r.json as Json)["username"]).toBe("bob");
    });
    it("rule 4: the target may be given by id", async () => {
      const r = await me({ "private-token": t.tokens.root, sudo: String(t.users.alice.id) });
      expect((r.json as Json)["username"]).toBe("alice");
    });
    it("rule 4: the request runs with the target's permissions", async () => {
      const path = "/api/v4/projects/secret%2Fhidden";
      expect((await h.request("GET", path, { headers: { "private-token": t.tokens.root } })).status).toBe(200);
      const r = await h.request("GET", path, { headers: { "private-token": t.tokens.root, sudo: "bob" } });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 Project Not Found" });
    });
    it("rule 5: sudo by a non-administrator → 403 Must be admin to use sudo", async () => {
      const r = await me({ "private-token": t.tokens.alice }, { sudo: "bob" });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - Must be admin to use sudo" });
    });
    it("an administrator signed in by session cannot use sudo", async () => {
      const r = await me({ cookie: "_service_session=s-root", sudo: "bob" });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - Must be authenticated using an OAuth or personal access token to use sudo" });
    });
    it("rule 6: an admin token without the sudo scope → 403 insufficient_scope with scope sudo", async () => {
      const { plaintext } = await t.createToken(t.users.root.id, { scopes: ["api"] });
      const r = await me({ "private-token": plaintext, sudo: "bob" });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({
        error: "insufficient_scope",
        error_description: "The request requires higher privileges than provided by the access token.",
        scope: "sudo",
      });
    });
    it("rule 7: an unknown user → 404 User with ID or username '<value>' Not Found", async () => {
      const r = await me({ "private-token": t.tokens.root }, { sudo: "nobody" });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User with ID or username 'nobody' Not Found" });
      const byId = await me({ "private-token": t.tokens.root, sudo: "9999" });
      expect(byId.json).toEqual({ message: "404 User with ID or username '9999' Not Found" });
    });
    it("rule 7: a blocked or deactivated user cannot be sudo'd as: 404 like an unknown user", async () => {
      const carol = await t.createUser({ username: "carol", state: "blocked" });
      const dave = await t.createUser({ username: "dave", state: "deactivated" });
      for (const target of ["carol", String(carol.id), "dave", String(dave.id)]) {
        const r = await me({ "private-token": t.tokens.root }, { sudo: target });
        expect(r.status).toBe(404);
        expect(r.json).toEqual({ message: `404 User with ID or username '${target}' Not Found` });
      }
      await t.store.users.update(carol.id, { state: "active" });
      expect(((await me({ "private-token": t.tokens.root }, { sudo: "carol" })).json as Json)["username"]).toBe("carol");
    });
    it("sudo skips the route's scope check: a sudo-only token reads /projects as the target", async () => {
      const plain = await h.request("GET", "/api/v4/projects", { headers: { "private-token": sudoOnly } });
      expect(plain.status).toBe(403);
      const r = await h.request("GET", "/api/v4/projects", { headers: { "private-token": sudoOnly, sudo: "bob" } });
      expect(r.status).toBe(200);
    });
    it("sudo as oneself is not sudo: the route's scopes still apply", async () => {
      const r = await h.request("GET", "/api/v4/projects", { headers: { "private-token": sudoOnly, sudo: "root" } });
      expect(r.status).toBe(403);
      expect((r.json as Json)["scope"]).toBe("api read_api");
    });
    it("sudo without credentials → 401", async () => {
      const r = await h.request("GET", "/api/v4/projects", { query: { sudo: "bob" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: "401 Unauthorized" });
    });
  });
};

/** `GET /user` and `GET /users/:id`. */
export const usersSuite: HttpSuite = (h) => {
  describe("GET /user", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    it("returns the caller's own profile with e-mail and account flags", async () => {
      const r = await h.request("GET", "/api/v4/user", { headers: { "private-token": t.tokens.alice } });
      expect(r.status).toBe(200);
      const body = r.json as Json;
      expect(body).toMatchObject({
        id: t.users.alice.id,
        username: "alice",
        name: "Alice Liddell",
        state: "active",
        avatar_url: null,
        web_url: `${t.baseUrl}/alice`,
        email: "alice@example.com",
        commit_email: "alice@example.com",
        confirmed_at: "2024-05-01T12:00:00.000Z",
        created_at: "2024-05-01T12:00:00.000Z",
        two_factor_enabled: false,
        private_profile: false,
        bot: false,
        identities: [],
      });
      expect(body).not.toHaveProperty("is_admin");
    });
    it("administrators see the admin fields", async () => {
      const r = await h.request("GET", "/api/v4/user", { headers: { "private-token": t.tokens.root } });
      expect(r.json).toMatchObject({ username: "root", is_admin: true, namespace_id: t.users.root.namespaceId });
    });
    it("anonymous → 401", async () => {
      const r = await h.request("GET", "/api/v4/user");
      expect(r.status).toBe(401);
    });
  });

  describe("GET /users/:id", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await createTestForgekit();
      await t.createUser({ username: "hermit", privateProfile: true });
      await h.serve(t.fk);
    });
    const get = (id: string, token?: string) => h.request("GET", `/api/v4/users/${id}`, token === undefined ? {} : { headers: { "private-token": token } });

    it("finds a user by id", async () => {
      const r = await get(String(t.users.alice.id), t.tokens.bob);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: t.users.alice.id, username: "alice", created_at: "2024-05-01T12:00:00.000Z", followers: 0 });
      expect(r.json).not.toHaveProperty("email");
      expect(r.json).not.toHaveProperty("is_admin");
    });
    it("finds a user by username", async () => {
      const r = await get("alice", t.tokens.bob);
      expect((r.json as Json)["id"]).toBe(t.users.alice.id);
    });
    it("an unknown user → 404 User Not Found", async () => {
      const r = await get("9999", t.tokens.bob);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User Not Found" });
    });
    it("anonymous callers are refused: 403 Not authorized!", async () => {
      const r = await get(String(t.users.alice.id));
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - Not authorized!" });
    });
    it("a private profile hides created_at, followers and following from others", async () => {
      const r = await get("hermit", t.tokens.bob);
      expect(r.status).toBe(200);
      const body = r.json as Json;
      expect(body["username"]).toBe("hermit");
      expect(body).not.toHaveProperty("created_at");
      expect(body).not.toHaveProperty("followers");
      expect(body).not.toHaveProperty("following");
    });
    it("administrators see private profiles in full, with admin fields", async () => {
      const r = await get("hermit", t.tokens.root);
      expect(r.json).toMatchObject({ username: "hermit", created_at: "2024-05-01T12:00:00.000Z", is_admin: false, private_profile: true, email: "hermit@example.com" });
    });
  });
};
