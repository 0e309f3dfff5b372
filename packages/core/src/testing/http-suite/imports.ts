/**
 * The import endpoints (spec "Import"; reference §3, §4; issue 10 §1), both route families, against
 * the stand-in forge and repository server (real HTTP servers on 127.0.0.1 serving real git
 * repositories): every status code and body, then an import followed to `finished` through
 * `GET /projects/:id/import`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { restExtForge } from "../../imports/extforge/client.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpSuite, HttpResult } from "../http-harness.js";
import { startExtForgeStandIn, startExtServerStandIn, type ExtForgeStandIn, type ExtForgeStandInIssue, type ExtServerStandIn, type StandInGitRepository } from "../import-stand-ins/index.js";

/** Until a job settles: generous, so that a loaded machine only makes a test slower. */
const SETTLE_MS = 120_000;
const FORGE_TOKEN = "suite-forge-token";
const SERVER_TOKEN = "suite-server-token";
const NAMESPACE_MISSING = { message: "Namespace or group to import repository into does not exist." };
const NAMESPACE_FORBIDDEN = { message: "You are not allowed to import projects in this namespace." };
const UNAUTHORIZED = { message: "401 Unauthorized" };

const gitHistory: StandInGitRepository = { defaultBranch: "main", commits: [{ message: "first", files: { "README.md": "# hi\n" }, tags: ["v1"] }, { message: "topic", branch: "topic", files: { "t.txt": "t\n" } }] };

/** The world of the import suites: an instance that may import from 127.0.0.1, and both stand-ins. */
interface ImportsWorld {
  t: TestForgekit;
  forge: ExtForgeStandIn;
  server: ExtServerStandIn;
  tokens: { alice: string; bob: string; developer: string; root: string };
  /** Messages the instance's notifier delivered. */
  notified: { username: string; subject: string; body: string }[];
}

async function importsWorld(): Promise<ImportsWorld> {
  const helloIssue: ExtForgeStandInIssue = { number: 1, title: "An issue", author: "octocat", labels: ["bug"], milestone: 1, assignees: ["octocat", "hubot"] };
  const forge = await startExtForgeStandIn({
    // octocat shows Alice's e-mail on the forge (GET /users/octocat): their records and assignments map to her.
    users: [{ id: 7, login: "octocat", name: "Octo Cat", email: "alice@example.com", token: FORGE_TOKEN, forbidden: [502] }],
    repos: [
      {
        id: 501,
        owner: "octocat",
        name: "hello-world",
        description: "Imported",
        git: gitHistory,
        labels: [{ name: "bug", color: "d73a4a" }],
        milestones: [{ number: 1, title: "v1" }],
        issues: [
          helloIssue,
          { number: 3, title: "Another issue", author: "hubot" },
        ],
        pulls: [{ number: 2, title: "A pull request", head: "topic", state: "merged", author: "octocat" }],
        comments: [
          { id: 11, issue: 1, body: "A comment", author: "octocat" },
          { id: 12, issue: 1, body: "Another comment", author: "hubot" },
        ],
      },
      { id: 502, owner: "octocat", name: "secret", git: gitHistory },
      { id: 503, owner: "octocat", name: "big", generated: { issues: 400, commentsPerIssue: 1 } },
    ],
    attachments: { "/user-attachments/assets/9f2e": { body: "what the screenshot shows\n", contentType: "image/png" } },
    gists: [
      { owner: "octocat", id: "g10", description: "ten files", files: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, `file ${i}\n`])) },
      { owner: "octocat", id: "g11", description: "eleven files", files: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, `file ${i}\n`])) },
    ],
  });
  const server = await startExtServerStandIn({
    users: [{ name: "bb-user", token: SERVER_TOKEN, displayName: "BB User" }],
    repos: [{ id: 9, projectKey: "PRJ", slug: "repo", name: "Repo", git: gitHistory, pullRequests: [{ id: 3, title: "Server PR", from: "topic", state: "MERGED", author: "bb-user", comments: [{ id: 31, text: "Server comment", author: "bb-user", replies: [{ id: 32, text: "A reply", author: "bb-user" }] }] }] }],
  });
  // The issue links an attachment on the forge's web host (its URL is known once the stand-in runs).
  helloIssue.body = `A screenshot: ![screen](${forge.url}/user-attachments/assets/9f2e)`;
  // Gists come from the public forge (no host parameter): the instance's forge client points at the stand-in.
  const notified: ImportsWorld["notified"] = [];
  const notifier = { notify: async (to: { username: string }, message: { subject: string; body: string }) => void notified.push({ username: to.username, ...message }) };
  const t = await createTestForgekit({ notifier, imports: { allowLocalNetwork: true, extForge: (options) => restExtForge({ ...options, hostname: options.hostname ?? forge.url }) } });
  const developer = await t.createUser({ username: "developer" });
  await t.addMember({ group: t.groups.grp }, developer, AccessLevel.Developer);
  return {
    t,
    forge,
    server,
    notified,
    tokens: { alice: t.tokens.alice, bob: t.tokens.bob, developer: (await t.createToken(developer.id)).plaintext, root: t.tokens.root },
  };
}

