/**
 * Project entity fields read for a whole page (issue 19 §1): `import_status` follows the project's
 * import (none → scheduled → started → finished / failed / canceled), `readme_url` the default
 * branch's root README, and
 * `can_create_merge_request_in` is the viewer's in lists as in a single project.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const projectTruthFactsSuite: HttpSuite = (h) => {
  describe("project entity facts", () => {
    let t: TestForgekit;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const single = async (project: Project, token: string) => (await h.request("GET", `/api/v4/projects/${project.id}`, as(token))).json as Json;
    const inList = async (project: Project, token: string, path = "/api/v4/projects?per_page=100") =>
      ((await h.request("GET", path, as(token))).json as Json[]).find((row) => row["id"] === project.id);
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    describe("import_status", () => {
      it("none without an import; then the import's status, in GET /projects/:id and in lists", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "imported", name: "imported", visibility: "public", creatorId: t.users.alice.id });
        expect((await single(project, t.tokens.alice))["import_status"]).toBe("none");
        const now = t.clock.now();
        await t.store.imports.projects.create({ projectId: project.id, source: "extforge", importSource: "octo/hello", url: "https://forge.example", userId: t.users.alice.id, options: "{}", credentials: null }, now);
        expect((await single(project, t.tokens.alice))["import_status"]).toBe("scheduled");
        await t.store.imports.projects.update(project.id, ["scheduled"], { status: "started" }, now);
        expect((await inList(project, t.tokens.alice))?.["import_status"]).toBe("started");
        await t.store.imports.projects.update(project.id, ["started"], { status: "failed", error: "boom" }, now);
        expect((await inList(project, t.tokens.alice, `/api/v4/groups/${t.groups.grp.id}/projects`))?.["import_status"]).toBe("failed");
        expect((await single(project, t.tokens.bob))["import_status"]).toBe("failed");
      });
    });

    describe("readme_url", () => {
      const commit = async (project: Project, branch: string, actions: Json[], extra: Json = {}) =>
        expect((await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, { ...as(t.tokens.alice), json: { branch, commit_message: "c", actions, ...extra } })).status).toBe(201);
      it("null while the default branch has no README at its root; the blob URL once it has one; null again when it is deleted", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "readme-later", name: "readme-later", visibility: "public", creatorId: t.users.alice.id });
        expect((await single(project, t.tokens.alice))["readme_url"]).toBeNull();
        await commit(project, "trunk", [{ action: "create", file_path: "docs/README.md", content: "not at the root\n" }]);
        expect((await single(project, t.tokens.alice))["readme_url"]).toBeNull();
        await commit(project, "trunk", [{ action: "create", file_path: "README.rst", content: "Hello\n" }]);
        const web = `${t.baseUrl}/${project.fullPath}`;
        expect((await single(project, t.tokens.alice))["readme_url"]).toBe(`${web}/-/blob/trunk/README.rst`);
        expect((await inList(project, t.tokens.bob))?.["readme_url"]).toBe(`${web}/-/blob/trunk/README.rst`);
        await commit(project, "other", [{ action: "delete", file_path: "README.rst" }], { start_branch: "trunk" });
        expect((await single(project, t.tokens.alice))["readme_url"]).toBe(`${web}/-/blob/trunk/README.rst`);
        await commit(project, "trunk", [{ action: "delete", file_path: "README.rst" }]);
        expect((await single(project, t.tokens.alice))["readme_url"]).toBeNull();
      });
      it("initialize_with_readme: the README on main from the start", async () => {
        const r = await h.request("POST", "/api/v4/projects", { ...as(t.tokens.alice), json: { name: "readme-first", initialize_with_readme: true } });
        expect(r.status).toBe(201);
        const body = r.json as Json;
        expect(body["readme_url"]).toBe(`${body["web_url"] as string}/-/blob/main/README.md`);
      });
    });

    describe("can_create_merge_request_in", () => {
      it("in lists as in a single project: Developer+ of a project whose merge requests are not disabled", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "mr-target", name: "mr-target", visibility: "public", creatorId: t.users.alice.id });
        const groupList = `/api/v4/groups/${t.groups.grp.id}/projects`;
        for (const path of [undefined, groupList]) {
          expect((await inList(project, t.tokens.alice, path))?.["can_create_merge_request_in"]).toBe(true);
          expect((await inList(project, t.tokens.bob, path))?.["can_create_merge_request_in"]).toBe(false);
        }
        expect((await single(project, t.tokens.alice))["can_create_merge_request_in"]).toBe(true);
        expect((await single(project, t.tokens.root))["can_create_merge_request_in"]).toBe(true);
        expect((await h.request("PUT", `/api/v4/projects/${project.id}`, { ...as(t.tokens.alice), json: { merge_requests_access_level: "disabled" } })).status).toBe(200);
        expect((await inList(project, t.tokens.alice))?.["can_create_merge_request_in"]).toBe(false);
      });
    });
  });
};
