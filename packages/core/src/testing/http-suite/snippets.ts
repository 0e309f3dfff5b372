/**
 * Snippets over REST (issue 11, "Snippets"): personal and project snippets with several files that
 * live in the snippet's repository (each update a commit), raw and per-file raw, visibility and
 * permissions, the created event and the SpamChecker.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;

export const snippetsSuite: HttpSuite = (h: HttpHarness) => {
  describe("snippets", () => {
    let t: TestForgekit;
    let project: Project;
    let readApiToken: string;
    let spamCalls = 0;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const alice = (options: RequestOptions = {}) => as(t.tokens.alice, options);
    const bob = (options: RequestOptions = {}) => as(t.tokens.bob, options);
    const json = <T = Json>(r: { json: unknown }) => r.json as T;
    const files = [
      { file_path: "hello.rb", content: "puts 'hello'\n" },
      { file_path: "docs/read me.md", content: "# Read me\n" },
    ];

    beforeAll(async () => {
      t = await createTestForgekit({
        spamChecker: {
          check: (input) => {
            spamCalls += 1;
            if (!input.text.includes("BUY NOW")) return Promise.resolve({ spam: false });
            if (input.captchaResponse === "solved" && input.spamLogId === 7) return Promise.resolve({ spam: false });
            return Promise.resolve({ spam: true, message: "Your snippet has been recognized as spam. Please, change the content or solve the reCAPTCHA to proceed.", captcha: { spamLogId: 7, siteKey: "site-key" } });
          },
        },
      });
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "snips", name: "snips", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Guest);
      readApiToken = (await t.createToken(t.users.alice.id, { name: "read api", scopes: ["read_api"] })).plaintext;
    });

    /** A new personal snippet of alice's with both `files` (internal unless `visibility` says otherwise): its id. */
    const personalSnippet = async (extra: Json = {}) => {
      const r = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "Two files", files, ...extra } }));
      expect(r.status).toBe(201);
      return json<{ id: number }>(r).id;
    };
    /** A new private snippet of alice's in `inProject` (default: the shared `snips`) with both `files`: its id. */
    const projectSnippet = async (inProject: Project = project) => {
      const r = await h.request("POST", `/api/v4/projects/${inProject.id}/snippets`, alice({ json: { title: "In project", visibility: "private", files } }));
      expect(r.status).toBe(201);
      return json<{ id: number }>(r).id;
    };

    describe("POST /snippets", () => {
      it("201 with files (path and raw_url), file_name of the first file, URLs, default visibility internal", async () => {
        const r = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "Two files", description: "desc", files } }));
        expect(r.status).toBe(201);
        const body = json(r);
        const personalId = body["id"] as number;
        const web = `${t.baseUrl}/-/snippets/${personalId}`;
        expect(body).toMatchObject({
          title: "Two files",
          description: "desc",
          visibility: "internal",
          project_id: null,
          author: { username: "alice" },
          file_name: "docs/read me.md",
          web_url: web,
          raw_url: `${web}/raw`,
          http_url_to_repo: `${t.baseUrl}/snippets/${personalId}.git`,
          files: [
            { path: "docs/read me.md", raw_url: `${web}/raw/main/docs/read%20me.md` },
            { path: "hello.rb", raw_url: `${web}/raw/main/hello.rb` },
          ],
        });
      });

      it("the legacy file_name + content form makes a one-file snippet", async () => {
        const r = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "Legacy", file_name: "one.txt", content: "one\n", visibility: "public" } }));
        expect(r.status).toBe(201);
        expect(json(r)).toMatchObject({ file_name: "one.txt", visibility: "public", files: [{ path: "one.txt" }] });
      });

      it("400 without files or content, with both, without title; a path escaping the repository → 400 validation", async () => {
        expect(json(await h.request("POST", "/api/v4/snippets", alice({ json: { title: "x" } })))).toEqual({ error: "files, content are missing, exactly one parameter must be provided" });
        expect((await h.request("POST", "/api/v4/snippets", alice({ json: { title: "x", files, content: "c", file_name: "f" } }))).status).toBe(400);
        expect(json(await h.request("POST", "/api/v4/snippets", alice({ json: { files } })))).toEqual({ message: '400 (Bad request) "title" not given' });
        const bad = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "x", files: [{ file_path: "../etc/passwd", content: "x" }] } }));
        expect(bad.status).toBe(400);
        expect(json(bad)).toEqual({ message: { files: ["is invalid"] } });
      });

      it("anonymous → 401; a read_api token → 403", async () => {
        expect((await h.request("POST", "/api/v4/snippets", { json: { title: "x", files } })).status).toBe(401);
        expect((await h.request("POST", "/api/v4/snippets", as(readApiToken, { json: { title: "x", files } }))).status).toBe(403);
      });

      it("spam → 409 with the CAPTCHA body; the retry with the solved CAPTCHA headers succeeds", async () => {
        const before = spamCalls;
        const spam = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "BUY NOW", files } }));
        expect(spamCalls).toBe(before + 1);
        expect(spam.status).toBe(409);
        expect(json(spam)).toMatchObject({ needs_captcha_response: true, spam_log_id: 7, captcha_site_key: "site-key" });
        const retried = await h.request("POST", "/api/v4/snippets", alice({ json: { title: "BUY NOW", files }, headers: { "x-service-captcha-response": "solved", "x-service-spam-log-id": "7" } }));
        expect(retried.status).toBe(201);
      });
    });

    describe("GET /snippets/:id and raw", () => {
      it("200 for the author; an internal snippet for any signed-in user; anonymous → 404", async () => {
        const personalId = await personalSnippet();
        expect((await h.request("GET", `/api/v4/snippets/${personalId}`, alice())).status).toBe(200);
        expect((await h.request("GET", `/api/v4/snippets/${personalId}`, bob())).status).toBe(200);
        const anon = await h.request("GET", `/api/v4/snippets/${personalId}`, {});
        expect(anon.status).toBe(404);
        expect(json(anon)).toEqual({ message: "404 Snippet Not Found" });
      });

      it("raw serves the first file as text/plain; files/:ref/:file_path/raw serves any file at a ref (%2F in the path)", async () => {
        const personalId = await personalSnippet();
        const r = await h.request("GET", `/api/v4/snippets/${personalId}/raw`, alice());
        expect(r.status).toBe(200);
        expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
        expect(r.text).toBe("# Read me\n");
        const f = await h.request("GET", `/api/v4/snippets/${personalId}/files/main/hello.rb/raw`, alice());
        expect(f.text).toBe("puts 'hello'\n");
        const nested = await h.request("GET", `/api/v4/snippets/${personalId}/files/main/docs%2Fread%20me.md/raw`, alice());
        expect(nested.text).toBe("# Read me\n");
        expect((await h.request("GET", `/api/v4/snippets/${personalId}/files/main/none.txt/raw`, alice())).status).toBe(404);
      });
    });

    describe("PUT /snippets/:id", () => {
      it("file actions create, update, move and delete in one commit; title and visibility change", async () => {
        const personalId = await personalSnippet();
        const r = await h.request("PUT", `/api/v4/snippets/${personalId}`, alice({ json: { title: "Renamed", visibility: "private", files: [
          { action: "create", file_path: "new.txt", content: "new\n" },
          { action: "update", file_path: "hello.rb", content: "puts 'bye'\n" },
          { action: "move", previous_path: "docs/read me.md", file_path: "README.md" },
        ] } }));
        expect(r.status).toBe(200);
        expect(json(r)).toMatchObject({ title: "Renamed", visibility: "private", files: [{ path: "README.md" }, { path: "hello.rb" }, { path: "new.txt" }] });
        expect((await h.request("GET", `/api/v4/snippets/${personalId}/files/main/hello.rb/raw`, alice())).text).toBe("puts 'bye'\n");
        const del = await h.request("PUT", `/api/v4/snippets/${personalId}`, alice({ json: { files: [{ action: "delete", file_path: "new.txt" }] } }));
        expect(json<{ files: { path: string }[] }>(del).files.map((f) => f.path)).toEqual(["README.md", "hello.rb"]);
      });

      it("updating a file that does not exist → 400 and nothing changes; no parameter → 400", async () => {
        const personalId = await personalSnippet();
        const r = await h.request("PUT", `/api/v4/snippets/${personalId}`, alice({ json: { files: [{ action: "update", file_path: "ghost.txt", content: "x" }] } }));
        expect(r.status).toBe(400);
        expect((await h.request("PUT", `/api/v4/snippets/${personalId}`, alice({ json: {} }))).status).toBe(400);
      });

      it("a private snippet is invisible to others (404); another user may not edit a visible one (403)", async () => {
        const personalId = await personalSnippet({ visibility: "private" });
        expect((await h.request("PUT", `/api/v4/snippets/${personalId}`, bob({ json: { title: "mine" } }))).status).toBe(404);
        const pub = json<{ id: number }>(await h.request("POST", "/api/v4/snippets", alice({ json: { title: "Public", visibility: "public", files } })));
        expect((await h.request("PUT", `/api/v4/snippets/${pub.id}`, bob({ json: { title: "mine" } }))).status).toBe(403);
      });
    });

    describe("GET /snippets and /snippets/public", () => {
      it("lists the user's own snippets newest first, and public ones", async () => {
        const made = [await personalSnippet(), await personalSnippet({ visibility: "private" }), await personalSnippet({ visibility: "public" })];
        const own = json<{ id: number; author: { username: string } }[]>(await h.request("GET", "/api/v4/snippets", alice()));
        expect(own.length).toBeGreaterThanOrEqual(3);
        expect(own.every((s) => s.author.username === "alice")).toBe(true);
        expect(own.map((s) => s.id)).toEqual([...own.map((s) => s.id)].sort((a, b) => b - a));
        expect(own.map((s) => s.id).filter((id) => made.includes(id))).toEqual([...made].reverse());
        const pub = json<{ id: number; visibility: string }[]>(await h.request("GET", "/api/v4/snippets/public", bob()));
        expect(pub.length).toBeGreaterThan(0);
        expect(pub.every((s) => s.visibility === "public")).toBe(true);
        expect(pub.map((s) => s.id).filter((id) => made.includes(id))).toEqual([made[2]]);
        expect(json<unknown[]>(await h.request("GET", "/api/v4/snippets", bob()))).toEqual([]);
      });
    });

    describe("POST /projects/:id/snippets", () => {
      it("201 for a Reporter+; visibility is required and cannot be more open than the project", async () => {
        const r = await h.request("POST", `/api/v4/projects/${project.id}/snippets`, alice({ json: { title: "In project", visibility: "private", files } }));
        expect(r.status).toBe(201);
        const projectSnippetId = json<{ id: number }>(r).id;
        expect(json(r)).toMatchObject({ project_id: project.id, web_url: `${t.baseUrl}/${project.fullPath}/-/snippets/${projectSnippetId}`, http_url_to_repo: `${t.baseUrl}/${project.fullPath}/snippets/${projectSnippetId}.git` });
        expect((await h.request("POST", `/api/v4/projects/${project.id}/snippets`, alice({ json: { title: "x", files } }))).status).toBe(400);
        const open = await h.request("POST", `/api/v4/projects/${project.id}/snippets`, alice({ json: { title: "x", visibility: "public", files } }));
        expect(open.status).toBe(400);
        expect(json(open)).toEqual({ message: { visibility_level: ["public is not allowed in a private project."] } });
      });

      it("a Guest → 403; a non-member of the private project → 404 Project Not Found", async () => {
        expect((await h.request("POST", `/api/v4/projects/${project.id}/snippets`, bob({ json: { title: "x", visibility: "private", files } }))).status).toBe(403);
        const root = await t.createUser({ username: "carol" });
        const carol = (await t.createToken(root.id)).plaintext;
        const r = await h.request("POST", `/api/v4/projects/${project.id}/snippets`, as(carol, { json: { title: "x", visibility: "private", files } }));
        expect(r.status).toBe(404);
        expect(json(r)).toEqual({ message: "404 Project Not Found" });
      });

      it("records the created event in the project's feed (action_name \"opened\", as the reference renders created targets)", async () => {
        const projectSnippetId = await projectSnippet();
        const events = json<{ action_name: string; target_type: string; target_id: number }[]>(await h.request("GET", `/api/v4/projects/${project.id}/events`, alice()));
        expect(events.some((e) => e.action_name === "opened" && e.target_type === "Snippet" && e.target_id === projectSnippetId)).toBe(true);
      });
    });

    describe("GET, PUT, DELETE /projects/:id/snippets/:snippet_id", () => {
      it("members read the list and the snippet (a Guest too); raw by %2F project path", async () => {
        // A private project of its own (bob a Guest), so its list holds only this test's snippet.
        const own = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "snips-list", name: "snips-list", visibility: "private", creatorId: t.users.alice.id });
        await t.addMember({ project: own }, t.users.bob, AccessLevel.Guest);
        const projectSnippetId = await projectSnippet(own);
        const personalId = await personalSnippet();
        const list = json<{ id: number }[]>(await h.request("GET", `/api/v4/projects/${encodeURIComponent(own.fullPath)}/snippets`, bob()));
        expect(list.map((s) => s.id)).toEqual([projectSnippetId]);
        const raw = await h.request("GET", `/api/v4/projects/${encodeURIComponent(own.fullPath)}/snippets/${projectSnippetId}/raw`, bob());
        expect(raw.text).toBe("# Read me\n");
        expect((await h.request("GET", `/api/v4/projects/${own.id}/snippets/${personalId}`, alice())).status).toBe(404);
      });

      it("a Guest who is not the author may not edit (403) or delete (403); the author deletes → 204, then 404", async () => {
        const projectSnippetId = await projectSnippet();
        expect((await h.request("PUT", `/api/v4/projects/${project.id}/snippets/${projectSnippetId}`, bob({ json: { title: "x" } }))).status).toBe(403);
        expect((await h.request("DELETE", `/api/v4/projects/${project.id}/snippets/${projectSnippetId}`, bob())).status).toBe(403);
        const edited = await h.request("PUT", `/api/v4/projects/${project.id}/snippets/${projectSnippetId}`, alice({ json: { file_name: "x", content: "y" } }));
        expect(edited.status).toBe(400);
        expect((await h.request("DELETE", `/api/v4/projects/${project.id}/snippets/${projectSnippetId}`, alice())).status).toBe(204);
        expect((await h.request("GET", `/api/v4/projects/${project.id}/snippets/${projectSnippetId}`, alice())).status).toBe(404);
      });
    });
  });
};
