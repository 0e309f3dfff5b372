/**
 * Repository reads and writes over REST (issue 11, "Repository reads"): the repository is built
 * with the commit API itself (real commits in the project's bare repository), then read back
 * through tree, files, branches, tags, commits and compare, with the reference's status codes,
 * bodies, permissions and push events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

const BINARY = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);

export const repositoryApiSuite: HttpSuite = (h: HttpHarness) => {
  describe("repository API", () => {
    let t: TestForgekit;
    let repo: Project;
    let first: string;
    let second: string;
    let readApiToken: string;
    const api = (project: Project | string) => `/api/v4/projects/${encodeURIComponent(typeof project === "string" ? project : project.fullPath)}/repository`;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const alice = (options: RequestOptions = {}) => as(t.tokens.alice, options);
    const json = <T = Record<string, unknown>>(r: { json: unknown }) => r.json as T;
    /**
     * A test's own branch `name`, made from main by a commit of its own (`${name}.txt`); resolves that commit.
     * Tests write only on their own branches: main stays at `second`, as the reads of main expect.
     */
    const ownBranch = async (name: string) => {
      const r = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: name, start_branch: "main", commit_message: `on ${name}`, actions: [{ action: "create", file_path: `${name}.txt`, content: `${name}\n` }] } }));
      expect(r.status).toBe(201);
      return json<{ id: string }>(r).id;
    };
    /** A test's own public project of the group, with an empty repository. */
    const ownPublicProject = (path: string) => t.createProject({ namespaceId: t.groups.grp.id, path, name: path, visibility: "public", creatorId: t.users.alice.id });

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      repo = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "code", name: "code", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project: repo }, t.users.bob, AccessLevel.Reporter);
      readApiToken = (await t.createToken(t.users.alice.id, { name: "read api", scopes: ["read_api"] })).plaintext;
      const r1 = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "Initial commit\n\nwith a body", actions: [
        { action: "create", file_path: "README.md", content: "# Code\n" },
        { action: "create", file_path: "dir/a b.txt", content: "spaced\n" },
        { action: "create", file_path: "dir/ünïcode.txt", content: "unicode\n" },
        { action: "create", file_path: "bin/data.bin", content: BINARY.toString("base64"), encoding: "base64" },
        { action: "create", file_path: "run.sh", content: "#!/bin/sh\n", execute_filemode: true },
      ] } }));
      expect(r1.status).toBe(201);
      first = json<{ id: string }>(r1).id;
      const r2 = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "Second", actions: [{ action: "update", file_path: "README.md", content: "# Code\n\nMore.\n" }] } }));
      expect(r2.status).toBe(201);
      second = json<{ id: string }>(r2).id;
    });
    afterAll(() => undefined);

    describe("POST /projects/:id/repository/commits", () => {
      it("the first commit of an empty repository creates the branch and makes it the project's default branch", async () => {
        const project = await t.store.projects.findById(repo.id);
        expect(project?.defaultBranch).toBe("main");
        const r = await h.request("GET", `${api(repo)}/commits/${first}`, alice());
        expect(json(r)).toMatchObject({ id: first, short_id: first.slice(0, 8), title: "Initial commit", message: "Initial commit\n\nwith a body", parent_ids: [], author_name: "Alice Liddell", author_email: "alice@example.com", project_id: repo.id, stats: { additions: 4, deletions: 0, total: 4 } });
      });

      it("201 with the commit detail: parent, stats, committer and web_url", async () => {
        const r = await h.request("GET", `${api(repo)}/commits/${second}`, alice());
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ parent_ids: [first], committer_name: "Alice Liddell", stats: { additions: 2, deletions: 0, total: 2 }, web_url: `${t.baseUrl}/alice/code/-/commit/${second}`, status: null, last_pipeline: null });
      });

      it("records a push event (pushed to) with the commit range", async () => {
        // Oldest first: the pushes of the fixture come before whatever the other tests pushed.
        const r = await h.request("GET", `/api/v4/projects/${repo.id}/events`, alice({ query: { sort: "asc" } }));
        const pushes = json<{ action_name: string; push_data: { commit_to: string; commit_from: string | null; ref: string } }[]>(r).filter((e) => e.push_data !== undefined);
        expect(pushes.some((e) => e.action_name === "pushed to" && e.push_data.commit_to === second && e.push_data.commit_from === first && e.push_data.ref === "main")).toBe(true);
        expect(pushes.some((e) => e.action_name === "pushed new" && e.push_data.commit_to === first)).toBe(true);
      });

      it("creating a file that exists → 400 with the reference's message; the branch does not move", async () => {
        const tip = await ownBranch("dup");
        const r = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "dup", commit_message: "dup", actions: [{ action: "create", file_path: "README.md", content: "x" }] } }));
        expect(r.status).toBe(400);
        expect(json(r)).toEqual({ message: "A file with this name already exists" });
        const b = await h.request("GET", `${api(repo)}/branches/dup`, alice());
        expect(json<{ commit: { id: string } }>(b).commit.id).toBe(tip);
      });

      it("racing commits to one branch never lose a write: each 201 commit is in the history, a loser gets 400", async () => {
        const before = await ownBranch("race");
        const post = (n: number) => h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "race", commit_message: `race ${n}`, actions: [{ action: "create", file_path: `race-${n}.txt`, content: String(n) }] } }));
        const results = await Promise.all([post(1), post(2), post(3)]);
        const won = results.filter((r) => r.status === 201).map((r) => json<{ id: string }>(r).id);
        for (const r of results) expect([201, 400]).toContain(r.status);
        expect(won.length).toBeGreaterThan(0);
        const log = json<{ id: string }[]>(await h.request("GET", `${api(repo)}/commits`, alice({ query: { ref_name: "race", per_page: "10" } }))).map((c) => c.id);
        for (const id of won) expect(log).toContain(id);
        expect(log.indexOf(before)).toBe(won.length);
        const cleanup = won.map((_, i) => ({ action: "delete", file_path: `race-${json<{ title: string }>(results.filter((r) => r.status === 201)[i] ?? { json: {} }).title.slice(5)}.txt` }));
        expect((await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "race", commit_message: "cleanup", actions: cleanup } }))).status).toBe(201);
      });

      it("actions are validated in the reference's words; a path escaping the tree is refused", async () => {
        const missing = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "m" } }));
        expect(missing.status).toBe(400);
        expect(json(missing)).toEqual({ message: '400 (Bad request) "actions" not given' });
        const bad = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "m", actions: [{ action: "explode", file_path: "x" }] } }));
        expect(json(bad)).toEqual({ error: "actions[0][action] does not have a valid value" });
        const escape = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "m", actions: [{ action: "create", file_path: "../etc/passwd", content: "x" }] } }));
        expect(escape.status).toBe(400);
      });

      it("Reporters, read_api tokens and anonymous callers cannot write (403, 403 insufficient_scope, 401)", async () => {
        const body = { json: { branch: "main", commit_message: "m", actions: [{ action: "create", file_path: "new.txt", content: "x" }] } };
        expect((await h.request("POST", `${api(repo)}/commits`, as(t.tokens.bob, body))).status).toBe(403);
        const scoped = await h.request("POST", `${api(repo)}/commits`, as(readApiToken, body));
        expect(scoped.status).toBe(403);
        expect(json(scoped)).toMatchObject({ error: "insufficient_scope" });
        expect((await h.request("POST", `${api(repo)}/commits`, body)).status).toBe(401);
      });

      it("a repository made read-only by a storage move refuses writes with 403 and the reference's text", async () => {
        await t.store.projects.update(repo.id, { repositoryReadOnly: true });
        try {
          const r = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "main", commit_message: "m", actions: [{ action: "create", file_path: "ro.txt", content: "x" }] } }));
          expect(r.status).toBe(403);
          expect(json(r)).toEqual({ message: "403 Forbidden - The repository is temporarily read-only. Please try again later." });
        } finally {
          await t.store.projects.update(repo.id, { repositoryReadOnly: false });
        }
      });
    });

    describe("GET /projects/:id/repository/tree", () => {
      it("lists the root, folders first as git orders them, with id, name, type, path, mode", async () => {
        const r = await h.request("GET", `${api(repo)}/tree`, alice());
        expect(r.status).toBe(200);
        const entries = json<{ name: string; type: string; mode: string; path: string }[]>(r);
        expect(entries.map((e) => e.path)).toEqual(["README.md", "bin", "dir", "run.sh"]);
        expect(entries.find((e) => e.name === "dir")).toMatchObject({ type: "tree", mode: "040000" });
        expect(entries.find((e) => e.name === "run.sh")).toMatchObject({ type: "blob", mode: "100755" });
      });

      it("path and recursive; an unknown path or ref → 404 Tree Not Found", async () => {
        const sub = json<{ path: string }[]>(await h.request("GET", `${api(repo)}/tree`, alice({ query: { path: "dir" } })));
        expect(sub.map((e) => e.path)).toEqual(["dir/a b.txt", "dir/ünïcode.txt"]);
        const all = json<{ path: string }[]>(await h.request("GET", `${api(repo)}/tree`, alice({ query: { recursive: "true", per_page: "100" } })));
        expect(all.map((e) => e.path)).toContain("bin/data.bin");
        for (const query of [{ path: "nope" }, { ref: "no-such-ref" }]) {
          const r = await h.request("GET", `${api(repo)}/tree`, alice({ query }));
          expect(r.status).toBe(404);
          expect(json(r)).toEqual({ message: "404 Tree Not Found" });
        }
      });

      it("offset pagination headers; keyset with page_token follows Link and has no Link on the last page", async () => {
        const r = await h.request("GET", `${api(repo)}/tree`, alice({ query: { per_page: "2" } }));
        expect(r.headers["x-total"]).toBe("4");
        expect(r.headers["x-total-pages"]).toBe("2");
        const k1 = await h.request("GET", `${api(repo)}/tree`, alice({ query: { pagination: "keyset", per_page: "3" } }));
        expect(json<unknown[]>(k1)).toHaveLength(3);
        const next = /<([^>]+)>; rel="next"/.exec(k1.headers["link"] ?? "")?.[1];
        expect(next).toBeDefined();
        const k2 = await h.request("GET", new URL(next ?? "").pathname.replace(/^.*\/api\/v4/, "/api/v4") + new URL(next ?? "").search, alice());
        expect(json<{ path: string }[]>(k2).map((e) => e.path)).toEqual(["run.sh"]);
        expect(k2.headers["link"]).toBeUndefined();
        const none = await h.request("GET", `${api(repo)}/tree`, alice({ query: { pagination: "none" } }));
        expect(none.status).toBe(400);
      });

      it("invisible project → 404 Project Not Found; anonymous reads a public project", async () => {
        expect(json(await h.request("GET", `${api(repo)}/tree`, as(undefined)))).toEqual({ message: "404 Project Not Found" });
        const pub = await h.request("GET", `${api(await ownPublicProject("public-empty"))}/tree`);
        expect(pub.status).toBe(404);
        expect(json(pub)).toEqual({ message: "404 Tree Not Found" });
      });
    });

    describe("GET /projects/:id/repository/files/:file_path", () => {
      it("base64 content with blob_id, commit_id, last_commit_id, content_sha256 and execute_filemode", async () => {
        const r = await h.request("GET", `${api(repo)}/files/${encodeURIComponent("bin/data.bin")}`, alice({ query: { ref: second } }));
        expect(r.status).toBe(200);
        const body = json<Record<string, unknown>>(r);
        expect(Buffer.from(String(body["content"]), "base64").equals(BINARY)).toBe(true);
        expect(body).toMatchObject({ file_name: "data.bin", file_path: "bin/data.bin", size: BINARY.length, encoding: "base64", ref: second, commit_id: second, last_commit_id: first, execute_filemode: false });
        expect(body["content_sha256"]).toMatch(/^[0-9a-f]{64}$/);
        expect(r.headers["x-gitlab-blob-id"]).toBe(body["blob_id"]);
      });

      it("missing file → 404 File Not Found; unknown ref → 404 Commit Not Found; no ref → 400", async () => {
        expect(json(await h.request("GET", `${api(repo)}/files/nope.txt`, alice({ query: { ref: "main" } })))).toEqual({ message: "404 File Not Found" });
        expect(json(await h.request("GET", `${api(repo)}/files/README.md`, alice({ query: { ref: "nope" } })))).toEqual({ message: "404 Commit Not Found" });
        expect(json(await h.request("GET", `${api(repo)}/files/README.md`, alice()))).toEqual({ message: '400 (Bad request) "ref" not given' });
      });

      it("HEAD answers the metadata headers without a body; /raw sends the bytes", async () => {
        const head = await h.request("HEAD", `${api(repo)}/files/${encodeURIComponent("dir/a b.txt")}`, alice({ query: { ref: "main" } }));
        expect(head.status).toBe(200);
        expect(head.headers["x-gitlab-file-path"]).toBe(encodeURIComponent("dir/a b.txt"));
        expect(head.text).toBe("");
        const raw = await h.request("GET", `${api(repo)}/files/${encodeURIComponent("dir/ünïcode.txt")}/raw`, alice());
        expect(raw.status).toBe(200);
        expect(raw.text).toBe("unicode\n");
      });
    });

    describe("POST, PUT, DELETE /projects/:id/repository/files/:file_path", () => {
      it("create 201, update 200 (a stale last_commit_id → 400), delete 204", async () => {
        const branch = "files-crud";
        expect((await h.request("POST", `${api(repo)}/branches`, alice({ json: { branch, ref: "main" } }))).status).toBe(201);
        const path = `${api(repo)}/files/${encodeURIComponent("docs/new file.md")}`;
        const c = await h.request("POST", path, alice({ json: { branch, commit_message: "add", content: "one" } }));
        expect(c.status).toBe(201);
        expect(json(c)).toEqual({ file_path: "docs/new file.md", branch });
        const stale = await h.request("PUT", path, alice({ json: { branch, commit_message: "upd", content: "two", last_commit_id: first } }));
        expect(stale.status).toBe(400);
        expect(json(stale)).toEqual({ message: "You are attempting to update a file that has changed since you started editing it." });
        const u = await h.request("PUT", path, alice({ json: { branch, commit_message: "upd", content: "dHdv", encoding: "base64" } }));
        expect(u.status).toBe(200);
        const read = await h.request("GET", `${path}/raw`, alice({ query: { ref: branch } }));
        expect(read.text).toBe("two");
        expect((await h.request("DELETE", path, alice({ json: { branch, commit_message: "rm" } }))).status).toBe(204);
        expect((await h.request("DELETE", path, alice({ json: { branch, commit_message: "rm" } }))).status).toBe(400);
      });
    });

    describe("/projects/:id/repository/branches", () => {
      it("POST creates a branch (names with / too) → 201; GET shows it through %2F; the push event says pushed new", async () => {
        const r = await h.request("POST", `${api(repo)}/branches`, alice({ json: { branch: "feature/x", ref: first } }));
        expect(r.status).toBe(201);
        expect(json(r)).toMatchObject({ name: "feature/x", merged: true, protected: false, default: false, can_push: true, commit: { id: first } });
        const show = await h.request("GET", `${api(repo)}/branches/feature%2Fx`, alice());
        expect(json(show)).toMatchObject({ name: "feature/x" });
        const events = json<{ action_name: string; push_data?: { ref: string } }[]>(await h.request("GET", `/api/v4/projects/${repo.id}/events`, alice()));
        expect(events.some((e) => e.action_name === "pushed new" && e.push_data?.ref === "feature/x")).toBe(true);
      });

      it("bad names, existing branches and unknown refs → 400 with the reference's messages", async () => {
        const cases: [Record<string, string>, string][] = [
          [{ branch: "bad..name", ref: "main" }, "Branch name is invalid"],
          [{ branch: "--upload-pack=touch /tmp/x", ref: "main" }, "Branch name is invalid"],
          [{ branch: "main", ref: "main" }, "Branch already exists"],
          [{ branch: "ok", ref: "--upload-pack=x" }, "Invalid reference name: --upload-pack=x"],
        ];
        for (const [body, message] of cases) {
          const r = await h.request("POST", `${api(repo)}/branches`, alice({ json: body }));
          expect(r.status).toBe(400);
          expect(json(r)).toEqual({ message });
        }
      });

      it("GET lists with search; unknown branch → 404 Branch Not Found", async () => {
        expect((await h.request("POST", `${api(repo)}/branches`, alice({ json: { branch: "searched/one", ref: first } }))).status).toBe(201);
        const list = json<{ name: string; default: boolean }[]>(await h.request("GET", `${api(repo)}/branches`, alice({ query: { search: "search" } })));
        expect(list.map((b) => b.name)).toEqual(["searched/one"]);
        expect(json(await h.request("GET", `${api(repo)}/branches/nope`, alice()))).toEqual({ message: "404 Branch Not Found" });
      });

      it("DELETE removes a branch (204) but never the default branch", async () => {
        const main = await h.request("DELETE", `${api(repo)}/branches/main`, alice());
        expect(main.status).toBe(405);
        expect((await h.request("POST", `${api(repo)}/branches`, alice({ json: { branch: "doomed/x", ref: first } }))).status).toBe(201);
        expect((await h.request("DELETE", `${api(repo)}/branches/doomed%2Fx`, alice())).status).toBe(204);
        expect((await h.request("DELETE", `${api(repo)}/branches/doomed%2Fx`, alice())).status).toBe(404);
      });
    });

    describe("/projects/:id/repository/tags", () => {
      it("creates lightweight and annotated tags, lists, shows and deletes them", async () => {
        const light = await h.request("POST", `${api(repo)}/tags`, alice({ json: { tag_name: "v1.0", ref: first } }));
        expect(light.status).toBe(201);
        expect(json(light)).toMatchObject({ name: "v1.0", message: null, target: first, commit: { id: first }, release: null, protected: false });
        const annotated = await h.request("POST", `${api(repo)}/tags`, alice({ json: { tag_name: "v2.0", ref: second, message: "Release 2" } }));
        expect(json(annotated)).toMatchObject({ name: "v2.0", message: "Release 2", commit: { id: second } });
        expect(json<{ target: string }>(annotated).target).not.toBe(second);
        const list = json<{ name: string }[]>(await h.request("GET", `${api(repo)}/tags`, alice({ query: { order_by: "name", sort: "asc" } })));
        expect(list.map((x) => x.name)).toEqual(["v1.0", "v2.0"]);
        expect(json(await h.request("POST", `${api(repo)}/tags`, alice({ json: { tag_name: "v1.0", ref: "main" } })))).toEqual({ message: "Tag v1.0 already exists" });
        expect((await h.request("DELETE", `${api(repo)}/tags/v1.0`, alice())).status).toBe(204);
        expect(json(await h.request("GET", `${api(repo)}/tags/v1.0`, alice()))).toEqual({ message: "404 Tag Not Found" });
      });
    });

    describe("GET /projects/:id/repository/commits", () => {
      it("newest first with pagination headers; path and with_stats filters", async () => {
        const r = await h.request("GET", `${api(repo)}/commits`, alice({ query: { per_page: "1", ref_name: second } }));
        expect(r.status).toBe(200);
        expect(json<{ id: string }[]>(r).map((c) => c.id)).toEqual([second]);
        expect(r.headers["x-total"]).toBe("2");
        expect(r.headers["x-next-page"]).toBe("2");
        const byPath = json<{ id: string; stats: unknown }[]>(await h.request("GET", `${api(repo)}/commits`, alice({ query: { ref_name: second, path: "run.sh", with_stats: "true" } })));
        expect(byPath.map((c) => c.id)).toEqual([first]);
        expect(byPath[0]?.stats).toEqual({ additions: 4, deletions: 0, total: 4 });
      });

      it("unknown commit → 404 Commit Not Found; Reporters read a private project's code", async () => {
        expect(json(await h.request("GET", `${api(repo)}/commits/${"0".repeat(40)}`, alice()))).toEqual({ message: "404 Commit Not Found" });
        expect((await h.request("GET", `${api(repo)}/commits`, as(t.tokens.bob))).status).toBe(200);
      });
    });

    describe("GET /projects/:id/repository/compare", () => {
      it("commits oldest first, the newest as commit, and diffs with paths and flags", async () => {
        const r = await h.request("GET", `${api(repo)}/compare`, alice({ query: { from: first, to: second } }));
        expect(r.status).toBe(200);
        const body = json<{ commit: { id: string }; commits: { id: string }[]; diffs: { new_path: string; diff: string; new_file: boolean }[]; compare_same_ref: boolean }>(r);
        expect(body.commits.map((c) => c.id)).toEqual([second]);
        expect(body.commit.id).toBe(second);
        expect(body.diffs).toHaveLength(1);
        expect(body.diffs[0]).toMatchObject({ new_path: "README.md", old_path: "README.md", new_file: false, deleted_file: false, renamed_file: false });
        expect(body.diffs[0]?.diff).toBe("@@ -1 +1,3 @@\n # Code\n+\n+More.\n");
        expect(body.compare_same_ref).toBe(false);
        expect(json(await h.request("GET", `${api(repo)}/compare`, alice({ query: { from: "nope", to: "main" } })))).toEqual({ message: "404 Ref Not Found" });
      });
    });

    describe("POST /projects/:id/repository/commits (branches)", () => {
      it("start_branch creates a new branch; start_branch with start_sha → 400; force rewrites a branch from start_sha", async () => {
        const made = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "topic", start_branch: "main", commit_message: "On topic", actions: [{ action: "move", file_path: "moved.sh", previous_path: "run.sh" }, { action: "chmod", file_path: "moved.sh", execute_filemode: false }] } }));
        expect(made.status).toBe(201);
        const tree = json<{ path: string; mode: string }[]>(await h.request("GET", `${api(repo)}/tree`, alice({ query: { ref: "topic" } })));
        expect(tree.find((e) => e.path === "moved.sh")?.mode).toBe("100644");
        const both = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "x", start_branch: "main", start_sha: first, commit_message: "m", actions: [{ action: "create", file_path: "y", content: "" }] } }));
        expect(json(both)).toEqual({ error: "start_branch, start_sha are mutually exclusive" });
        const forced = await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "topic", start_sha: first, force: true, commit_message: "Rewritten", actions: [{ action: "create", file_path: "forced.txt", content: "f" }] } }));
        expect(forced.status).toBe(201);
        expect(json<{ parent_ids: string[] }>(forced).parent_ids).toEqual([first]);
        expect((await h.request("DELETE", `${api(repo)}/branches/topic`, alice())).status).toBe(204);
      });

      it("the first commit of an empty repository on any branch makes that branch HEAD and the default branch", async () => {
        const empty = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "empty", name: "empty", visibility: "private", creatorId: t.users.alice.id });
        const r = await h.request("POST", `${api(empty)}/commits`, alice({ json: { branch: "develop", commit_message: "first", actions: [{ action: "create", file_path: "a.txt", content: "a" }] } }));
        expect(r.status).toBe(201);
        expect((await t.store.projects.findById(empty.id))?.defaultBranch).toBe("develop");
        const raw = await h.request("GET", `${api(empty)}/files/a.txt/raw`, alice());
        expect(raw.text).toBe("a");
        const branch = json<{ default: boolean }>(await h.request("GET", `${api(empty)}/branches/develop`, alice()));
        expect(branch.default).toBe(true);
      });
    });

    describe("GET /projects/:id/repository/commits/:sha/diff", () => {
      it("the commit's diffs against its first parent, paginated", async () => {
        const r = await h.request("GET", `${api(repo)}/commits/${first}/diff`, alice({ query: { per_page: "2" } }));
        expect(r.status).toBe(200);
        expect(r.headers["x-total"]).toBe("5");
        const diffs = json<{ new_path: string; new_file: boolean; diff: string }[]>(r);
        expect(diffs[0]).toMatchObject({ new_path: "README.md", new_file: true, diff: "@@ -0,0 +1 @@\n+# Code\n" });
      });
    });

    describe("GET /projects/:id/repository/blobs/:sha", () => {
      it("base64 content by blob id; /raw sends the bytes; unknown → 404 Blob Not Found", async () => {
        const file = json<{ blob_id: string }>(await h.request("GET", `${api(repo)}/files/README.md`, alice({ query: { ref: first } })));
        const blob = json<{ content: string; sha: string; size: number }>(await h.request("GET", `${api(repo)}/blobs/${file.blob_id}`, alice()));
        expect(blob).toMatchObject({ sha: file.blob_id, size: 7, encoding: "base64" });
        expect(Buffer.from(blob.content, "base64").toString()).toBe("# Code\n");
        expect((await h.request("GET", `${api(repo)}/blobs/${file.blob_id}/raw`, alice())).text).toBe("# Code\n");
        expect(json(await h.request("GET", `${api(repo)}/blobs/${"a".repeat(40)}`, alice()))).toEqual({ message: "404 Blob Not Found" });
      });
    });

    describe("GET /projects/:id/repository/archive", () => {
      it("zip and tar.gz of a ref with the reference's prefix; an unknown ref → 404 File Not Found", async () => {
        const zip = await h.request("GET", `${api(repo)}/archive.zip`, alice({ query: { sha: first } }));
        expect(zip.status).toBe(200);
        expect(zip.headers["content-type"]).toBe("application/zip");
        expect(zip.headers["content-disposition"]).toBe(`attachment; filename="code-${first}-${first}.zip"`);
        const gz = await h.request("GET", `${api(repo)}/archive`, alice({ query: { sha: first, path: "dir" } }));
        expect(gz.headers["content-type"]).toBe("application/gzip");
        expect(json(await h.request("GET", `${api(repo)}/archive`, alice({ query: { sha: "nope" } })))).toEqual({ message: "404 File Not Found" });
      });
    });

    describe("DELETE /projects/:id/repository/merged_branches", () => {
      it("removes branches merged into the default branch, keeps unmerged ones and the default → 202", async () => {
        await h.request("POST", `${api(repo)}/branches`, alice({ json: { branch: "merged-one", ref: first } }));
        await h.request("POST", `${api(repo)}/commits`, alice({ json: { branch: "unmerged", start_branch: "main", commit_message: "u", actions: [{ action: "create", file_path: "u.txt", content: "u" }] } }));
        const r = await h.request("DELETE", `${api(repo)}/merged_branches`, alice());
        expect(r.status).toBe(202);
        expect(json(r)).toEqual({ message: "202 Accepted" });
        const names = json<{ name: string }[]>(await h.request("GET", `${api(repo)}/branches`, alice())).map((b) => b.name);
        expect(names).toContain("main");
        expect(names).toContain("unmerged");
        expect(names).not.toContain("merged-one");
      });
    });

    describe("permissions on reads", () => {
      it("a Guest of a private project cannot read its code (403); anonymous reads a public project's files", async () => {
        const guest = await t.createUser({ username: "guest" });
        await t.addMember({ project: repo }, guest, AccessLevel.Guest);
        const token = (await t.createToken(guest.id)).plaintext;
        expect(json(await h.request("GET", `${api(repo)}/tree`, as(token)))).toEqual({ message: "403 Forbidden" });
        const pub = await ownPublicProject("public-written");
        expect((await h.request("POST", `${api(pub)}/commits`, alice({ json: { branch: "main", commit_message: "p", actions: [{ action: "create", file_path: "p.txt", content: "public" }] } }))).status).toBe(201);
        const r = await h.request("GET", `${api(pub)}/files/p.txt/raw`);
        expect(r.status).toBe(200);
        expect(r.text).toBe("public");
        expect((await h.request("POST", `${api(pub)}/branches`, { json: { branch: "b", ref: "main" } })).status).toBe(401);
      });
    });
  });
};
