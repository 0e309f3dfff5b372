import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExtServerStandIn, type ExtServerStandIn } from "../../testing/import-stand-ins/index.js";
import { externalFailureOf, type ExternalFailure } from "../external-failure.js";
import { fetchExtServer, type ExtServerClient, type ExtServerClientOptions, type ExtServerPage } from "./client.js";

const TOKEN = "BBDC-secret-token-abcdef";
let server: ExtServerStandIn;

async function collect<T>(pages: AsyncIterable<ExtServerPage<T>>): Promise<ExtServerPage<T>[]> {
  const out: ExtServerPage<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

async function failureOf(promise: Promise<unknown>): Promise<ExternalFailure> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const failure = externalFailureOf(error);
  if (failure === undefined) throw new Error(`expected an ExternalFailure, got ${String(error)}`);
  return failure;
}

const client = (options: Partial<ExtServerClientOptions> = {}): ExtServerClient =>
  fetchExtServer({ url: server.url, username: "alice", token: TOKEN, allowLocalNetwork: true, ...options });

const runGit = (args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<{ status: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile("git", args, { cwd, env, encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr });
    });
  });

beforeAll(async () => {
  server = await startExtServerStandIn({
    users: [
      { name: "alice", token: TOKEN, displayName: "Alice A", email: "alice@example.test" },
      { name: "bob", token: "bob-token" },
    ],
    repos: [
      {
        id: 5,
        projectKey: "PRJ",
        slug: "app",
        name: "App",
        git: {
          commits: [
            { message: "init", files: { "a.txt": "a\n" }, tags: ["v1"] },
            { branch: "topic", message: "topic", files: { "b.txt": "b\n" } },
          ],
        },
        pullRequests: [
          {
            id: 1,
            title: "Topic",
            description: "Adds b",
            state: "MERGED",
            author: "bob",
            from: "topic",
            comments: [
              { id: 100, text: "Looks good", author: "alice", replies: [{ id: 101, text: "Thanks", author: "bob" }] },
              { id: 102, text: "Typo here", anchor: { path: "b.txt", line: 1 } },
            ],
            activities: [{ id: 900, action: "APPROVED", user: "alice" }],
          },
          { id: 2, title: "Declined", state: "DECLINED", from: "topic" },
          { id: 3, title: "Open", from: "topic" },
        ],
        generatedPullRequests: 120,
      },
    ],
  });
});
afterAll(async () => server.close());

