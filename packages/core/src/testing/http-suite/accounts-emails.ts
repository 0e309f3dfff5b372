/** `/user/emails` (the caller's addresses) and `/users/:id/emails` (administrators). */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const emailsSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token: string) => ({ "private-token": token });

  describe("GET /user/emails", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("lists the caller's addresses as {id, email, confirmed_at}", async () => {
      const r = await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      expect(r.json).toEqual([{ id: expect.any(Number), email: "alice@example.com", confirmed_at: "2024-05-01T12:00:00.000Z" }]);
      expect(r.headers["x-total"]).toBe("1");
    });
    it("a read_user token may list; anonymous → 401", async () => {
      const readUser = await t.createToken(t.users.alice.id, { scopes: ["read_user"] });
      expect((await h.request("GET", "/api/v4/user/emails", { headers: as(readUser.plaintext) })).status).toBe(200);
      expect((await h.request("GET", "/api/v4/user/emails")).status).toBe(401);
    });
    it("GET /user/emails/:email_id shows one of the caller's addresses; another user's → 404 Email Not Found", async () => {
      const [own] = (await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.alice) })).json as Json[];
      expect((await h.request("GET", `/api/v4/user/emails/${String(own!["id"])}`, { headers: as(t.tokens.alice) })).json).toEqual(own);
      const r = await h.request("GET", `/api/v4/user/emails/${String(own!["id"])}`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 Email Not Found" });
    });
  });

  describe("POST /user/emails", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const add = (email: unknown, token = t.tokens.bob) => h.request("POST", "/api/v4/user/emails", { headers: as(token), json: { email } });

    it("adds an unconfirmed secondary address (201)", async () => {
      const r = await add("bob.second@example.com");
      expect(r.status).toBe(201);
      expect(r.json).toEqual({ id: expect.any(Number), email: "bob.second@example.com", confirmed_at: null });
      const list = (await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.bob) })).json as Json[];
      expect(list.map((e) => e["email"])).toEqual(["bob@example.com", "bob.second@example.com"]);
    });
    it("an address anyone has → 400 {email: [has already been taken]}", async () => {
      const r = await add("ALICE@example.com");
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: { email: ["has already been taken"] } });
    });
    it("a malformed address → 400 {email: [is invalid]}; a missing one → 400 not given", async () => {
      expect((await add("nope")).json).toEqual({ message: { email: ["is invalid"] } });
      const r = await h.request("POST", "/api/v4/user/emails", { headers: as(t.tokens.bob), json: {} });
      expect(r.json).toEqual({ message: '400 (Bad request) "email" not given' });
    });
    it("a read_api or read_user token cannot add (403 insufficient_scope)", async () => {
      const readUser = await t.createToken(t.users.bob.id, { scopes: ["read_user", "read_api"] });
      const r = await add("bob.third@example.com", readUser.plaintext);
      expect(r.status).toBe(403);
      expect((r.json as Json)["error"]).toBe("insufficient_scope");
    });
  });

  describe("DELETE /user/emails/:email_id", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("removes a secondary address (204); it is gone from the list and free again", async () => {
      const added = (await h.request("POST", "/api/v4/user/emails", { headers: as(t.tokens.bob), json: { email: "gone@example.com" } })).json as Json;
      const r = await h.request("DELETE", `/api/v4/user/emails/${String(added["id"])}`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(204);
      const list = (await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.bob) })).json as Json[];
      expect(list.map((e) => e["email"])).toEqual(["bob@example.com"]);
      expect((await h.request("POST", "/api/v4/user/emails", { headers: as(t.tokens.alice), json: { email: "gone@example.com" } })).status).toBe(201);
    });
    it("the primary address cannot be removed → 400", async () => {
      const [primary] = (await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.bob) })).json as Json[];
      const r = await h.request("DELETE", `/api/v4/user/emails/${String(primary!["id"])}`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: { email: ["cannot remove the primary email address"] } });
    });
    it("another user's address → 404 Email Not Found, and it stays", async () => {
      const [alices] = (await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.alice) })).json as Json[];
      const r = await h.request("DELETE", `/api/v4/user/emails/${String(alices!["id"])}`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 Email Not Found" });
      expect((await h.request("GET", "/api/v4/user/emails", { headers: as(t.tokens.alice) })).json).toContainEqual(alices);
    });
  });

  describe("/users/:id/emails (administrators)", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const base = () => `/api/v4/users/${t.users.bob.id}/emails`;
    it("an administrator lists, adds (confirmed with skip_confirmation) and removes a user's addresses", async () => {
      const added = await h.request("POST", base(), { headers: as(t.tokens.root), json: { email: "bob.admin@example.com", skip_confirmation: true } });
      expect(added.status).toBe(201);
      expect(added.json).toMatchObject({ email: "bob.admin@example.com", confirmed_at: "2024-05-01T12:00:00.000Z" });
      const list = await h.request("GET", base(), { headers: as(t.tokens.root) });
      expect((list.json as Json[]).map((e) => e["email"])).toEqual(["bob@example.com", "bob.admin@example.com"]);
      const removed = await h.request("DELETE", `${base()}/${String((added.json as Json)["id"])}`, { headers: as(t.tokens.root) });
      expect(removed.status).toBe(204);
    });
    it("non-administrator → 403 (even for their own id); unknown user → 404", async () => {
      expect((await h.request("GET", base(), { headers: as(t.tokens.bob) })).status).toBe(403);
      const r = await h.request("GET", "/api/v4/users/9999/emails", { headers: as(t.tokens.root) });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User Not Found" });
    });
  });
};
