/**
 * Tags show their release (reference `Entities::Tag` with `TagRelease`): `GET
 * /projects/:id/repository/tags` and `/tags/:tag_name` carry `release: {tag_name, description}` for a
 * tag that has a release, `null` for one that has none.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Tag = { name: string; release: unknown };

export const releaseTagsSuite: HttpSuite = (h: HttpHarness) => {
  describe("tags show their release", () => {
    let t: TestForgekit;
    let project: Project;
    const alice = (options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { "private-token": t.tokens.alice } });
    const tags = (suffix = "") => `/api/v4/projects/${project.id}/repository/tags${suffix}`;

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "tagged", name: "tagged", visibility: "private", creatorId: t.users.alice.id });
      const c = await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, alice({ json: { branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] } }));
      expect(c.status).toBe(201);
      for (const name of ["v1.0", "v2.0", "plain"]) expect((await h.request("POST", tags(), alice({ json: { tag_name: name, ref: "main" } }))).status).toBe(201);
      for (const [tag, description] of [["v1.0", "First notes"], ["v2.0", "Second notes"]]) {
        expect((await h.request("POST", `/api/v4/projects/${project.id}/releases`, alice({ json: { tag_name: tag, description } }))).status).toBe(201);
      }
    });

    it("GET /projects/:id/repository/tags: release {tag_name, description} where a release exists, null elsewhere", async () => {
      const r = await h.request("GET", tags("?order_by=name&sort=asc"), alice());
      expect(r.status).toBe(200);
      expect((r.json as Tag[]).map((tag) => [tag.name, tag.release])).toEqual([
        ["plain", null],
        ["v1.0", { tag_name: "v1.0", description: "First notes" }],
        ["v2.0", { tag_name: "v2.0", description: "Second notes" }],
      ]);
      const paged = await h.request("GET", tags("?order_by=name&sort=asc&per_page=1&page=3"), alice());
      expect((paged.json as Tag[]).map((tag) => tag.release)).toEqual([{ tag_name: "v2.0", description: "Second notes" }]);
    });

    it("GET /projects/:id/repository/tags/:tag_name: the release follows edits and deletion", async () => {
      expect(((await h.request("GET", tags("/v1.0"), alice())).json as Tag).release).toEqual({ tag_name: "v1.0", description: "First notes" });
      expect((await h.request("PUT", `/api/v4/projects/${project.id}/releases/v1.0`, alice({ json: { description: "Edited" } }))).status).toBe(200);
      expect(((await h.request("GET", tags("/v1.0"), alice())).json as Tag).release).toEqual({ tag_name: "v1.0", description: "Edited" });
      expect((await h.request("DELETE", `/api/v4/projects/${project.id}/releases/v1.0`, alice())).status).toBe(200);
      expect(((await h.request("GET", tags("/v1.0"), alice())).json as Tag).release).toBeNull();
      expect(((await h.request("GET", tags("/plain"), alice())).json as Tag).release).toBeNull();
    });
  });
};
