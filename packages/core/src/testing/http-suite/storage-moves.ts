/**
 * Repository storage moves over HTTP (spec "Repository storage moves"; reference §7): every route
 * of the project, snippet and group kinds, admin-only rules, the 400/404 bodies, entities with
 * their container, newest-first pagination, the premium gate of group moves, and a bulk move of
 * every project, snippet and group wiki from `default` to `secondary` and back on real git
 * repositories, `finished` with refs unchanged and `GET /projects?repository_storage=` following.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitInto, drainJobs, MOVE_TEST_TIMEOUT_MS, readable, refOf, refsOf, repositoryPath, twoShardForgekit } from "../../storage-moves/test-kit.js";
import { must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import type { Group, Project } from "../../accounts/types.js";

type Json = Record<string, unknown>;

const admin = (t: TestForgekit) => ({ "private-token": t.tokens.root });

/** Shared cases of the kind-wide routes. */
function adminOnly(h: HttpHarness, world: () => TestForgekit, method: "GET" | "POST", path: () => string) {
  it("anonymous → 401 {\"message\":\"401 Unauthorized\"}; a non-admin → 403 {\"message\":\"403 Forbidden\"}", async () => {
    const body = method === "POST" ? { json: {} } : {};
    const anonymous = await h.request(method, path(), body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ message: "401 Unauthorized" });
    const alice = await h.request(method, path(), { headers: { "private-token": world().tokens.alice }, ...body });
    expect(alice.status).toBe(403);
    expect(alice.json).toEqual({ message: "403 Forbidden" });
  });
}