const as = (token?: string): Record<string, string> => (token === undefined ? {} : { "private-token": token });

function expectJson(r: HttpResult, status: number, body?: unknown): void {
  expect({ status: r.status, body: r.json }).toEqual(body === undefined ? { status, body: r.json } : { status, body });
}

/** The import endpoints. */
export const importsSuite: HttpSuite = (h) => {
  let w: ImportsWorld;
  describe("imports", () => {
    beforeAll(async () => {
      w = await importsWorld();
      await h.serve(w.t.fk);
    });
    afterAll(async () => {
      await w.t.fk.workers.stop();
      await w.forge.close();
      await w.server.close();
    });
    const post = (path: string, token: string | undefined, json: unknown) => h.request("POST", `/api/v4${path}`, { headers: as(token), json });
    const forgeBody = (extra: Record<string, unknown> = {}) => ({ personal_access_token: FORGE_TOKEN, repo_id: 501, target_namespace: "grp", extforge_hostname: w.forge.url, ...extra });

    for (const family of [
      { path: "/import/extforge", host: "extforge_hostname" },
      { path: "/import/github", host: "github_hostname" },
    ]) {
      describe(`POST ${family.path}`, () => {
        const body = (extra: Record<string, unknown> = {}) => {
          const { extforge_hostname: host, ...rest } = forgeBody(extra);
          return { ...rest, [family.host]: host };
        };
        it("anonymous → 401", async () => expectJson(await post(family.path, undefined, body()), 401, UNAUTHORIZED));
        it("a missing attribute → 400 with the spec's body", async () => {
          for (const name of ["personal_access_token", "repo_id", "target_namespace"]) {
            const b: Record<string, unknown> = body();
            delete b[name];
            expectJson(await post(family.path, w.tokens.alice, b), 400, { message: `400 (Bad request) "${name}" not given` });
          }
        });
        it("a blank target_namespace → 400; a repo_id that is not an integer → 400", async () => {
          expectJson(await post(family.path, w.tokens.alice, body({ target_namespace: "" })), 400, { error: "target_namespace is empty" });
          expectJson(await post(family.path, w.tokens.alice, body({ repo_id: "abc" })), 400, { error: "repo_id is invalid" });
        });
        it("a namespace that does not exist → 422, never the personal namespace", async () => {
          expectJson(await post(family.path, w.tokens.alice, body({ target_namespace: "nowhere" })), 422, NAMESPACE_MISSING);
        });
        it("a group where the caller is below Maintainer, or another user's namespace → 422", async () => {
          expectJson(await post(family.path, w.tokens.developer, body()), 422, NAMESPACE_FORBIDDEN);
          expectJson(await post(family.path, w.tokens.bob, body({ target_namespace: "alice" })), 422, NAMESPACE_FORBIDDEN);
        });
        it("a token the forge refuses → 401; a token without read access to the repository → 422", async () => {
          expectJson(await post(family.path, w.tokens.alice, body({ personal_access_token: "wrong-token" })), 401, UNAUTHORIZED);
          const r = await post(family.path, w.tokens.alice, body({ repo_id: 502 }));
          expect(r.status).toBe(422);
          expect((r.json as { message: string }).message).toMatch(/^Your GitHub personal access token does not have read access to the repository/);
        });
        it("success → 201 with the import result, into a subgroup path with a leading slash too", async () => {
          await w.t.addMember({ group: w.t.groups.sub }, w.t.users.alice, AccessLevel.Maintainer).catch(() => undefined);
          const name = `imported-${family.host}`;
          const r = await post(family.path, w.tokens.alice, body({ new_name: name, target_namespace: "/grp/sub" }));
          expectJson(r, 201, {
            id: expect.any(Number),
            name,
            full_path: `/grp/sub/${name}`,
            full_name: `Group / Sub / ${name}`,
            import_source: "octocat/hello-world",
            import_status: "scheduled",
            human_import_status_name: "scheduled",
            provider_link: "/octocat/hello-world",
            import_warning: null,
          });
        });
        it("optional_stages as a hash or a JSON text (attachments_import is supported on the git repository storage: no import_warning); a bad value → 400", async () => {
          const r = await post(family.path, w.tokens.alice, body({ new_name: `stages-${family.host}`, optional_stages: { single_endpoint_notes_import: true, attachments_import: "true" } }));
          expectJson(r, 201, expect.objectContaining({ import_warning: null }));
          const text = await post(family.path, w.tokens.alice, body({ new_name: `stages-text-${family.host}`, optional_stages: '{"single_endpoint_issue_events_import":true}' }));
          expectJson(text, 201, expect.objectContaining({ import_warning: null }));
          expectJson(await post(family.path, w.tokens.alice, body({ optional_stages: "not json" })), 400, { error: "optional_stages is invalid" });
        });
        it("a name already taken in the namespace → 422", async () => {
          await post(family.path, w.tokens.alice, body({ new_name: `taken-${family.host}` }));
          expectJson(await post(family.path, w.tokens.alice, body({ new_name: `taken-${family.host}` })), 422, { message: "Path has already been taken" });
        });
      });
    }

    describe("URL guard of extforge_hostname", () => {
      let guarded: TestForgekit;
      let url: string;
      beforeAll(async () => {
        guarded = await createTestForgekit();
        url = await h.serve(guarded.fk);
      });
      afterAll(async () => {
        await h.serve(w.t.fk);
      });
      it("loopback, private, link-local and metadata addresses, and non-http schemes → 400 Invalid URL (local network not allowed)", async () => {
        expect(url).toContain("http");
        for (const host of [w.forge.url, "http://10.0.0.7", "http://[::1]:8080", "http://169.254.169.254", "ftp://example.com", "http://192.168.1.1"]) {
          const r = await h.request("POST", "/api/v4/import/extforge", { headers: as(guarded.tokens.alice), json: { personal_access_token: FORGE_TOKEN, repo_id: 501, target_namespace: "grp", extforge_hostname: host } });
          expect({ host, status: r.status, message: (r.json as { message?: string }).message?.startsWith("Invalid URL: ") }).toEqual({ host, status: 400, message: true });
        }
      });
    });

    describe("import followed to the end: GET /projects/:id/import", () => {
      it("anonymous → 401; a project the caller cannot see → 404; below Maintainer → 403", async () => {
        expectJson(await h.request("GET", `/api/v4/projects/${w.t.projects.publicProject.id}/import`), 401, UNAUTHORIZED);
        expectJson(await h.request("GET", `/api/v4/projects/${w.t.projects.hidden.id}/import`, { headers: as(w.tokens.bob) }), 404, { message: "404 Project Not Found" });
        expectJson(await h.request("GET", `/api/v4/projects/${w.t.projects.publicProject.id}/import`, { headers: as(w.tokens.developer) }), 403, { message: "403 Forbidden" });
      });
      it("a project that was never imported → import_status none", async () => {
        const r = await h.request("GET", `/api/v4/projects/${w.t.projects.publicProject.id}/import`, { headers: as(w.tokens.alice) });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ id: w.t.projects.publicProject.id, import_status: "none", import_error: null, stats: { fetched: {}, imported: {} } });
      });
      it("the import runs in a worker: scheduled → finished, with counts per kind; its issues, merge requests and notes are there", { timeout: 2 * SETTLE_MS }, async () => {
        const r = await post("/import/extforge", w.tokens.alice, forgeBody({ new_name: "followed", optional_stages: { attachments_import: true } }));
        expect(r.status).toBe(201);
        const id = (r.json as { id: number }).id;
        // Workers of the test's own: another test (the gists import) may have left the instance's running.
        await w.t.fk.workers.stop();
        expect(w.t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
        let status: Record<string, unknown> = {};
        // Until it settles: a generous limit, so that a loaded machine only makes the test slower.
        for (const started = Date.now(); Date.now() - started < SETTLE_MS; ) {
          status = (await h.request("GET", `/api/v4/projects/${id}/import`, { headers: as(w.tokens.alice) })).json as Record<string, unknown>;
          if (status["import_status"] === "finished" || status["import_status"] === "failed") break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(status).toMatchObject({
          import_status: "finished",
          import_error: null,
          path_with_namespace: "grp/followed",
          stats: { fetched: { issue: 2, merge_request: 1, note: 2, label: 1, milestone: 1 }, imported: { issue: 2, merge_request: 1, note: 2, label: 1, milestone: 1, branch: 2, tag: 1 } },
        });
        const issue = await w.t.store.activity.issues.findByIid(id, 1);
        expect(issue).toMatchObject({ title: "An issue", state: "opened" });
        expect(await w.t.store.activity.mergeRequests.findByIid(id, 2)).toMatchObject({ title: "A pull request", state: "merged", sourceBranch: "topic" });
        // octocat's public e-mail is Alice's confirmed one: hers, text untouched; hubot shows none: the importer, named in the text.
        expect((await w.t.store.activity.notes.listByNoteable("Issue", issue?.id ?? 0)).map((n) => [n.authorId, n.body])).toEqual([
          [w.t.users.alice.id, "A comment"],
          [w.t.users.alice.id, "*Created by: hubot*\n\nAnother comment"],
        ]);
        // The issue keeps its milestone and the assignee that maps to a user (hubot is dropped).
        const shown = await h.request("GET", `/api/v4/projects/${id}/issues/1`, { headers: as(w.tokens.alice) });
        expect(shown.json).toMatchObject({ author: { username: "alice" }, milestone: { iid: 1, title: "v1" }, assignees: [{ username: "alice" }] });
        expect((shown.json as { assignees: unknown[] }).assignees).toHaveLength(1);
        // attachments_import: the screenshot is served by forgekit at the project's uploads URL the text now names.
        const link = /!\[screen\]\(([^)]+)\)/.exec((shown.json as { description: string }).description)?.[1] ?? "";
        const upload = new URL(link);
        expect(`${upload.origin}${upload.pathname}`).toMatch(new RegExp(`^${w.t.fk.config.baseUrl}/grp/followed/uploads/[0-9a-f]{32}/9f2e\\.png$`));
        const prefix = new URL(w.t.fk.config.baseUrl).pathname.replace(/\/$/, "");
        const served = await h.request("GET", upload.pathname.slice(prefix.length));
        expect(served).toMatchObject({ status: 200, text: "what the screenshot shows\n", headers: expect.objectContaining({ "content-type": "image/png", "x-content-type-options": "nosniff" }) });
        expect((await h.request("GET", upload.pathname.slice(prefix.length).replace(/uploads\/[0-9a-f]{32}/, `uploads/${"0".repeat(32)}`))).status).toBe(404);
        const other = await h.request("GET", `/api/v4/projects/${id}/issues/3`, { headers: as(w.tokens.alice) });
        expect(other.json).toMatchObject({ author: { username: "alice" }, description: "*Created by: hubot*\n\n", milestone: null, assignees: [] });
        // The imported records show in the project's event feed.
        const events = await h.request("GET", `/api/v4/projects/${id}/events`, { headers: as(w.tokens.alice) });
        expect((events.json as { target_type: string | null }[]).map((e) => e.target_type)).toEqual(expect.arrayContaining(["Issue", "MergeRequest", "Note"]));
      });
    });

    for (const path of ["/import/extforge/cancel", "/import/github/cancel"]) {
      describe(`POST ${path}`, () => {
        it("anonymous → 401; project_id missing → 400", async () => {
          expectJson(await post(path, undefined, { project_id: 1 }), 401, UNAUTHORIZED);
          expectJson(await post(path, w.tokens.alice, {}), 400, { message: '400 (Bad request) "project_id" not given' });
        });
        it("a project that does not exist, or was not imported from the forge → 404", async () => {
          expectJson(await post(path, w.tokens.alice, { project_id: 999_999 }), 404, { message: "404 Not found" });
          expectJson(await post(path, w.tokens.alice, { project_id: w.t.projects.publicProject.id }), 404, { message: "404 Not found" });
        });
        it("below Owner → 403; the Owner cancels a scheduled import → 200 canceled; again → 400", async () => {
          await w.t.fk.workers.stop();
          const started = await post("/import/extforge", w.tokens.alice, forgeBody({ repo_id: 503, new_name: `to-cancel-${path.split("/")[2]}` }));
          const id = (started.json as { id: number }).id;
          await w.t.addMember({ group: w.t.groups.grp }, w.t.users.bob, AccessLevel.Maintainer).catch(() => undefined);
          expectJson(await post(path, w.tokens.bob, { project_id: id }), 403, { message: "403 Forbidden - Unauthorized access" });
          const r = await post(path, w.tokens.alice, { project_id: id });
          expectJson(r, 200, expect.objectContaining({ id, import_status: "canceled", human_import_status_name: "canceled", import_source: "octocat/big", provider_link: "/octocat/big" }));
          expectJson(await post(path, w.tokens.alice, { project_id: id }), 400, { message: "The import cannot be canceled because it is canceled" });
        });
      });
    }

    for (const path of ["/import/extforge/gists", "/import/github/gists"]) {
      describe(`POST ${path}`, () => {
        it("anonymous → 401; a token the forge refuses → 401", async () => {
          expectJson(await post(path, undefined, { personal_access_token: FORGE_TOKEN }), 401, UNAUTHORIZED);
          expectJson(await post(path, w.tokens.alice, { personal_access_token: "nope" }), 401, UNAUTHORIZED);
        });
      });
    }

    describe("gists import", () => {
      it("202 when started; 422 while one is running for the user; a gist of 10 files becomes a snippet, the one of 11 is skipped", { timeout: 2 * SETTLE_MS }, async () => {
        await w.t.fk.workers.stop();
        const first = await h.request("POST", "/api/v4/import/github/gists", { headers: as(w.tokens.bob), json: { personal_access_token: FORGE_TOKEN } });
        expect(first.status).toBe(202);
        expectJson(await post("/import/extforge/gists", w.tokens.bob, { personal_access_token: FORGE_TOKEN }), 422, { message: "Import already in progress" });
        expect(w.t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
        let jobs: { state: string }[] = [];
        // Until it settles: a generous limit, so that a loaded machine only makes the test slower.
        for (const started = Date.now(); Date.now() - started < SETTLE_MS; ) {
          jobs = (await must(w.t.fk.jobs.list({ kind: "imports.gists" }))).items;
          if (jobs.every((j) => j.state === "succeeded" || j.state === "failed")) break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(jobs.map((j) => j.state)).toEqual(["succeeded"]);
        const snippets = await w.t.store.activity.snippets.findById(1);
        expect(snippets).toMatchObject({ authorId: w.t.users.bob.id, title: "ten files", fileName: "f0.txt", visibility: "public" });
        // The snippet says the import wrote it (reference `imported` / `imported_from`).
        expect((await h.request("GET", "/api/v4/snippets/1", { headers: as(w.tokens.bob) })).json).toMatchObject({ imported: true, imported_from: "extforge" });
        expect(await w.t.store.activity.snippets.findById(2)).toBeNull();
        // One message lists the skipped gist.
        expect(w.notified).toHaveLength(1);
        expect(w.notified[0]).toMatchObject({ username: "bob", subject: "Some gists were not imported" });
        expect(w.notified[0]?.body).toContain("(11 files): eleven files");
        // A new gists import may start once the first ended.
        expect((await post("/import/extforge/gists", w.tokens.bob, { personal_access_token: FORGE_TOKEN })).status).toBe(202);
      });
    });

    for (const family of [
      { path: "/import/extserver", names: { url: "extserver_url", username: "extserver_username", project: "extserver_project", repo: "extserver_repo" } },
      { path: "/import/bitbucket_server", names: { url: "bitbucket_server_url", username: "bitbucket_server_username", project: "bitbucket_server_project", repo: "bitbucket_server_repo" } },
    ]) {
      describe(`POST ${family.path}`, () => {
        const body = (extra: Record<string, unknown> = {}) => ({
          [family.names.url]: w.server.url,
          [family.names.username]: "bb-user",
          personal_access_token: SERVER_TOKEN,
          [family.names.project]: "PRJ",
          [family.names.repo]: "repo",
          ...extra,
        });
        it("anonymous → 401", async () => expectJson(await post(family.path, undefined, body()), 401, UNAUTHORIZED));
        it("a missing attribute → 400 with the spec's body", async () => {
          for (const name of [family.names.url, family.names.username, "personal_access_token", family.names.project, family.names.repo]) {
            const b: Record<string, unknown> = body();
            delete b[name];
            expectJson(await post(family.path, w.tokens.alice, b), 400, { message: `400 (Bad request) "${name}" not given` });
          }
        });
        it("a repository the server does not have → 422", async () => {
          expectJson(await post(family.path, w.tokens.alice, body({ [family.names.repo]: "missing" })), 422, { message: "Project PRJ/missing could not be found" });
        });
        it("a server that cannot be reached → 400", async () => {
          const r = await post(family.path, w.tokens.alice, body({ [family.names.url]: "http://127.0.0.1:1" }));
          expect(r.status).toBe(400);
          expect((r.json as { message: string }).message).toMatch(/^Import failed due to a BitBucket Server error: /);
        });
        it("success → 201 into the caller's personal namespace when no namespace is given", async () => {
          const r = await post(family.path, w.tokens.alice, body({ new_name: `server-${family.names.url}` }));
          expectJson(r, 201, expect.objectContaining({ name: `server-${family.names.url}`, full_path: `/alice/server-${family.names.url}`, import_source: "PRJ/repo", import_status: "scheduled" }));
        });
      });
    }

    describe("rate limit of the forge", () => {
      it("POST /import/extforge while the forge's rate limit is exhausted → 429", async () => {
        w.forge.exhaustRateLimit(Date.now() + 60_000);
        const r = await post("/import/extforge", w.tokens.alice, forgeBody({ new_name: "limited" }));
        w.forge.exhaustRateLimit(0);
        expect(r.status).toBe(429);
        expect(r.json).toEqual({ message: "429 Too Many Requests" });
        expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
      });
    });
  });
};
