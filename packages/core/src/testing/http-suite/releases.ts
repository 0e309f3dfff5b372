/**
 * The Releases API (issue 19 §2; reference `lib/api/releases.rb`, `lib/api/release/links.rb`): what
 * semantic-release and python-gitlab call — create (with a missing tag made from `ref`), list,
 * show, update, delete, the latest permalink and asset links — with the reference's statuses,
 * bodies and permissions, on a project whose repository is built through the commit API.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;

export const releasesSuite: HttpSuite = (h: HttpHarness) => {
  describe("releases API", () => {
    let t: TestForgekit;
    let project: Project;
    let guest: User;
    let guestToken: string;
    let head: string;
    const api = (suffix = "", p: Project = project) => `/api/v4/projects/${encodeURIComponent(p.fullPath)}/releases${suffix}`;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const alice = (options: RequestOptions = {}) => as(t.tokens.alice, options);
    const create = (json: Json, p: Project = project) => h.request("POST", api("", p), alice({ json }));
    /** A test's own project with a commit on main: for the rules about a project's releases as a whole (order, the latest). */
    const freshProject = async (path: string) => {
      const made = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path, name: path, visibility: "private", creatorId: t.users.alice.id });
      const c = await h.request("POST", `/api/v4/projects/${made.id}/repository/commits`, alice({ json: { branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] } }));
      expect(c.status).toBe(201);
      return made;
    };

    beforeAll(async () => {
      t = await createTestForgekit({ now: "2024-05-01T12:00:00.000Z" });
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "rel", name: "rel", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Reporter);
      guest = await t.createUser({ username: "gus" });
      guestToken = (await t.createToken(guest.id)).plaintext;
      await t.addMember({ project }, guest, AccessLevel.Guest);
      const c = await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, alice({ json: { branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] } }));
      expect(c.status).toBe(201);
      head = (c.json as { id: string }).id;
    });

    describe("POST /projects/:id/releases", () => {
      it("a missing tag is created from ref in the repository; 201 with the reference's entity", async () => {
        const r = await create({ tag_name: "v1.0.0", ref: "main", name: "First", description: "Notes", assets: { links: [{ name: "bin", url: "https://cdn.example.com/bin", direct_asset_path: "/bin/app", link_type: "package" }] } });
        expect(r.status).toBe(201);
        const web = `${t.baseUrl}/alice/rel`;
        expect(r.json).toEqual({
          name: "First",
          tag_name: "v1.0.0",
          description: "Notes",
          created_at: "2024-05-01T12:00:00.000Z",
          released_at: "2024-05-01T12:00:00.000Z",
          upcoming_release: false,
          author: expect.objectContaining({ id: t.users.alice.id, username: "alice" }),
          commit: expect.objectContaining({ id: head, title: "Initial" }),
          commit_path: `/alice/rel/-/commit/${head}`,
          tag_path: "/alice/rel/-/tags/v1.0.0",
          assets: {
            count: 5,
            sources: ["zip", "tar.gz", "tar.bz2", "tar"].map((format) => ({ format, url: `${web}/-/archive/v1.0.0/rel-v1.0.0.${format}` })),
            links: [{ id: expect.any(Number), name: "bin", url: "https://cdn.example.com/bin", direct_asset_url: `${web}/-/releases/v1.0.0/downloads/bin/app`, link_type: "package" }],
          },
          evidences: [],
          _links: expect.objectContaining({ self: `${web}/-/releases/v1.0.0`, edit_url: `${web}/-/releases/v1.0.0/edit` }),
        });
        const tag = await h.request("GET", `/api/v4/projects/${project.id}/repository/tags/v1.0.0`, alice());
        expect(tag.status).toBe(200);
        expect((tag.json as { commit: { id: string } }).commit.id).toBe(head);
      });

      it("tag_message makes an annotated tag; the tag push is in the project's events", async () => {
        const r = await create({ tag_name: "v1.1.0", ref: head, tag_message: "Annotated" });
        expect(r.status).toBe(201);
        const tag = await h.request("GET", `/api/v4/projects/${project.id}/repository/tags/v1.1.0`, alice());
        expect(tag.json).toMatchObject({ message: "Annotated", commit: { id: head } });
        const events = (await h.request("GET", `/api/v4/projects/${project.id}/events`, alice())).json as { action_name: string; push_data?: { ref: string; ref_type: string } }[];
        expect(events.some((e) => e.action_name === "pushed new" && e.push_data?.ref === "v1.1.0" && e.push_data.ref_type === "tag")).toBe(true);
      });

      it("an existing tag needs no ref; a tag name with / works when URL-encoded", async () => {
        expect((await h.request("POST", `/api/v4/projects/${project.id}/repository/tags`, alice({ json: { tag_name: "rel/2", ref: "main" } }))).status).toBe(201);
        const r = await create({ tag_name: "rel/2" });
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ tag_name: "rel/2", name: "rel/2", description: "" });
        const shown = await h.request("GET", api(`/${encodeURIComponent("rel/2")}`), alice());
        expect(shown.status).toBe(200);
        expect(shown.json).toMatchObject({ tag_name: "rel/2" });
      });

      it("a missing tag without ref → 422 Ref is not specified, and no release", async () => {
        const r = await create({ tag_name: "nope" });
        expect(r.status).toBe(422);
        expect(r.json).toEqual({ message: "Ref is not specified" });
        expect((await h.request("GET", api("/nope"), alice())).status).toBe(404);
      });

      it("a second release of a tag → 409 Release already exists; a bad ref → 400; a missing milestone → 400", async () => {
        expect((await create({ tag_name: "twice", ref: "main" })).status).toBe(201);
        expect(await create({ tag_name: "twice", ref: "main" })).toMatchObject({ status: 409, json: { message: "Release already exists" } });
        expect(await create({ tag_name: "v9", ref: "no-such-branch" })).toMatchObject({ status: 400, json: { message: "Target no-such-branch is invalid" } });
        expect(await create({ tag_name: "v9", ref: "main", milestones: ["ghost"] })).toMatchObject({ status: 400, json: { message: "Milestone(s) not found: ghost" } });
        expect((await create({ ref: "main" })).status).toBe(400);
      });

      it("released_at in the future → upcoming_release true; milestones by title are listed", async () => {
        expect((await t.fk.milestones.create({ projectId: project.id, authorId: t.users.alice.id, title: "M1" })).isOk()).toBe(true);
        const r = await create({ tag_name: "v3", ref: "main", released_at: "2030-01-01T00:00:00Z", milestones: ["M1"] });
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ released_at: "2030-01-01T00:00:00.000Z", upcoming_release: true, milestones: [{ title: "M1", project_id: project.id }] });
      });

      it("permissions: a Reporter → 403; anonymous → 401 on a private project", async () => {
        expect((await h.request("POST", api(), as(t.tokens.bob, { json: { tag_name: "b1", ref: "main" } }))).status).toBe(403);
        expect((await h.request("POST", api(), { json: { tag_name: "b1", ref: "main" } })).status).toBe(401);
      });
    });

    describe("GET /projects/:id/releases", () => {
      it("newest released_at first by default; order_by created_at / sort asc; pagination headers", async () => {
        // Its own project: the list is every release of the project, here three made in order, the last released in the future.
        const own = await freshProject("rel-list");
        expect((await create({ tag_name: "v1.0.0", ref: "main" }, own)).status).toBe(201);
        expect((await create({ tag_name: "v2", ref: "main" }, own)).status).toBe(201);
        expect((await create({ tag_name: "v3", ref: "main", released_at: "2030-01-01T00:00:00Z" }, own)).status).toBe(201);
        const tags = (r: { json: unknown }) => (r.json as { tag_name: string }[]).map((x) => x.tag_name);
        const all = await h.request("GET", api("", own), alice());
        expect(all.status).toBe(200);
        expect(tags(all)).toHaveLength(3);
        expect(tags(all)[0]).toBe("v3");
        const asc = await h.request("GET", api("", own), alice({ query: { order_by: "created_at", sort: "asc", per_page: "1" } }));
        expect(tags(asc)).toEqual(["v1.0.0"]);
        expect(asc.headers["x-total"]).toBe(String(tags(all).length));
        expect(asc.headers["x-next-page"]).toBe("2");
      });

      it("include_html_description adds description_html (escaped text)", async () => {
        expect((await create({ tag_name: "html-1", ref: "main", description: "Notes" })).status).toBe(201);
        const r = await h.request("GET", api("/html-1"), alice({ query: { include_html_description: "true" } }));
        expect(r.json).toMatchObject({ description_html: '<p dir="auto">Notes</p>' });
      });

      it("a guest of a private project reads releases without the code fields; a non-member gets 404", async () => {
        expect((await create({ tag_name: "guest-1", ref: "main", assets: { links: [{ name: "bin", url: "https://cdn.example.com/guest-bin" }] } })).status).toBe(201);
        const r = await h.request("GET", api("/guest-1"), as(guestToken));
        expect(r.status).toBe(200);
        const body = r.json as Json;
        expect(body).not.toHaveProperty("commit");
        expect(body).not.toHaveProperty("commit_path");
        expect(body).toMatchObject({ assets: { count: 1, sources: [] } });
        expect(body["_links"]).not.toHaveProperty("edit_url");
        const outsider = await t.createUser({ username: "otto" });
        const token = (await t.createToken(outsider.id)).plaintext;
        expect(await h.request("GET", api(), as(token))).toMatchObject({ status: 404, json: { message: "404 Project Not Found" } });
      });

      it("permalink/latest redirects to the latest release, keeping the query", async () => {
        // Its own project: the latest is of every release of the project, here the one released in the future.
        const own = await freshProject("rel-latest");
        expect((await create({ tag_name: "v1.0.0", ref: "main" }, own)).status).toBe(201);
        expect((await create({ tag_name: "v3", ref: "main", released_at: "2030-01-01T00:00:00Z" }, own)).status).toBe(201);
        expect((await create({ tag_name: "v2", ref: "main" }, own)).status).toBe(201);
        const r = await h.request("GET", api("/permalink/latest", own), alice({ query: { include_html_description: "true" } }));
        expect(r.status).toBe(302);
        expect(r.headers["location"]).toBe(`${t.baseUrl}/api/v4/projects/${encodeURIComponent(own.fullPath)}/releases/v3?include_html_description=true`);
      });
    });

    describe("PUT and DELETE /projects/:id/releases/:tag_name", () => {
      it("PUT changes name, description and milestones; nothing given → 400; unknown tag → 404", async () => {
        expect((await t.fk.milestones.create({ projectId: project.id, authorId: t.users.alice.id, title: "M4" })).isOk()).toBe(true);
        expect((await create({ tag_name: "v4", ref: "main", milestones: ["M4"] })).json).toMatchObject({ milestones: [{ title: "M4" }] });
        const r = await h.request("PUT", api("/v4"), alice({ json: { name: "Four", description: "changed", milestones: [] } }));
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ name: "Four", description: "changed" });
        expect(r.json).not.toHaveProperty("milestones");
        expect((await h.request("PUT", api("/v4"), alice({ json: {} }))).status).toBe(400);
        expect(await h.request("PUT", api("/nope"), alice({ json: { name: "x" } }))).toMatchObject({ status: 404, json: { message: "404 Not Found" } });
      });

      it("DELETE answers the release and removes it; the tag stays", async () => {
        await create({ tag_name: "v5", ref: "main" });
        const r = await h.request("DELETE", api("/v5"), alice());
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ tag_name: "v5" });
        expect((await h.request("GET", api("/v5"), alice())).status).toBe(404);
        expect((await h.request("GET", `/api/v4/projects/${project.id}/repository/tags/v5`, alice())).status).toBe(200);
      });
    });

    describe("/projects/:id/releases/:tag_name/assets/links", () => {
      it("create, list, show, update and delete a link; name and url unique per release (400)", async () => {
        await create({ tag_name: "v6", ref: "main" });
        const links = api("/v6/assets/links");
        const made = await h.request("POST", links, alice({ json: { name: "pkg", url: "https://example.com/pkg.tgz", filepath: "/pkg", link_type: "package" } }));
        expect(made.status).toBe(201);
        const id = (made.json as { id: number }).id;
        expect(made.json).toEqual({ id, name: "pkg", url: "https://example.com/pkg.tgz", direct_asset_url: `${t.baseUrl}/alice/rel/-/releases/v6/downloads/pkg`, link_type: "package" });
        expect(await h.request("POST", links, alice({ json: { name: "pkg", url: "https://example.com/other" } }))).toMatchObject({ status: 400, json: { message: { name: ["has already been taken"] } } });
        expect(await h.request("POST", links, alice({ json: { name: "b", url: "https://example.com/pkg.tgz" } }))).toMatchObject({ status: 400, json: { message: { url: ["has already been taken"] } } });
        expect(await h.request("POST", links, alice({ json: { name: "c", url: "javascript:alert(1)" } }))).toMatchObject({ status: 400, json: { message: { url: ["is blocked: Only allowed schemes are http, https, ftp"] } } });
        expect((await h.request("POST", links, alice({ json: { url: "https://example.com/x" } }))).status).toBe(400);
        expect((await h.request("GET", links, alice())).json).toEqual([made.json]);
        expect((await h.request("GET", `${links}/${id}`, alice())).json).toEqual(made.json);
        const updated = await h.request("PUT", `${links}/${id}`, alice({ json: { name: "renamed", link_type: "image" } }));
        expect(updated.json).toMatchObject({ id, name: "renamed", link_type: "image" });
        expect((await h.request("GET", api("/v6"), alice())).json).toMatchObject({ assets: { count: 5, links: [{ id, name: "renamed" }] } });
        expect((await h.request("PUT", `${links}/${id}`, as(t.tokens.bob, { json: { name: "x" } }))).status).toBe(403);
        expect(await h.request("DELETE", `${links}/${id}`, alice())).toMatchObject({ status: 200, json: { id, name: "renamed" } });
        expect((await h.request("GET", `${links}/${id}`, alice())).status).toBe(404);
      });
    });
  });
};