export const storageMovesSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const world = () => t;
  const get = (path: string, query: Record<string, string> = {}) => h.request("GET", `/api/v4${path}`, { headers: admin(t), query });
  const post = (path: string, json: Json = {}) => h.request("POST", `/api/v4${path}`, { headers: admin(t), json });
  // A test's own containers, on `default` and writable: the seeded ones are shared by every test of the file.
  let seq = 0;
  const ownProject = (): Promise<Project> => {
    seq += 1;
    return t.createProject({ namespaceId: t.groups.grp.id, path: `moved-${seq}`, name: `moved-${seq}`, visibility: "private", creatorId: t.users.alice.id });
  };
  const ownGroup = (): Promise<Group> => {
    seq += 1;
    return t.createGroup({ name: `Moved ${seq}`, path: `moved-group-${seq}`, visibility: "private", ownerId: t.users.alice.id });
  };
  /** Schedules a move of `project` (201), a minute after anything scheduled before: it is the newest; its id. */
  const scheduleMove = async (project: Project): Promise<number> => {
    t.clock.advance(60_000);
    const r = await post(`/projects/${project.id}/repository_storage_moves`);
    expect(r.status).toBe(201);
    return Number((r.json as Json)["id"]);
  };

  describe("repository storage moves", () => {
    beforeAll(async () => {
      t = await twoShardForgekit({ now: "2024-05-01T12:00:00.000Z" });
      await h.serve(t.fk);
    });

    describe("POST /projects/:id/repository_storage_moves", () => {
      adminOnly(h, world, "POST", () => `/api/v4/projects/${t.projects.internalProject.id}/repository_storage_moves`);

      it("201 with the scheduled move and its project (ProjectIdentity); the project becomes read-only", async () => {
        const project = await ownProject();
        const r = await post(`/projects/${project.id}/repository_storage_moves`, { destination_storage_name: "secondary" });
        expect(r.status).toBe(201);
        const body = r.json as Json;
        expect(body).toEqual({
          id: body["id"],
          created_at: t.clock.now().toISOString(),
          state: "scheduled",
          source_storage_name: "default",
          destination_storage_name: "secondary",
          error_message: null,
          project: {
            id: project.id,
            description: project.description,
            name: project.name,
            name_with_namespace: `Group / ${project.name}`,
            path: project.path,
            path_with_namespace: project.fullPath,
            created_at: project.createdAt.toISOString(),
          },
        });
        expect((await must(t.fk.projects.findById(project.id))).repositoryReadOnly).toBe(true);
      });

      it("a read-only project → 400 {\"message\":{\"project\":[\"is read-only\"]}}", async () => {
        // Read-only while its first move is scheduled.
        const project = await ownProject();
        await scheduleMove(project);
        const r = await post(`/projects/${project.id}/repository_storage_moves`);
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ message: { project: ["is read-only"] } });
      });

      it("an unknown destination → 400 \"is not included in the list\"; the same shard → 400", async () => {
        const { id } = await ownProject();
        const unknown = await post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: "nowhere" });
        expect(unknown.status).toBe(400);
        expect(unknown.json).toEqual({ message: { destination_storage_name: ["is not included in the list"] } });
        const same = await post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: "default" });
        expect(same.status).toBe(400);
        expect(same.json).toEqual({ message: { destination_storage_name: ["must be different from source_storage_name"] } });
      });

      it("an unknown project → 404 {\"message\":\"404 Project Not Found\"}; the URL-encoded path names a project", async () => {
        const r = await post("/projects/999999/repository_storage_moves");
        expect(r.status).toBe(404);
        expect(r.json).toEqual({ message: "404 Project Not Found" });
        const project = await ownProject();
        await scheduleMove(project);
        const byPath = await h.request("GET", `/api/v4/projects/${encodeURIComponent(project.fullPath)}/repository_storage_moves`, { headers: admin(t) });
        expect(byPath.status).toBe(200);
        expect((byPath.json as Json[]).map((m) => (m["project"] as Json)["id"])).toEqual([project.id]);
      });
    });

    describe("GET /projects/:id/repository_storage_moves and /:repository_storage_move_id", () => {
      adminOnly(h, world, "GET", () => `/api/v4/projects/${t.projects.internalProject.id}/repository_storage_moves`);

      it("the project's moves; one by id; a move of another project → 404 {\"message\":\"404 Not found\"}", async () => {
        const project = await ownProject();
        const scheduled = await scheduleMove(project);
        const id = project.id;
        const list = await get(`/projects/${id}/repository_storage_moves`);
        expect(list.status).toBe(200);
        const [move] = list.json as Json[];
        expect(move?.["id"]).toBe(scheduled);
        const one = await get(`/projects/${id}/repository_storage_moves/${String(move?.["id"])}`);
        expect(one.status).toBe(200);
        expect(one.json).toEqual(move);
        const elsewhere = await get(`/projects/${t.projects.publicProject.id}/repository_storage_moves/${String(move?.["id"])}`);
        expect(elsewhere.status).toBe(404);
        expect(elsewhere.json).toEqual({ message: "404 Not found" });
        expect((await get(`/projects/${id}/repository_storage_moves/999999`)).json).toEqual({ message: "404 Not found" });
        expect((await get("/projects/999999/repository_storage_moves")).status).toBe(404);
      });
    });

    describe("GET /project_repository_storage_moves and /:repository_storage_move_id", () => {
      adminOnly(h, world, "GET", () => "/api/v4/project_repository_storage_moves");

      it("newest first, paginated with the usual headers", async () => {
        // Every project move of the instance is listed: the total grows by this test's two, the newest two.
        const before = Number((await get("/project_repository_storage_moves", { per_page: "1" })).headers["x-total"]);
        const older = await ownProject();
        const newer = await ownProject();
        await scheduleMove(older);
        await scheduleMove(newer);
        const page = await get("/project_repository_storage_moves", { per_page: "1" });
        expect(page.status).toBe(200);
        expect((page.json as Json[]).map((m) => (m["project"] as Json)["id"])).toEqual([newer.id]);
        expect(page.headers["x-total"]).toBe(String(before + 2));
        expect(page.headers["x-next-page"]).toBe("2");
        expect(page.headers["link"]).toContain('rel="next"');
        const second = await get("/project_repository_storage_moves", { per_page: "1", page: "2" });
        expect((second.json as Json[]).map((m) => (m["project"] as Json)["id"])).toEqual([older.id]);
      });

      it("one move by id; unknown → 404 {\"message\":\"404 Not found\"}; `cleanup failed` is shown with a space", async () => {
        const id = await scheduleMove(await ownProject());
        const [move] = (await get("/project_repository_storage_moves")).json as Json[];
        expect(move?.["id"]).toBe(id);
        expect((await get(`/project_repository_storage_moves/${id}`)).json).toEqual(move);
        const missing = await get("/project_repository_storage_moves/999999");
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ message: "404 Not found" });
        const other = await t.store.storageMoves.moves.create({ kind: "snippet", containerId: 999_999, state: "replicated", sourceStorage: "default", destinationStorage: "secondary" }, t.clock.now());
        expect((await get(`/project_repository_storage_moves/${other.id}`)).status).toBe(404);
        await t.store.storageMoves.moves.transition(other.id, ["replicated"], { state: "cleanup_failed", errorMessage: "disk full" }, t.clock.now());
        const shown = await get(`/snippet_repository_storage_moves/${other.id}`);
        expect(shown.json).toMatchObject({ state: "cleanup failed", error_message: "disk full" });
      });
    });

    describe("POST /project_repository_storage_moves", () => {
      adminOnly(h, world, "POST", () => "/api/v4/project_repository_storage_moves");

      it("a missing source → 400 \"source_storage_name\" not given; unknown names → 400 \"is not included in the list\"", async () => {
        const missing = await post("/project_repository_storage_moves", {});
        expect(missing.status).toBe(400);
        expect(missing.json).toEqual({ message: '400 (Bad request) "source_storage_name" not given' });
        const source = await post("/project_repository_storage_moves", { source_storage_name: "nowhere" });
        expect(source.status).toBe(400);
        expect(source.json).toEqual({ message: { source_storage_name: ["is not included in the list"] } });
        const destination = await post("/project_repository_storage_moves", { source_storage_name: "default", destination_storage_name: "nowhere" });
        expect(destination.status).toBe(400);
        expect(destination.json).toEqual({ message: { destination_storage_name: ["is not included in the list"] } });
      });
    });

    describe("snippet moves: POST|GET /snippets/:id/repository_storage_moves, GET /snippet_repository_storage_moves", () => {
      adminOnly(h, world, "POST", () => "/api/v4/snippet_repository_storage_moves");

      it("201 with the move and its snippet (BasicSnippet); listed; an unknown snippet → 404 {\"message\":\"404 Snippet Not Found\"}", async () => {
        const snippet = await must(t.fk.snippets.create({ projectId: t.projects.publicProject.id, authorId: t.users.alice.id, title: "Notes", fileName: "notes.md", content: "# hi", visibility: "public" }));
        const r = await post(`/snippets/${snippet.id}/repository_storage_moves`);
        expect(r.status).toBe(201);
        expect((r.json as Json)["snippet"]).toEqual({
          id: snippet.id,
          title: "Notes",
          description: null,
          visibility: "public",
          author: { id: t.users.alice.id, username: "alice", name: "Alice Liddell", state: "active", locked: false, avatar_url: null, web_url: `${t.baseUrl}/alice` },
          created_at: snippet.createdAt.toISOString(),
          updated_at: snippet.updatedAt.toISOString(),
          project_id: t.projects.publicProject.id,
          web_url: `${t.baseUrl}/grp/public-project/-/snippets/${snippet.id}`,
          raw_url: `${t.baseUrl}/grp/public-project/-/snippets/${snippet.id}/raw`,
          ssh_url_to_repo: `git@forge.example.com:grp/public-project/snippets/${snippet.id}.git`,
          http_url_to_repo: `${t.baseUrl}/grp/public-project/snippets/${snippet.id}.git`,
        });
        const list = await get("/snippet_repository_storage_moves");
        expect((list.json as Json[]).some((m) => (m["snippet"] as Json | null)?.["id"] === snippet.id)).toBe(true);
        expect((await get(`/snippets/${snippet.id}/repository_storage_moves`)).json).toHaveLength(1);
        const unknown = await post("/snippets/999999/repository_storage_moves");
        expect(unknown.status).toBe(404);
        expect(unknown.json).toEqual({ message: "404 Snippet Not Found" });
      });
    });

    describe("group moves: POST|GET /groups/:id/repository_storage_moves, GET /group_repository_storage_moves (premium)", () => {
      adminOnly(h, world, "GET", () => "/api/v4/group_repository_storage_moves");

      it("201 with the move and its group (BasicGroupDetails); the group's path names it", async () => {
        const group = await ownGroup();
        const r = await post(`/groups/${group.fullPath}/repository_storage_moves`);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ state: "scheduled", source_storage_name: "default", destination_storage_name: "secondary", group: { id: group.id, web_url: `${t.baseUrl}/groups/${group.fullPath}`, name: group.name } });
        expect((await get(`/groups/${group.id}/repository_storage_moves`)).json).toHaveLength(1);
        expect((await get("/groups/999999/repository_storage_moves")).json).toEqual({ message: "404 Group Not Found" });
      });
    });

    describe("the whole shard, both ways (bulk moves of every project, snippet and group wiki)", () => {
      // Its own instance: the test moves every container of the shard and counts what is on each, so
      // the containers (and the half-done moves) the other tests leave in theirs are not part of it.
      let w: TestForgekit;
      const wget = (path: string, query: Record<string, string> = {}) => h.request("GET", `/api/v4${path}`, { headers: admin(w), query });
      const wpost = (path: string, json: Json = {}) => h.request("POST", `/api/v4${path}`, { headers: admin(w), json });
      beforeAll(async () => {
        w = await twoShardForgekit({ now: "2024-05-01T12:00:00.000Z" });
        await h.serve(w.fk);
      });
      // The other blocks of the suite talk to the shared instance.
      afterAll(async () => {
        await h.serve(t.fk);
      });

      it("each move reaches finished, refs unchanged; GET /projects?repository_storage= follows; nothing left on the source", { timeout: MOVE_TEST_TIMEOUT_MS }, async () => {
        await must(w.fk.snippets.create({ projectId: w.projects.publicProject.id, authorId: w.users.alice.id, title: "Notes", fileName: "notes.md", content: "# hi", visibility: "public" }));
        const snippets = await w.store.storageMoves.containers.listIds("snippet", "default", 0, 100);
        expect(snippets).toHaveLength(1);
        const refs = new Map<string, string>();
        const record = async (kind: "project" | "snippet" | "group", id: number) => {
          const container = await w.store.storageMoves.containers.find(kind, id);
          const path = repositoryPath(w, container?.storage ?? "default", refOf(kind, id));
          if (kind === "project") commitInto(path, 3, "main");
          refs.set(`${kind}:${id}`, refsOf(path));
        };
        for (const p of Object.values(w.projects)) await record("project", p.id);
        for (const id of snippets) await record("snippet", id);
        for (const g of Object.values(w.groups)) await record("group", g.id);
        for (const [from, to] of [["default", "secondary"], ["secondary", "default"]] as const) {
          for (const kind of ["project", "snippet", "group"] as const) {
            const r = await wpost(`/${kind}_repository_storage_moves`, { source_storage_name: from, destination_storage_name: to });
            expect(r.status).toBe(202);
            expect(r.json).toEqual({ message: "202 Accepted" });
          }
          await drainJobs(w);
          for (const kind of ["project", "snippet", "group"] as const) {
            const moves = (await wget(`/${kind}_repository_storage_moves`, { per_page: "100" })).json as Json[];
            expect(moves.filter((m) => m["destination_storage_name"] === to && m["state"] !== "finished")).toEqual([]);
          }
          const onSource = await wget("/projects", { repository_storage: from });
          expect(onSource.json).toEqual([]);
          const onDestination = await wget("/projects", { repository_storage: to, per_page: "100" });
          expect((onDestination.json as Json[]).length).toBe(Object.keys(w.projects).length);
          for (const [key, expected] of refs) {
            const [kind, id] = key.split(":") as ["project" | "snippet" | "group", string];
            const container = await w.store.storageMoves.containers.find(kind, Number(id));
            expect(container).toMatchObject({ storage: to, readOnly: false });
            const path = repositoryPath(w, to, refOf(kind, Number(id)));
            expect(readable(path)).toBe(true);
            expect(refsOf(path)).toBe(expected);
          }
        }
      });
    });
  });
};

/** On a free instance group moves are refused after the lookups (access/tier.ts). */
export const storageMovesTierSuite: HttpSuite = (h) => {
  describe("group storage moves on the free tier", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await twoShardForgekit({ tier: "free" });
      await h.serve(t.fk);
    });

    it("403 {\"message\":\"403 Forbidden - Group repository storage moves require the premium tier\"}; an unknown group is still 404", async () => {
      const headers = admin(t);
      for (const [method, path] of [["GET", "/group_repository_storage_moves"], ["POST", `/groups/${t.groups.grp.id}/repository_storage_moves`], ["GET", "/group_repository_storage_moves/1"]] as const) {
        const r = await h.request(method, `/api/v4${path}`, { headers, json: method === "POST" ? {} : undefined });
        expect(r.status).toBe(403);
        expect(r.json).toEqual({ message: "403 Forbidden - Group repository storage moves require the premium tier" });
      }
      expect((await h.request("GET", "/api/v4/groups/999999/repository_storage_moves", { headers })).status).toBe(404);
      // Projects and snippets are not gated.
      expect((await h.request("GET", "/api/v4/project_repository_storage_moves", { headers })).status).toBe(200);
    });
  });
};
