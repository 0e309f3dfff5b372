/**
 * Git over HTTP (issue 9 §2) with the real `git` CLI: clone, fetch and push through the host under
 * test, with each credential kind, wrong ones, scopes, roles, a read-only repository, and the push
 * events the events API then lists.
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const UNAUTHORIZED_TEXT = "HTTP Basic: Access denied.";

/** An OAuth access token for `user` (password grant of a registered application). */
async function oauthToken(t: TestForgekit, user: User, password: string, scopes: string[]): Promise<string> {
  const app = await must(t.fk.oauth.applications.create({ name: `git ${scopes.join(" ")}`, redirectUris: ["https://a.example/cb"], scopes: ["api", "read_repository", "write_repository", "read_user"], ropcEnabled: true }));
  const body = new URLSearchParams({ grant_type: "password", username: user.username, password, scope: scopes.join(" "), client_id: app.application.uid, client_secret: app.clientSecret });
  const r = await t.fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new TextEncoder().encode(body.toString()) });
  return (JSON.parse(String(r.body)) as { access_token: string }).access_token;
}

/**
 * HTTP suite: git over HTTP (smart protocol) — ref advertisement, upload-pack and receive-pack with and
 * without credentials, and the refusals.
 */
export const gitHttpSuite: HttpSuite = (h: HttpHarness) => {
  describe("git over HTTP", () => {
    let t: TestForgekit;
    let git: GitClient;
    let base: string;
    /** A project alice owns (private, in her namespace) with one commit on main. */
    let repo: Project;
    let seedSha: string;
    const url = (project: Project, credentials?: { username: string; password: string }) => gitUrl(base, `${project.fullPath}.git`, credentials);
    const alice = () => ({ username: "alice", password: t.tokens.alice });

    /** A working copy with one new commit (file `name`), ready to push to `remote`. */
    async function commitIn(dir: string, name: string, message: string) {
      writeFileSync(join(dir, name), `${name}\n`);
      await git.must(["add", name], { cwd: dir });
      await git.must(["commit", "-q", "-m", message], { cwd: dir });
      return (await git.must(["rev-parse", "HEAD"], { cwd: dir })).trim();
    }

    beforeAll(async () => {
      t = await createTestForgekit();
      base = await h.serve(t.fk);
      git = createGitClient();
      repo = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "git-repo", name: "git-repo", visibility: "private", creatorId: t.users.alice.id });
      const work = git.path("seed");
      await git.must(["init", "-q", work]);
      seedSha = await commitIn(work, "README.md", "Initial commit");
      await git.must(["push", "-q", url(repo, alice()), "main"], { cwd: work });
      // The public project gets the same history, for anonymous clones.
      await git.must(["push", "-q", url(t.projects.publicProject, alice()), "main"], { cwd: work });
    });
    afterAll(() => git.cleanup());

    describe("GET /:namespace/:project.git/info/refs", () => {
      it("upload-pack: the advertisement behind the `# service=` pkt-line, with the smart content type and no caching", async () => {
        const r = await h.request("GET", `/${repo.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic("alice", t.tokens.alice) } });
        expect(r.status).toBe(200);
        expect(r.headers["content-type"]).toBe("application/x-git-upload-pack-advertisement");
        expect(r.headers["cache-control"]).toContain("no-cache");
        expect(r.text.startsWith("001e# service=git-upload-pack\n0000")).toBe(true);
        expect(r.text).toContain(`${seedSha} refs/heads/main`);
      });

      it("protocol v2 (Git-Protocol: version=2): the capability list, without the service line; without .git too", async () => {
        const r = await h.request("GET", `/${repo.fullPath}/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic("alice", t.tokens.alice), "git-protocol": "version=2" } });
        expect(r.status).toBe(200);
        expect(r.text.startsWith("000eversion 2\n")).toBe(true);
      });

      it("without credentials: a private or unknown project → 401 with `WWW-Authenticate: Basic realm=\"GitLab\"` (git then asks)", async () => {
        for (const path of [`/${repo.fullPath}.git`, "/nobody/nothing.git"]) {
          const r = await h.request("GET", `${path}/info/refs`, { query: { service: "git-upload-pack" } });
          expect(r.status).toBe(401);
          expect(r.headers["www-authenticate"]).toBe('Basic realm="GitLab"');
          expect(r.text).toContain(UNAUTHORIZED_TEXT);
        }
      });

      it("with credentials: an unknown or invisible project → 404 with the reference's text", async () => {
        for (const path of ["/nobody/nothing.git", `/${t.projects.hidden.fullPath}.git`]) {
          const r = await h.request("GET", `${path}/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic("bob", t.tokens.bob) } });
          expect(r.status).toBe(404);
          expect(r.text).toBe("The project you were looking for could not be found or you don't have permission to view it.\n");
        }
      });

      it("a member whose project membership expired is refused like a stranger (404); an unexpired member reads", async () => {
        const member = async (username: string, expiresAt: Date) => {
          const user = await t.createUser({ username });
          await must(t.fk.members.add({ sourceType: "project", sourceId: repo.id, userId: user.id, accessLevel: AccessLevel.Developer, expiresAt }));
          return basic(username, (await t.createToken(user.id, { scopes: ["read_repository"] })).plaintext);
        };
        const refs = async (authorization: string) => (await h.request("GET", `/${repo.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization } })).status;
        expect(await refs(await member("git-gone", new Date(t.clock.now().getTime() - 1000)))).toBe(404);
        expect(await refs(await member("git-kept", new Date(t.clock.now().getTime() + 86_400_000)))).toBe(200);
      });

      it("a dumb-protocol request (no service) or an unknown service → 403; a dumb file path is not forgekit's", async () => {
        for (const query of ["", "service=git-upload-archive"]) {
          const r = await h.request("GET", `/${t.projects.publicProject.fullPath}.git/info/refs`, { query });
          expect(r.status).toBe(403);
          expect(r.text).toBe("The command you're trying to execute is not allowed.\n");
        }
        const head = await h.request("GET", `/${t.projects.publicProject.fullPath}.git/HEAD`);
        expect(head.status).toBe(404);
        expect(head.headers["content-type"] ?? "").not.toContain("git");
      });

      it("receive-pack needs credentials even on a public project", async () => {
        const r = await h.request("GET", `/${t.projects.publicProject.fullPath}.git/info/refs`, { query: { service: "git-receive-pack" } });
        expect(r.status).toBe(401);
        expect(r.headers["www-authenticate"]).toBe('Basic realm="GitLab"');
      });
    });

    describe("POST /:namespace/:project.git/git-upload-pack (clone, fetch)", () => {
      const clones = async (target: string) => (await git.run(["clone", "-q", target, git.path("clone")])).code === 0;

      it("anonymous clone of a public project works; of a private one fails with 401", async () => {
        const dir = git.path("public");
        await git.must(["clone", "-q", url(t.projects.publicProject), dir]);
        expect((await git.must(["log", "-1", "--format=%s"], { cwd: dir })).trim()).toBe("Initial commit");
        const denied = await git.run(["clone", "-q", url(repo), git.path("denied")]);
        expect(denied.code).not.toBe(0);
        expect(denied.stderr).toMatch(/could not read Username|Authentication failed|401/);
      });

      it("a personal access token as the password (any username), then fetch", async () => {
        const dir = git.path("pat");
        await git.must(["clone", "-q", url(repo, { username: "whoever", password: t.tokens.alice }), dir]);
        expect((await git.must(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(seedSha);
        await git.must(["fetch", "-q", "origin"], { cwd: dir });
      });

      it("an OAuth access token with username oauth2 (read_repository)", async () => {
        const token = await oauthToken(t, t.users.alice, "alice-password", ["read_repository"]);
        expect(await clones(url(repo, { username: "oauth2", password: token }))).toBe(true);
      });

      it("a project access token (its bot is a member)", async () => {
        const { plaintext } = await must(t.fk.tokens.createProjectToken(repo.id, { name: "ci", scopes: ["read_repository"], accessLevel: AccessLevel.Reporter }));
        expect(await clones(url(repo, { username: "project-bot", password: plaintext }))).toBe(true);
      });

      it("the user's password; a wrong password → 401 and git says authentication failed", async () => {
        expect(await clones(url(repo, { username: "alice", password: "alice-password" }))).toBe(true);
        const wrong = await git.run(["clone", "-q", url(repo, { username: "alice", password: "not-her-password" }), git.path("wrong")]);
        expect(wrong.code).not.toBe(0);
        expect(wrong.stderr).toContain("Authentication failed");
        const r = await h.request("GET", `/${repo.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic("alice", "not-her-password") } });
        expect(r.status).toBe(401);
        expect(r.headers["www-authenticate"]).toBe('Basic realm="GitLab"');
      });

      it("a token without read_repository, write_repository or api → 403 \"You are not allowed to download code.\"", async () => {
        const { plaintext } = await t.createToken(t.users.alice.id, { scopes: ["read_user"] });
        const r = await git.run(["clone", "-q", url(repo, { username: "alice", password: plaintext }), git.path("scope")]);
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain("You are not allowed to download code.");
      });

      it("a Guest of a private project cannot fetch (403 \"You are not allowed to download code from this project.\")", async () => {
        const guest = await t.createUser({ username: "git-guest" });
        await t.addMember({ project: repo }, guest, AccessLevel.Guest);
        const { plaintext } = await t.createToken(guest.id, { scopes: ["read_repository"] });
        const r = await git.run(["clone", "-q", url(repo, { username: "git-guest", password: plaintext }), git.path("guest")]);
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain("You are not allowed to download code from this project.");
      });

      it("a blocked user's token and password are refused (401)", async () => {
        const carol = await t.createUser({ username: "git-carol", password: "carol-password" });
        await t.addMember({ project: repo }, carol, AccessLevel.Developer);
        const { plaintext } = await t.createToken(carol.id, { scopes: ["read_repository"] });
        expect(await clones(url(repo, { username: "git-carol", password: plaintext }))).toBe(true);
        await t.store.users.update(carol.id, { state: "blocked" });
        for (const password of [plaintext, "carol-password"]) {
          const r = await git.run(["clone", "-q", url(repo, { username: "git-carol", password }), git.path("blocked")]);
          expect(r.code).not.toBe(0);
          expect(r.stderr).toContain("Authentication failed");
        }
      });

      it("revoked and expired tokens are refused (401)", async () => {
        const revoked = await t.createToken(t.users.alice.id, { scopes: ["read_repository"] });
        await must(t.fk.tokens.revoke(revoked.token.id));
        const expired = await t.createToken(t.users.alice.id, { scopes: ["read_repository"], expiresAt: "2024-05-02" });
        t.clock.advance(3 * 24 * 3600 * 1000);
        for (const password of [revoked.plaintext, expired.plaintext]) {
          const r = await h.request("GET", `/${repo.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic("alice", password) } });
          expect(r.status).toBe(401);
        }
      });

      it("a gzip request body (Content-Encoding: gzip) is decoded", async () => {
        const request = Buffer.from(`0032want ${seedSha}\n00000009done\n`, "ascii");
        const r = await h.request("POST", `/${repo.fullPath}.git/git-upload-pack`, {
          headers: { authorization: basic("alice", t.tokens.alice), "content-type": "application/x-git-upload-pack-request", "content-encoding": "gzip" },
          body: gzipSync(request),
        });
        expect(r.status).toBe(200);
        expect(r.headers["content-type"]).toBe("application/x-git-upload-pack-result");
        expect(r.text.startsWith("0008NAK\nPACK")).toBe(true);
      });

      it("a wrong content type → 415; an unknown content encoding → 415", async () => {
        const headers = { authorization: basic("alice", t.tokens.alice) };
        expect((await h.request("POST", `/${repo.fullPath}.git/git-upload-pack`, { headers: { ...headers, "content-type": "text/plain" }, body: "0000" })).status).toBe(415);
        expect((await h.request("POST", `/${repo.fullPath}.git/git-upload-pack`, { headers: { ...headers, "content-type": "application/x-git-upload-pack-request", "content-encoding": "br" }, body: "x" })).status).toBe(415);
      });
    });

    describe("POST /:namespace/:project.git/git-receive-pack (push)", () => {
      it("a Developer pushes with a personal access token; the events API lists pushed new / pushed to / deleted, branch and tag", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "pushed", name: "pushed", visibility: "private", creatorId: t.users.alice.id });
        const dev = await t.createUser({ username: "git-dev" });
        await t.addMember({ project }, dev, AccessLevel.Developer);
        const { plaintext } = await t.createToken(dev.id, { scopes: ["write_repository"] });
        const remote = url(project, { username: "git-dev", password: plaintext });
        // A Developer may push the first commit at default_branch_protection 4 only (the default 2 keeps it for Maintainers).
        await must(t.fk.protectedRefs.setDefaultBranchProtection(4));
        const work = git.path("push");
        await git.must(["init", "-q", work]);
        const first = await commitIn(work, "a.txt", "First");
        const second = await commitIn(work, "b.txt", "Second commit");
        await git.must(["push", "-q", remote, "main"], { cwd: work });
        // main became the default branch and, as in the reference, Maintainer-protected; this case is about the events.
        await must(t.fk.protectedRefs.setDefaultBranchProtection(null));
        await must(t.fk.protectedRefs.unprotect(project.id, "branch", "main"));
        const third = await commitIn(work, "c.txt", "Third");
        await git.must(["push", "-q", remote, "main"], { cwd: work });
        await git.must(["tag", "v1"], { cwd: work });
        await git.must(["push", "-q", remote, "v1", `${first}:refs/heads/old`], { cwd: work });
        await git.must(["push", "-q", remote, ":refs/heads/old"], { cwd: work });

        const events = await h.request("GET", `/api/v4/projects/${project.id}/events`, { query: { action: "pushed" }, headers: { "private-token": t.tokens.alice } });
        expect(events.status).toBe(200);
        const rows = (events.json as { action_name: string; author_id: number; push_data: Record<string, unknown> }[]).map((e) => ({ action_name: e.action_name, author_id: e.author_id, ...e.push_data }));
        // Newest first.
        expect(rows).toEqual([
          expect.objectContaining({ action_name: "deleted", author_id: dev.id, action: "removed", ref_type: "branch", ref: "old", commit_from: first, commit_to: null, commit_count: 0 }),
          expect.objectContaining({ action_name: "pushed new", action: "created", ref_type: "branch", ref: "old", commit_from: null, commit_to: first, commit_count: 0 }),
          expect.objectContaining({ action_name: "pushed new", action: "created", ref_type: "tag", ref: "v1", commit_to: third, commit_count: 1, commit_title: "Third" }),
          expect.objectContaining({ action_name: "pushed to", action: "pushed", ref_type: "branch", ref: "main", commit_from: second, commit_to: third, commit_count: 1, commit_title: "Third" }),
          expect.objectContaining({ action_name: "pushed new", action: "created", ref_type: "branch", ref: "main", commit_from: null, commit_to: second, commit_count: 2, commit_title: "Second commit" }),
        ]);
        const shown = await h.request("GET", `/api/v4/projects/${project.id}`, { headers: { "private-token": t.tokens.alice } });
        expect((shown.json as { default_branch: string | null }).default_branch).toBe("main");
      });

      it("the first branch pushed into an empty repository becomes HEAD and the default branch", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "trunk-first", name: "trunk-first", visibility: "private", creatorId: t.users.alice.id });
        const work = git.path("trunk");
        await git.must(["init", "-q", "-b", "trunk", work]);
        await commitIn(work, "t.txt", "On trunk");
        await git.must(["push", "-q", url(project, alice()), "trunk"], { cwd: work });
        const shown = await h.request("GET", `/api/v4/projects/${project.id}`, { headers: { "private-token": t.tokens.alice } });
        expect((shown.json as { default_branch: string | null }).default_branch).toBe("trunk");
        const clone = git.path("trunk-clone");
        await git.must(["clone", "-q", url(project, alice()), clone]);
        expect((await git.must(["rev-parse", "--abbrev-ref", "HEAD"], { cwd: clone })).trim()).toBe("trunk");
      });

      it("an OAuth token with write_repository pushes; one with read_repository cannot (\"You are not allowed to upload code.\")", async () => {
        const work = git.path("oauth-push");
        await git.must(["clone", "-q", url(repo, alice()), work]);
        await commitIn(work, "oauth.txt", "Pushed with OAuth");
        const read = await oauthToken(t, t.users.alice, "alice-password", ["read_repository"]);
        // A branch of its own: main keeps the seed commit the other tests read.
        const denied = await git.run(["push", "-q", url(repo, { username: "oauth2", password: read }), "HEAD:refs/heads/oauth-push"], { cwd: work });
        expect(denied.code).not.toBe(0);
        expect(denied.stderr).toContain("You are not allowed to upload code.");
        const write = await oauthToken(t, t.users.alice, "alice-password", ["write_repository"]);
        await git.must(["push", "-q", url(repo, { username: "oauth2", password: write }), "HEAD:refs/heads/oauth-push"], { cwd: work });
        expect((await git.must(["ls-remote", url(repo, alice()), "refs/heads/oauth-push"], { cwd: work })).split("\t")[0]).toBe((await git.must(["rev-parse", "HEAD"], { cwd: work })).trim());
      });

      it("a Reporter cannot push (403 \"You are not allowed to push code to this project.\")", async () => {
        const work = git.path("reporter");
        await git.must(["clone", "-q", url(t.projects.publicProject), work]);
        await commitIn(work, "r.txt", "Reporter's commit");
        // bob is a Reporter of the internal project; give him the public history there first.
        await git.must(["push", "-q", url(t.projects.internalProject, alice()), "main"], { cwd: work });
        const r = await git.run(["push", "-q", url(t.projects.internalProject, { username: "bob", password: t.tokens.bob }), "HEAD:refs/heads/bobs"], { cwd: work });
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain("You are not allowed to push code to this project.");
      });

      it("a pack larger than the JSON body limit streams through both ways (no 413)", async () => {
        const work = git.path("big");
        await git.must(["clone", "-q", url(repo, alice()), work]);
        // Incompressible: the pack is about as large as the file.
        writeFileSync(join(work, "big.bin"), randomBytes(t.fk.maxBodyBytes + 512 * 1024));
        await git.must(["add", "big.bin"], { cwd: work });
        await git.must(["commit", "-q", "-m", "A big file"], { cwd: work });
        await git.must(["push", "-q", url(repo, alice()), "HEAD:refs/heads/big-file"], { cwd: work });
        const copy = git.path("big-copy");
        await git.must(["clone", "-q", "-b", "big-file", url(repo, alice()), copy]);
        expect((await git.must(["log", "-1", "--format=%s"], { cwd: copy })).trim()).toBe("A big file");
      });

      it("anonymous pushes are refused, even to a public project", async () => {
        const work = git.path("anon-push");
        await git.must(["clone", "-q", url(t.projects.publicProject), work]);
        await commitIn(work, "anon.txt", "Anonymous");
        const r = await git.run(["push", "-q", "origin", "main"], { cwd: work });
        expect(r.code).not.toBe(0);
      });

      it("a read-only repository refuses pushes with the message git prints; fetches keep working", async () => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "moving", name: "moving", visibility: "private", creatorId: t.users.alice.id });
        const work = git.path("ro");
        await git.must(["init", "-q", work]);
        await commitIn(work, "x.txt", "Before the move");
        await git.must(["push", "-q", url(project, alice()), "main"], { cwd: work });
        await t.store.projects.update(project.id, { repositoryReadOnly: true });
        await commitIn(work, "y.txt", "During the move");
        const r = await git.run(["push", url(project, alice()), "main"], { cwd: work });
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain("remote: The repository is temporarily read-only. Please try again later.");
        await git.must(["fetch", "-q", url(project, alice())], { cwd: work });
        await t.store.projects.update(project.id, { repositoryReadOnly: false });
        await git.must(["push", "-q", url(project, alice()), "main"], { cwd: work });
      });
    });
  });
};
