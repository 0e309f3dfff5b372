/**
 * The project entity tells the truth (issue 19 §1): `empty_repo` and `default_branch` follow the
 * repository, project features are stored settings (`POST /projects`, `PUT /projects/:id`) that
 * routes enforce, `open_issues_count` counts, and a personal project's owner is its Owner member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURE_FIELDS } from "../../accounts/entities/projects.js";
import { AccessLevel, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const projectTruthSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const get = async (id: number, token?: string) => (await h.request("GET", `/api/v4/projects/${id}`, { headers: as(token) })).json as Json;
  const create = async (json: Json) => {
    const r = await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json });
    expect(r.status).toBe(201);
    return r.json as Json;
  };
  const put = (id: number, json: Json, token = t.tokens.alice) => h.request("PUT", `/api/v4/projects/${id}`, { headers: as(token), json });
  describe("project entity truth", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    describe("GET /projects/:id: the repository's state", () => {
      it("a new project has an empty repository whose HEAD names main", async () => {
        const made = await create({ name: "empty-one" });
        expect(made).toMatchObject({ empty_repo: true, default_branch: "main" });
        expect(await get(made["id"] as number, t.tokens.alice)).toMatchObject({ empty_repo: true, default_branch: "main" });
      });
      it("the first commit makes the repository non-empty and its branch the default", async () => {
        const made = await create({ name: "first-commit" });
        const id = made["id"] as number;
        const commit = await h.request("POST", `/api/v4/projects/${id}/repository/files/a.txt`, { headers: as(t.tokens.alice), json: { branch: "trunk", content: "a", commit_message: "first" } });
        expect(commit.status).toBe(201);
        expect(await get(id, t.tokens.alice)).toMatchObject({ empty_repo: false, default_branch: "trunk" });
      });
      it("initialize_with_readme: non-empty from the start, on main", async () => {
        expect(await create({ name: "with-readme", initialize_with_readme: true })).toMatchObject({ empty_repo: false, default_branch: "main" });
      });
      it("open_issues_count counts the opened issues", async () => {
        const id = (await create({ name: "counted" }))["id"] as number;
        for (const title of ["one", "two"]) expect((await h.request("POST", `/api/v4/projects/${id}/issues`, { headers: as(t.tokens.alice), json: { title } })).status).toBe(201);
        expect((await h.request("PUT", `/api/v4/projects/${id}/issues/1`, { headers: as(t.tokens.alice), json: { state_event: "close" } })).status).toBe(200);
        expect((await get(id, t.tokens.alice))["open_issues_count"]).toBe(1);
      });
    });

    describe("project features", () => {
      it("a new project: issues, merge requests, repository and snippets enabled; features forgekit lacks disabled", async () => {
        const body = await create({ name: "defaults" });
        for (const field of FEATURE_FIELDS) expect([field.level, body[field.level], field.enabled === null || body[field.enabled]]).toEqual([field.level, "enabled", true]);
        for (const lacking of ["builds", "container_registry", "pages", "wiki", "forking", "analytics"]) expect(body[`${lacking}_access_level`]).toBe("disabled");
        expect(body).toMatchObject({ jobs_enabled: false, wiki_enabled: false, container_registry_enabled: false, packages_enabled: false });
      });
      it("each stored feature level: PUT changes it and GET shows it", async () => {
        const id = (await create({ name: "settable" }))["id"] as number;
        for (const field of FEATURE_FIELDS) {
          for (const level of ["private", "disabled", "enabled"]) {
            // Merge requests never more open than the repository: move both together.
            const json: Json = field.feature === "repository" && level !== "enabled" ? { repository_access_level: level, merge_requests_access_level: level } : { [field.level]: level };
            const r = await put(id, json);
            expect([field.level, level, r.status]).toEqual([field.level, level, 200]);
            const body = await get(id, t.tokens.alice);
            expect([field.level, body[field.level], field.enabled === null ? level !== "disabled" : body[field.enabled]]).toEqual([field.level, level, level !== "disabled"]);
          }
        }
      });
      it("the *_enabled booleans set the level: false → disabled, true → enabled", async () => {
        const id = (await create({ name: "booleans", issues_enabled: false }))["id"] as number;
        expect(await get(id, t.tokens.alice)).toMatchObject({ issues_access_level: "disabled", issues_enabled: false });
        await put(id, { issues_enabled: true, merge_requests_enabled: false, snippets_enabled: false });
        expect(await get(id, t.tokens.alice)).toMatchObject({ issues_access_level: "enabled", merge_requests_access_level: "disabled", snippets_access_level: "disabled" });
      });
      it("merge requests more open than the repository → 400", async () => {
        const id = (await create({ name: "children" }))["id"] as number;
        const r = await put(id, { repository_access_level: "private" });
        expect([r.status, r.json]).toEqual([400, { message: { merge_requests_access_level: ["cannot have higher visibility level than repository access level"] } }]);
        expect((await h.request("POST", "/api/v4/projects", { headers: as(t.tokens.alice), json: { name: "bad", repository_access_level: "disabled" } })).status).toBe(400);
      });
    });

    describe("features are enforced", () => {
      let id: number;
      let member: User;
      let memberToken: string;
      beforeAll(async () => {
        id = (await create({ name: "enforced", visibility: "public" }))["id"] as number;
        expect((await h.request("POST", `/api/v4/projects/${id}/issues`, { headers: as(t.tokens.alice), json: { title: "listed" } })).status).toBe(201);
        member = await t.createUser({ username: "enforced-member" });
        await t.addMember({ project: await t.fk.projects.findById(id).match((p) => p, (e) => { throw new Error(e.code); }) }, member, AccessLevel.Guest);
        memberToken = (await t.createToken(member.id)).plaintext;
      });
      const issuesOf = async (path: string, token: string) => ((await h.request("GET", path, { headers: as(token) })).json as Json[]).filter((i) => i["project_id"] === id).length;
      it("issues disabled: the project's issue routes → 403, and its issues leave /issues", async () => {
        await put(id, { issues_access_level: "disabled" });
        expect((await h.request("GET", `/api/v4/projects/${id}/issues`, { headers: as(t.tokens.bob) })).status).toBe(403);
        expect((await h.request("GET", `/api/v4/projects/${id}/issues/1`, { headers: as(t.tokens.alice) })).status).toBe(403);
        expect((await h.request("POST", `/api/v4/projects/${id}/issues`, { headers: as(t.tokens.alice), json: { title: "no" } })).status).toBe(403);
        expect(await issuesOf("/api/v4/issues?scope=all", t.tokens.alice)).toBe(0);
      });
      it("issues private: members see them, other users get 403 and no listed issues", async () => {
        await put(id, { issues_access_level: "private" });
        expect((await h.request("GET", `/api/v4/projects/${id}/issues`, { headers: as(memberToken) })).status).toBe(200);
        expect(await issuesOf("/api/v4/issues?scope=all", memberToken)).toBe(1);
        expect((await h.request("GET", `/api/v4/projects/${id}/issues`, { headers: as(t.tokens.bob) })).status).toBe(403);
        expect(await issuesOf("/api/v4/issues?scope=all", t.tokens.bob)).toBe(0);
        await put(id, { issues_access_level: "enabled" });
        expect(await issuesOf("/api/v4/issues?scope=all", t.tokens.bob)).toBe(1);
      });
      it("merge requests disabled → 403 on the project's merge request routes", async () => {
        await put(id, { merge_requests_access_level: "disabled" });
        expect((await h.request("GET", `/api/v4/projects/${id}/merge_requests`, { headers: as(t.tokens.alice) })).status).toBe(403);
        await put(id, { merge_requests_access_level: "enabled" });
        expect((await h.request("GET", `/api/v4/projects/${id}/merge_requests`, { headers: as(t.tokens.alice) })).status).toBe(200);
      });
      it("repository disabled → 403 on the repository routes", async () => {
        await put(id, { repository_access_level: "disabled", merge_requests_access_level: "disabled" });
        expect((await h.request("GET", `/api/v4/projects/${id}/repository/branches`, { headers: as(t.tokens.alice) })).status).toBe(403);
        await put(id, { repository_access_level: "enabled" });
        expect((await h.request("GET", `/api/v4/projects/${id}/repository/branches`, { headers: as(t.tokens.alice) })).status).toBe(200);
      });
    });

    describe("the owner of a personal project", () => {
      it("has Owner access in permissions.project_access and is listed in /members/all at 50", async () => {
        const id = (await create({ name: "owned" }))["id"] as number;
        const body = await get(id, t.tokens.alice);
        expect(body["permissions"]).toMatchObject({ project_access: { access_level: 50 } });
        const all = (await h.request("GET", `/api/v4/projects/${id}/members/all`, { headers: as(t.tokens.alice) })).json as Json[];
        expect(all.map((m) => [m["username"], m["access_level"]])).toContainEqual(["alice", 50]);
      });
    });
  });
};
