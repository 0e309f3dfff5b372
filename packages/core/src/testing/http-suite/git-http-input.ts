/**
 * Git over HTTP under bad input (forgekit issue 23): a path no store can hold names no project
 * (never a 500 from the store), a request body that is not a git request is the client's error
 * (400), logged without echoing the client's bytes, and a push whose objects fail git's checks
 * (a tree holding `.git`, CVE-2014-9390) is refused whole.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import type { LogLevel } from "../../ports/runtime.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const NOT_FOUND_TEXT = "The project you were looking for could not be found or you don't have permission to view it.\n";

/** HTTP suite: git paths holding a NUL byte, and malformed git request bodies. */
export const gitHttpInputSuite: HttpSuite = (h: HttpHarness) => {
  describe("git over HTTP: bad input", () => {
    let t: TestForgekit;
    const logged: { level: LogLevel; event: string; fields: string }[] = [];
    const alice = () => basic("alice", t.tokens.alice);

    beforeAll(async () => {
      t = await createTestForgekit({ logger: { log: (level, event, fields) => logged.push({ level, event, fields: JSON.stringify(fields ?? {}) }) } });
      await h.serve(t.fk);
    });

    describe("a NUL byte in the git path names no project", () => {
      const targets = (path: string) => [
        ["GET", `/${path}%00.git/info/refs?service=git-upload-pack`],
        ["GET", `/${path.replace("/", "%00/")}.git/info/refs?service=git-upload-pack`],
        ["GET", `/${path}.git%00/info/refs?service=git-receive-pack`],
        ["POST", `/${path}%00.git/git-upload-pack`],
        ["POST", `/${path}%00/git-receive-pack`],
      ] as const;
      const post = { "content-type": "application/x-git-upload-pack-request" };

      it("without credentials → 401 with the Basic challenge, as for any unknown project", async () => {
        for (const [method, target] of targets(t.projects.personal.fullPath)) {
          const r = await h.raw(method, target, method === "POST" ? { headers: post, body: "0000" } : {});
          expect([target, r.status, r.headers["www-authenticate"]]).toEqual([target, 401, 'Basic realm="GitLab"']);
        }
      });

      it("with credentials → 404 with the reference's text; nothing is logged as an error", async () => {
        const before = logged.length;
        for (const [method, target] of targets(t.projects.personal.fullPath)) {
          const r = await h.raw(method, target, { headers: { authorization: alice(), ...(method === "POST" ? post : {}) }, ...(method === "POST" ? { body: "0000" } : {}) });
          expect([target, r.status, r.text]).toEqual([target, 404, NOT_FOUND_TEXT]);
        }
        expect(logged.slice(before).filter((l) => l.level === "error")).toEqual([]);
      });

      it("a NUL byte in the Basic username or password names nobody → 401", async () => {
        const target = `/${t.projects.personal.fullPath}.git/info/refs?service=git-upload-pack`;
        for (const authorization of [basic("ali\u0000ce", t.tokens.alice), basic("alice", `${t.tokens.alice}\u0000`), basic("alice", "alice-pass\u0000word")]) {
          const r = await h.raw("GET", target, { headers: { authorization } });
          expect([authorization, r.status]).toEqual([authorization, 401]);
        }
      });
    });

    describe("POST git-upload-pack / git-receive-pack with a body that is not a git request", () => {
      const endpoint = (service: string) => `/${t.projects.personal.fullPath}.git/${service}`;
      const headers = (service: string, extra: Record<string, string> = {}) => ({ authorization: alice(), "content-type": `application/x-${service}-request`, ...extra });
      const echoes = (from: number, bytes: string) => logged.slice(from).filter((l) => l.fields.includes(bytes) || l.event.includes(bytes));

      beforeAll(async () => {
        // alice's project has its (empty) repository: git serves it.
        const r = await h.request("GET", `/${t.projects.personal.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: alice() } });
        expect(r.status).toBe(200);
      });

      for (const service of ["git-upload-pack", "git-receive-pack"]) {
        it(`${service}: 64 MiB of "A" → 400; the warning does not echo the bytes`, async () => {
          const from = logged.length;
          const r = await h.raw("POST", endpoint(service), { headers: headers(service), body: Buffer.alloc(64 * 1024 * 1024, "A") });
          expect(r.status).toBe(400);
          expect(echoes(from, "AAAAAAAAAAAAAAAA")).toEqual([]);
          expect(logged.slice(from).filter((l) => l.level === "error")).toEqual([]);
        }, 60_000);

        it(`${service}: a truncated pkt-line, or an empty body → 400`, async () => {
          for (const body of ["0032want ", "00", ""]) {
            const r = await h.raw("POST", endpoint(service), { headers: headers(service), body });
            expect([body, r.status]).toEqual([body, 400]);
          }
        });

        it(`${service}: Content-Encoding: gzip on a body that is not gzip → 400`, async () => {
          const from = logged.length;
          const r = await h.raw("POST", endpoint(service), { headers: headers(service, { "content-encoding": "gzip" }), body: "0032want secret-looking-bytes-XYZZY\n0000" });
          expect(r.status).toBe(400);
          expect(echoes(from, "XYZZY")).toEqual([]);
          // A gzip body holding garbage is the same client error.
          const inner = await h.raw("POST", endpoint(service), { headers: headers(service, { "content-encoding": "gzip" }), body: gzipSync(Buffer.from("zzzz-XYZZY")) });
          expect(inner.status).toBe(400);
          expect(echoes(from, "XYZZY")).toEqual([]);
        });
      }
    });

    describe("POST git-receive-pack: pushed objects are checked (fsck)", () => {
      let git: GitClient;
      beforeAll(() => {
        git = createGitClient();
      });
      afterAll(() => git.cleanup());

      for (const [i, name] of [".git", ".GIT", "git~1"].entries()) {
        it(`a tree holding \`${name}/config\` is refused with git's message; nothing is stored and no ref moves`, async () => {
          const project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: `fsck-${i}`, name: `fsck ${i}`, visibility: "private", creatorId: t.users.alice.id });
          const remote = gitUrl(h.url(), `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice });
          const work = git.path(`evil-${name}`);
          await git.must(["init", "-q", work]);
          // Plumbing: porcelain refuses to add such a path, a hostile client does not use it.
          const config = (await git.must(["hash-object", "-w", "--stdin"], { cwd: work, input: "[core]\n\tfsmonitor = touch pwned\n" })).trim();
          const inner = (await git.must(["mktree"], { cwd: work, input: `100644 blob ${config}\tconfig\n` })).trim();
          const tree = (await git.must(["mktree"], { cwd: work, input: `040000 tree ${inner}\t${name}\n` })).trim();
          const commit = (await git.must(["commit-tree", tree, "-m", "evil"], { cwd: work })).trim();
          const pushed = await git.run(["push", remote, `${commit}:refs/heads/main`], { cwd: work });
          expect(pushed.code).not.toBe(0);
          expect(pushed.stderr).toContain("hasDotgit: contains '.git'");
          expect(pushed.stderr).toContain("[remote rejected]");
          const refs = await h.request("GET", `/${project.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: alice() } });
          expect(refs.status).toBe(200);
          expect(refs.text).not.toContain(commit);
          expect(refs.text).not.toContain("refs/heads/main");
          const dir = t.fk.config.repositoryStorage.localPath?.(project.repositoryStorage, { kind: "project", id: project.id }) ?? "";
          for (const object of [commit, tree, inner]) expect((await git.run(["--git-dir", dir, "cat-file", "-e", object])).code).not.toBe(0);
        });
      }

      it("an ordinary push after a refused one is accepted", async () => {
        const project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "fsck-clean", name: "fsck clean", visibility: "private", creatorId: t.users.alice.id });
        const work = git.path("clean");
        await git.must(["init", "-q", work]);
        const blob = (await git.must(["hash-object", "-w", "--stdin"], { cwd: work, input: "fine\n" })).trim();
        const tree = (await git.must(["mktree"], { cwd: work, input: `100644 blob ${blob}\tgit.txt\n` })).trim();
        const commit = (await git.must(["commit-tree", tree, "-m", "clean"], { cwd: work })).trim();
        await git.must(["push", "-q", gitUrl(h.url(), `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice }), `${commit}:refs/heads/main`], { cwd: work });
      });
    });
  });
};