describe("repository (GET /rest/api/1.0/projects/{key}/repos/{slug})", () => {
  it("reads the repository with its http clone URL", async () => {
    expect(await client().repository("PRJ", "app")).toEqual({
      id: 5,
      slug: "app",
      name: "App",
      description: null,
      projectKey: "PRJ",
      projectName: "Project PRJ",
      public: false,
      cloneUrl: `${server.url}/scm/prj/app.git`,
      webUrl: `${server.url}/projects/PRJ/repos/app/browse`,
    });
  });

  it("answers not_found for an unknown repository or project, with the server's message", async () => {
    expect(await failureOf(client().repository("PRJ", "nope"))).toMatchObject({ reason: "not_found", status: 404, detail: "Repository PRJ/nope does not exist." });
    expect(await failureOf(client().repository("NOPE", "app"))).toMatchObject({ reason: "not_found", detail: "Project NOPE does not exist." });
  });

  it("answers unauthorized for a wrong token, without the token in any message", async () => {
    const failure = await failureOf(client({ token: "wrong-token-xyz" }).repository("PRJ", "app"));
    expect(failure).toMatchObject({ reason: "unauthorized", status: 401, service: "extserver" });
    expect(JSON.stringify({ m: failure.message, d: failure.detail, s: failure.stack })).not.toContain("wrong-token-xyz");
  });

  it("answers unreachable when nothing listens", async () => {
    const failure = await failureOf(client({ url: "http://127.0.0.1:1" }).repository("PRJ", "app"));
    expect(failure.reason).toBe("unreachable");
    expect(failure.message).not.toContain(TOKEN);
  });

  for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
    it(`answers unreachable (retried), not blocked_url, when the host name cannot be resolved (${code})`, async () => {
      const lookup = (hostname: string) => Promise.reject(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }));
      const c = client({ url: "https://bitbucket.invalid", allowLocalNetwork: false, lookup });
      const failure = await failureOf(c.repository("PRJ", "app"));
      expect(failure).toMatchObject({ reason: "unreachable", message: "Could not resolve the repository server's host name (bitbucket.invalid)" });
      const repository = await client().repository("PRJ", "app");
      const git = await failureOf(c.gitAccess({ ...repository, cloneUrl: "https://bitbucket.invalid/scm/prj/app.git" }));
      expect(git).toMatchObject({ reason: "unreachable", message: "Could not resolve the repository server's host name (bitbucket.invalid)" });
    });
  }

  it("answers blocked_url for a loopback server without allowLocalNetwork, before connecting", async () => {
    const before = server.requests.length;
    expect((await failureOf(client({ allowLocalNetwork: false }).repository("PRJ", "app"))).reason).toBe("blocked_url");
    expect(server.requests.length).toBe(before);
  });

  it("answers failed for a server that is not a repository server", async () => {
    const other = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      expect((await failureOf(client({ url }).repository("PRJ", "app"))).reason).toBe("failed");
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

describe("pullRequests (state=ALL)", () => {
  it("pages through every pull request with start / limit / nextPageStart, oldest first", async () => {
    const pages = await collect(client().pullRequests("PRJ", "app", { limit: 50 }));
    expect(pages.map((p) => [p.start, p.items.length, p.nextStart])).toEqual([
      [0, 50, 50],
      [50, 50, 100],
      [100, 23, null],
    ]);
    const items = pages.flatMap((p) => p.items);
    expect(items.slice(0, 3).map((p) => [p.id, p.state, p.sourceBranch, p.targetBranch])).toEqual([
      [1, "merged", "topic", "main"],
      [2, "declined", "topic", "main"],
      [3, "open", "topic", "main"],
    ]);
    expect(items[0]).toMatchObject({ title: "Topic", description: "Adds b", author: { name: "bob" }, sourceSha: server.git["PRJ/app"]?.branches["topic"] });
    expect(items[0]?.closedAt).toBeInstanceOf(Date);
    expect(items[2]?.closedAt).toBeNull();
    expect(new Set(items.map((p) => p.id)).size).toBe(123);
  });

  it("resumes from a start", async () => {
    const pages = await collect(client().pullRequests("PRJ", "app", { start: 100, limit: 50 }));
    expect(pages.map((p) => p.start)).toEqual([100]);
    expect(pages[0]?.items[0]?.id).toBe(101);
  });
});

describe("activities", () => {
  it("reads comments with replies and diff anchors, and other actions", async () => {
    const items = (await collect(client().activities("PRJ", "app", 1, { limit: 2 }))).flatMap((p) => p.items);
    expect(items.map((a) => a.action)).toEqual(["APPROVED", "COMMENTED", "COMMENTED"]);
    const comments = items.filter((a) => a.comment !== null).map((a) => a.comment);
    expect(comments.map((c) => [c?.id, c?.text, c?.author?.name, c?.anchor?.path ?? null, c?.replies.map((r) => r.text)])).toEqual([
      [102, "Typo here", "alice", "b.txt", []],
      [100, "Looks good", "alice", null, ["Thanks"]],
    ]);
    expect(comments[1]?.author).toEqual({ name: "alice", displayName: "Alice A", email: "alice@example.test", slug: "alice" });
  });

  it("answers not_found for an unknown pull request", async () => {
    expect((await failureOf(collect(client().activities("PRJ", "app", 999)))).reason).toBe("not_found");
  });
});

describe("gitAccess", () => {
  it("clones with Basic credentials in an http.extraHeader, never in the URL", async () => {
    const c = client();
    const access = await c.gitAccess(await c.repository("PRJ", "app"));
    expect(access.url).toBe(`${server.url}/scm/prj/app.git`);
    expect(JSON.stringify(access)).not.toContain(TOKEN);
    const dir = mkdtempSync(join(tmpdir(), "fk-bb-clone-"));
    try {
      const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...access.env };
      const clone = await runGit(["clone", "-q", "--mirror", access.url, join(dir, "m.git")], env);
      expect(clone.stderr).toBe("");
      const refs = (await runGit(["for-each-ref", "--format=%(refname) %(objectname)"], env, join(dir, "m.git"))).stdout;
      expect(refs).toContain(`refs/heads/topic ${server.git["PRJ/app"]?.branches["topic"] ?? "?"}`);
      expect(refs).toContain("refs/tags/v1 ");
      const wrong = fetchExtServer({ url: server.url, username: "alice", token: "nope", allowLocalNetwork: true });
      const denied = await runGit(["ls-remote", access.url], { ...env, ...(await wrong.gitAccess(await c.repository("PRJ", "app"))).env });
      expect(denied.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
