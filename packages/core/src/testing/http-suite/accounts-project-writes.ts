/** Project writes: `POST /projects`, `POST /projects/user/:user_id`, `PUT /projects/:id`, `DELETE /projects/:id`, `GET /users/:id/projects`. */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const projectWritesSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const fresh = async () => {
    t = await createTestForgekit();
    await h.serve(t.fk);
  };

  describe("POST /projects", () => {
    beforeAll(fresh);
    it("creates a project in the caller's namespace (201) with a repository and a 'created' event", async () => {
      const r = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.bob), json: { name: "My Tool", description: "d" } });
      expect(r.status).toBe(201);
      const body = r.json as Json;
      expect(body).toMatchObject({ name: "My Tool", path: "my-tool", path_with_namespace: "bob/my-tool", visibility: "private", description: "d", creator_id: t.users.bob.id });
      const id = body["id"] as number;
      expect(await t.fk.config.repositoryStorage.exists("default", { kind: "project", id })).toBe(true);
      const feed = await h.request("GET", `/api/v4/projects/${id}/events`, { headers: as(t.tokens.bob) });
      expect((feed.json as Json[]).map((e) => e["action_name"])).toEqual(["created"]);
    });
    it("initialize_with_readme commits README.md to the default branch", async () => {
      const r = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json: { path: "readme", namespace_id: "grp", initialize_with_readme: true, default_branch: "trunk" } });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ name: "readme", path_with_namespace: "grp/readme", default_branch: "trunk" });
      const dir = t.fk.config.repositoryStorage.localPath?.("default", { kind: "project", id: (r.json as Json)["id"] as number }) ?? "";
      expect(execFileSync("git", [`--git-dir=${dir}`, "show", "trunk:README.md"], { encoding: "utf8" })).toBe("# readme\n");
    });
    it("namespaces: a group needs Developer (Reporter → 403), an invisible one → 404, another user's → 404", async () => {
      const reporter = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.bob), json: { name: "x", namespace_id: t.groups.grp.id } });
      expect(reporter.status).toBe(403);
      const developer = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.bob), json: { name: "x", namespace_id: "grp/sub" } });
      expect(developer.status).toBe(201);
      const hidden = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.bob), json: { name: "x", namespace_id: t.groups.secret.id } });
      expect([hidden.status, hidden.json]).toEqual([404, { message: "404 Namespace Not Found" }]);
      const other = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.bob), json: { name: "x", namespace_id: t.users.alice.namespaceId } });
      expect(other.status).toBe(404);
    });
    it("validation: name or path required, a taken path, visibility above the group's → 400", async () => {
      const none = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json: { description: "x" } });
      expect([none.status, none.json]).toEqual([400, { error: "name, path are missing, at least one parameter must be provided" }]);
      const taken = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json: { path: "PUBLIC-project", namespace_id: "grp" } });
      expect([taken.status, taken.json]).toEqual([400, { message: { path: ["has already been taken"] } }]);
      const open = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json: { name: "o", namespace_id: "secret", visibility: "public" } });
      expect([open.status, open.json]).toEqual([400, { message: { visibility_level: ["public is not allowed in a private group."] } }]);
      expect((await h.request("POST", "/api/v4/projects", { json: { name: "anon" } })).status).toBe(401);
    });
  });

  describe("POST /projects/user/:user_id", () => {
    beforeAll(fresh);
    it("an administrator creates a project for another user, who is its creator (201)", async () => {
      const r = await h.request("POST", `/api/v4/projects/user/${t.users.bob.id}`, { headers: as(t.tokens.root), json: { name: "Given" } });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ path_with_namespace: "bob/given", creator_id: t.users.bob.id });
    });
    it("non-administrators → 403; an unknown user → 404 User", async () => {
      expect((await h.request("POST", `/api/v4/projects/user/${t.users.bob.id}`, { headers: as(t.tokens.alice), json: { name: "n" } })).status).toBe(403);
      const missing = await h.request("POST", "/api/v4/projects/user/99999", { headers: as(t.tokens.root), json: { name: "n" } });
      expect([missing.status, missing.json]).toEqual([404, { message: "404 User Not Found" }]);
    });
  });

  describe("PUT /projects/:id", () => {
    let maintainer: string;
    beforeAll(async () => {
      t = await createTestForgekit();
      const mia: User = await t.createUser({ username: "mia" });
      await t.addMember({ project: t.projects.publicProject }, mia, AccessLevel.Maintainer);
      maintainer = (await t.createToken(mia.id)).plaintext;
      await h.serve(t.fk);
    });
    it("a Maintainer changes name and description (200)", async () => {
      const r = await h.request("PUT", "/api/v4/projects/grp%2Fpublic-project", { headers: as(maintainer), json: { name: "Renamed", description: "new" } });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: t.projects.publicProject.id, name: "Renamed", description: "new", path: "public-project" });
    });
    it("visibility needs Owner: a Maintainer → 403, the group Owner → 200; never above the group's", async () => {
      expect((await h.request("PUT", "/api/v4/projects/grp%2Fpublic-project", { headers: as(maintainer), json: { visibility: "private" } })).status).toBe(403);
      const owner = await h.request("PUT", "/api/v4/projects/grp%2Fpublic-project", { headers: as(t.tokens.alice), json: { visibility: "internal" } });
      expect([owner.status, (owner.json as Json)["visibility"]]).toEqual([200, "internal"]);
      const tooOpen = await h.request("PUT", `/api/v4/projects/${t.projects.hidden.id}`, { headers: as(t.tokens.alice), json: { visibility: "public" } });
      expect([tooOpen.status, tooOpen.json]).toEqual([400, { message: { visibility_level: ["public is not allowed in a private group."] } }]);
    });
    it("permissions: a Reporter → 403, an invisible project → 404; repository_storage is for administrators", async () => {
      expect((await h.request("PUT", "/api/v4/projects/grp%2Finternal-project", { headers: as(t.tokens.bob), json: { name: "n" } })).status).toBe(403);
      expect((await h.request("PUT", "/api/v4/projects/secret%2Fhidden", { headers: as(t.tokens.bob), json: { name: "n" } })).status).toBe(404);
      expect((await h.request("PUT", "/api/v4/projects/grp%2Fpublic-project", { headers: as(t.tokens.alice), json: { repository_storage: "other" } })).status).toBe(403);
    });
  });

  describe("PUT /projects/:id with repository_storage", () => {
    beforeAll(async () => {
      t = await createTestForgekit({ repositoryStorages: ["default", "other"] });
      await h.serve(t.fk);
    });
    it("an administrator schedules a storage move: the repository is read-only until it ran", async () => {
      const id = t.projects.publicProject.id;
      const r = await h.request("PUT", `/api/v4/projects/${id}`, { headers: as(t.tokens.root), json: { repository_storage: "other" } });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id, repository_storage: "default", repository_read_only: true });
      const moves = await h.request("GET", `/api/v4/projects/${id}/repository_storage_moves`, { headers: as(t.tokens.root) });
      expect(moves.json).toMatchObject([{ state: "scheduled", source_storage_name: "default", destination_storage_name: "other" }]);
    });
    it("an unknown shard → 400; a read-only project cannot be deleted meanwhile (409)", async () => {
      const unknown = await h.request("PUT", `/api/v4/projects/${t.projects.internalProject.id}`, { headers: as(t.tokens.root), json: { repository_storage: "nowhere" } });
      expect(unknown.status).toBe(400);
      const busy = await h.request("DELETE", `/api/v4/projects/${t.projects.publicProject.id}`, { headers: as(t.tokens.root) });
      expect(busy.status).toBe(409);
      expect(await t.store.projects.findById(t.projects.publicProject.id)).not.toBeNull();
    });
  });

  describe("DELETE /projects/:id", () => {
    beforeAll(fresh);
    it("permissions: a Reporter → 403, an invisible project → 404, anonymous → 401", async () => {
      expect((await h.request("DELETE", "/api/v4/projects/grp%2Finternal-project", { headers: as(t.tokens.bob) })).status).toBe(403);
      expect((await h.request("DELETE", "/api/v4/projects/secret%2Fhidden", { headers: as(t.tokens.bob) })).status).toBe(404);
      expect((await h.request("DELETE", "/api/v4/projects/grp%2Fpublic-project")).status).toBe(401);
    });
    it("an Owner deletes the project with its rows and repository (202)", async () => {
      const id = t.projects.internalProject.id;
      const r = await h.request("DELETE", `/api/v4/projects/${id}`, { headers: as(t.tokens.alice) });
      expect([r.status, r.json]).toEqual([202, { message: "202 Accepted" }]);
      expect((await h.request("GET", `/api/v4/projects/${id}`, { headers: as(t.tokens.root) })).status).toBe(404);
      expect(await t.store.members.find("project", id, t.users.bob.id)).toBeNull();
      expect(await t.fk.config.repositoryStorage.exists("default", { kind: "project", id })).toBe(false);
    });
  });

  describe("GET /users/:id/projects", () => {
    beforeAll(fresh);
    it("lists the user's personal projects the caller may see", async () => {
      expect(((await h.request("GET", `/api/v4/users/${t.users.alice.id}/projects`)).json as Json[]).length).toBe(0);
      const own = await h.request("GET", "/api/v4/users/alice/projects", { headers: as(t.tokens.alice) });
      expect((own.json as Json[]).map((p) => p["path_with_namespace"])).toEqual(["alice/personal"]);
      expect(own.headers["x-total"]).toBe("1");
    });
    it("an unknown user → 404 User", async () => {
      const r = await h.request("GET", "/api/v4/users/99999/projects");
      expect([r.status, r.json]).toEqual([404, { message: "404 User Not Found" }]);
    });
  });
};
