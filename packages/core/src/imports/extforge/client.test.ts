import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExtForgeStandIn, type ExtForgeStandIn } from "../../testing/import-stand-ins/index.js";
import { externalFailureOf, type ExternalFailure } from "../external-failure.js";
import { extForgeApiUrl, restExtForge, toExtForgeFailure, type ExtForgeClientOptions, type ExtForgePage } from "./client.js";

/** Runs git without blocking the event loop (the stand-in serves from this process). */
const runGit = (args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<{ status: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile("git", args, { cwd: options.cwd, env: options.env, encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr });
    });
  });

const TOKEN = "ghp_secret_token_0123456789";
const OTHER = "ghp_other_token_987654321";
let forge: ExtForgeStandIn;

/** Collects every page of an iterator. */
async function collect<T>(pages: AsyncIterable<ExtForgePage<T>>): Promise<ExtForgePage<T>[]> {
  const out: ExtForgePage<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** The failure a promise rejects with (fails the test when it resolves or rejects otherwise). */
async function failureOf(promise: Promise<unknown>): Promise<ExternalFailure> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const failure = externalFailureOf(error);
  if (failure === undefined) throw new Error(`expected an ExternalFailure, got ${String(error)}`);
  return failure;
}

const client = (options: Partial<ExtForgeClientOptions> = {}): ReturnType<typeof restExtForge> =>
  restExtForge({ token: TOKEN, hostname: forge.url, allowLocalNetwork: true, ...options });

beforeAll(async () => {
  forge = await startExtForgeStandIn({
    users: [
      { id: 7, login: "octo", name: "Octo Cat", email: "octo@example.test", token: TOKEN, forbidden: [44] },
      { id: 8, login: "other", token: OTHER },
    ],
    repos: [
      {
        id: 42,
        owner: "octo",
        name: "hello",
        description: "A repository",
        git: {
          commits: [
            { message: "first", files: { "README.md": "hello\n" }, tags: ["v1.0"] },
            { branch: "feature", message: "feature work", files: { "feature.txt": "x\n" } },
            { message: "second", files: { "README.md": "hello again\n" } },
          ],
        },
        labels: [{ name: "bug", color: "d73a4a", description: "Something is broken" }, { name: "docs" }],
        milestones: [
          { number: 1, title: "v1", state: "closed", dueOn: "2024-02-01T08:00:00Z" },
          { number: 2, title: "v2" },
        ],
        issues: [
          { number: 1, title: "First bug", body: "It breaks", labels: ["bug"], milestone: 1, author: "other", assignees: ["octo"] },
          { number: 3, title: "Closed one", state: "closed", closedAt: "2024-01-05T00:00:00Z" },
        ],
        pulls: [
          { number: 2, title: "Add feature", head: "feature", state: "merged", body: "Please merge" },
          { number: 4, title: "Open PR", head: "feature", state: "open", draft: true },
          { number: 5, title: "Rejected PR", head: "feature", state: "closed" },
        ],
        comments: [
          { issue: 1, body: "Me too", author: "other" },
          { issue: 2, body: "LGTM" },
          { issue: 1, body: "Fixed?" },
        ],
        reviewComments: [
          { id: 11, pull: 2, body: "Nit", path: "feature.txt", line: 1 },
          { id: 12, pull: 2, body: "Done", path: "feature.txt", line: 1, inReplyTo: 11 },
        ],
        events: [
          { issue: 1, event: "labeled", label: "bug" },
          { issue: 3, event: "closed" },
        ],
        generated: { issues: 250, commentsPerIssue: 2 },
      },
      { id: 43, owner: "other", name: "secret", private: true },
      { id: 44, owner: "octo", name: "noscope" },
    ],
    gists: [
      { owner: "octo", id: "g1", description: "small", files: { "a.txt": "A", "b.md": "# B" } },
      { owner: "octo", id: "g2", description: "big", public: false, files: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, `${i}`])) },
      { owner: "other", id: "g3", files: { "x.txt": "x" } },
    ],
  });
});
afterAll(async () => forge.close());

describe("extForgeApiUrl", () => {
  it("is the public API without a hostname, and <origin>/api/v3 for a custom host", () => {
    expect(extForgeApiUrl(undefined)).toBe("https://api.github.com");
    expect(extForgeApiUrl("  ")).toBe("https://api.github.com");
    expect(extForgeApiUrl("https://ghe.example.com/some/path")).toBe("https://ghe.example.com/api/v3");
    expect(extForgeApiUrl("ghe.example.com")).toBe("https://ghe.example.com/api/v3");
    expect(extForgeApiUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/api/v3");
  });
});

describe("currentUser (GET /user)", () => {
  it("returns the token's owner with the e-mail", async () => {
    expect(await client().currentUser()).toEqual({ id: 7, login: "octo", name: "Octo Cat", email: "octo@example.test" });
  });

  it("rejects an unknown token as unauthorized, without the token in the message", async () => {
    const failure = await failureOf(client({ token: "ghp_wrong_token_555" }).currentUser());
    expect(failure).toMatchObject({ reason: "unauthorized", status: 401, service: "extforge", detail: "Bad credentials" });
    expect(JSON.stringify({ message: failure.message, detail: failure.detail, stack: failure.stack })).not.toContain("ghp_wrong_token_555");
  });
});

describe("user (GET /users/:login)", () => {
  it("answers the account with its public e-mail, or email null when it shows none", async () => {
    expect(await client().user("octo")).toEqual({ id: 7, login: "octo", name: "Octo Cat", email: "octo@example.test" });
    expect(await client().user("other")).toMatchObject({ login: "other", email: null });
  });

  it("a 401 rejects as unauthorized (only a missing account, 404, is null)", async () => {
    expect((await failureOf(client({ token: "ghp_wrong_token_555" }).user("octo"))).reason).toBe("unauthorized");
  });
});

describe("repository (GET /repositories/:id)", () => {
  it("reads the repository with its clone URL and default branch", async () => {
    const repo = await client().repository(42);
    expect(repo).toMatchObject({ id: 42, fullName: "octo/hello", owner: "octo", name: "hello", private: false, visibility: "public", defaultBranch: "main", description: "A repository" });
    expect(repo.cloneUrl).toBe(`${forge.url}/octo/hello.git`);
  });

  it("answers not_found for a private repository the token cannot read", async () => {
    expect((await failureOf(client().repository(43))).reason).toBe("not_found");
    expect((await client({ token: OTHER }).repository(43)).private).toBe(true);
  });

  it("answers forbidden when the token lacks the scope (403)", async () => {
    expect(await failureOf(client().repository(44))).toMatchObject({ reason: "forbidden", status: 403 });
  });

  it("answers not_found for an unknown id", async () => {
    expect((await failureOf(client().repository(999))).reason).toBe("not_found");
  });
});

describe("labels and milestones", () => {
  it("lists labels with # colors", async () => {
    const pages = await collect(client().labels("octo/hello"));
    expect(pages.flatMap((p) => p.items)).toEqual([
      { name: "bug", color: "#d73a4a", description: "Something is broken" },
      { name: "docs", color: "#ededed", description: null },
    ]);
  });

  it("lists open and closed milestones with dates", async () => {
    const items = (await collect(client().milestones("octo/hello"))).flatMap((p) => p.items);
    expect(items.map((m) => [m.number, m.title, m.state, m.dueOn])).toEqual([
      [1, "v1", "closed", "2024-02-01"],
      [2, "v2", "open", null],
    ]);
    expect(items[0]?.createdAt).toBeInstanceOf(Date);
  });
});

describe("issues (pull requests left out)", () => {
  it("pages through all issues, open and closed, without pull requests", async () => {
    const pages = await collect(client().issues("octo/hello"));
    const items = pages.flatMap((p) => p.items);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages.map((p) => p.hasNext)).toEqual([true, true, false]);
    expect(items).toHaveLength(252);
    expect(items.some((i) => [2, 4, 5].includes(i.number))).toBe(false);
    expect(items[0]).toMatchObject({ number: 1, title: "First bug", body: "It breaks", state: "open", labels: ["bug"], milestone: 1, author: { login: "other" } });
    expect(items[0]?.assignees.map((a) => a.login)).toEqual(["octo"]);
    expect(items[1]).toMatchObject({ number: 3, state: "closed" });
    expect(items[1]?.closedAt?.toISOString()).toBe("2024-01-05T00:00:00.000Z");
  });

  it("resumes from a start page with the page size asked for", async () => {
    const pages = await collect(client().issues("octo/hello", { startPage: 3, perPage: 50 }));
    expect(pages.map((p) => p.page)).toEqual([3, 4, 5, 6]);
    expect(pages[0]?.items[0]?.number).toBe(101);
  });
});

describe("pullRequests", () => {
  it("lists every pull request with branches, shas and merged state", async () => {
    const items = (await collect(client().pullRequests("octo/hello"))).flatMap((p) => p.items);
    expect(items.map((p) => [p.number, p.state, p.draft])).toEqual([
      [2, "merged", false],
      [4, "open", true],
      [5, "closed", false],
    ]);
    expect(items[0]).toMatchObject({ sourceBranch: "feature", targetBranch: "main", sourceSha: forge.git["octo/hello"]?.branches["feature"], targetSha: forge.git["octo/hello"]?.branches["main"], sourceRepository: null });
    expect(items[0]?.mergedAt).toBeInstanceOf(Date);
    expect(items[0]?.mergeCommitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(items[2]?.mergedAt).toBeNull();
  });
});

describe("comments", () => {
  it("lists every issue and pull-request comment with its issue number, across pages", async () => {
    const pages = await collect(client().issueComments("octo/hello"));
    const items = pages.flatMap((p) => p.items);
    expect(pages).toHaveLength(6);
    expect(items).toHaveLength(503);
    expect(items.slice(0, 3).map((c) => [c.issueNumber, c.body, c.author?.login])).toEqual([
      [1, "Me too", "other"],
      [2, "LGTM", "octo"],
      [1, "Fixed?", "octo"],
    ]);
    expect(new Set(items.map((c) => c.id)).size).toBe(503);
  });

  it("lists the comments of one issue (single endpoint notes import)", async () => {
    const items = (await collect(client().commentsOf("octo/hello", 1))).flatMap((p) => p.items);
    expect(items.map((c) => [c.issueNumber, c.body])).toEqual([
      [1, "Me too"],
      [1, "Fixed?"],
    ]);
  });

  it("lists review comments with path, line and reply", async () => {
    const items = (await collect(client().reviewComments("octo/hello"))).flatMap((p) => p.items);
    expect(items.map((c) => [c.id, c.pullNumber, c.path, c.line, c.inReplyTo, c.side])).toEqual([
      [11, 2, "feature.txt", 1, null, "RIGHT"],
      [12, 2, "feature.txt", 1, 11, "RIGHT"],
    ]);
  });
});

describe("events", () => {
  it("lists repository-wide events with their issue", async () => {
    const items = (await collect(client().issueEvents("octo/hello"))).flatMap((p) => p.items);
    expect(items.map((e) => [e.issueNumber, e.event, e.label])).toEqual([
      [1, "labeled", "bug"],
      [3, "closed", null],
    ]);
  });

  it("lists the events of one issue", async () => {
    const items = (await collect(client().eventsOf("octo/hello", 3))).flatMap((p) => p.items);
    expect(items.map((e) => [e.issueNumber, e.event])).toEqual([[3, "closed"]]);
  });
});

describe("gists", () => {
  it("lists the token owner's gists with file contents, leaving the files of large gists unfetched", async () => {
    const items = (await collect(client().gists({ maxFiles: 10 }))).flatMap((p) => p.items);
    expect(items.map((g) => [g.id, g.public, g.fileCount, g.files.length])).toEqual([
      ["g1", true, 2, 2],
      ["g2", false, 11, 0],
    ]);
    expect(items[0]?.files).toEqual([
      { name: "a.txt", content: "A", truncated: false },
      { name: "b.md", content: "# B", truncated: false },
    ]);
    expect(forge.requests.filter((r) => r.path === "/api/v3/gists/g2")).toHaveLength(0);
  });
});

describe("rate limit", () => {
  it("rejects with rate_limited and the reset time from X-RateLimit-Reset, then succeeds after the reset", async () => {
    const until = Date.now() + 1500;
    forge.exhaustRateLimit(until);
    const failure = await failureOf(client().currentUser());
    expect(failure).toMatchObject({ reason: "rate_limited", status: 403 });
    expect(failure.resetAt?.getTime()).toBe(Math.ceil(until / 1000) * 1000);
    await new Promise((r) => setTimeout(r, until - Date.now() + 50));
    expect((await client().currentUser()).login).toBe("octo");
  });

  it("takes Retry-After (secondary limit) and 429", async () => {
    const now = new Date("2024-01-01T00:00:00Z");
    forge.exhaustRateLimit(Date.now() + 30_000, { retryAfter: true, status: 429 });
    try {
      const failure = await failureOf(client({ clock: { now: () => now } }).currentUser());
      expect(failure).toMatchObject({ reason: "rate_limited", status: 429 });
      expect(failure.resetAt?.getTime()).toBeGreaterThanOrEqual(now.getTime() + 29_000);
      expect(failure.resetAt?.getTime()).toBeLessThanOrEqual(now.getTime() + 30_000);
    } finally {
      forge.exhaustRateLimit(0);
    }
  });

  it("a page iterator fails mid-way with rate_limited and resumes from the failed page", async () => {
    const c = client();
    const seen: number[] = [];
    let failure: ExternalFailure | undefined;
    try {
      for await (const page of c.issues("octo/hello")) {
        seen.push(page.page);
        if (page.page === 1) forge.exhaustRateLimit(Date.now() + 60_000);
      }
    } catch (error) {
      failure = externalFailureOf(error);
    } finally {
      forge.exhaustRateLimit(0);
    }
    expect(seen).toEqual([1]);
    expect(failure?.reason).toBe("rate_limited");
    const rest = await collect(c.issues("octo/hello", { startPage: 2 }));
    expect(rest.map((p) => p.page)).toEqual([2, 3]);
  });

  it("maps a 403 with remaining 0 and a reset header to rate_limited", () => {
    const failure = toExtForgeFailure({ status: 403, response: { headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1700000000" }, data: { message: "API rate limit exceeded" } } }, new Date(0));
    expect(failure).toMatchObject({ reason: "rate_limited", resetAt: new Date(1_700_000_000_000) });
  });
});

describe("connections", () => {
  it("refuses the stand-in's loopback address without allowLocalNetwork", async () => {
    const before = forge.requests.length;
    const failure = await failureOf(client({ allowLocalNetwork: false }).currentUser());
    expect(failure.reason).toBe("blocked_url");
    expect(forge.requests.length).toBe(before);
  });

  it("answers unreachable when nothing listens", async () => {
    const failure = await failureOf(restExtForge({ token: TOKEN, hostname: "http://127.0.0.1:1", allowLocalNetwork: true }).currentUser());
    expect(failure.reason).toBe("unreachable");
    expect(failure.message).not.toContain(TOKEN);
  });

  for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
    it(`answers unreachable (retried), not blocked_url, when the host name cannot be resolved (${code})`, async () => {
      const lookup = (hostname: string) => Promise.reject(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code }));
      const c = restExtForge({ token: TOKEN, hostname: "https://forge.invalid", allowLocalNetwork: false, lookup });
      const failure = await failureOf(c.currentUser());
      expect(failure).toMatchObject({ reason: "unreachable", message: "Could not resolve the forge's host name (forge.invalid)" });
      const repository = await client().repository(42);
      const git = await failureOf(c.gitAccess({ ...repository, cloneUrl: "https://forge.invalid/octo/hello.git" }));
      expect(git).toMatchObject({ reason: "unreachable", message: "Could not resolve the forge's host name (forge.invalid)" });
    });
  }
});

describe("gitAccess", () => {
  it("clones the repository with the token in an http.extraHeader, not in the URL", async () => {
    const c = client();
    const access = await c.gitAccess(await c.repository(42));
    expect(access.url).toBe(`${forge.url}/octo/hello.git`);
    expect(access.url).not.toContain(TOKEN);
    expect(Object.values(access.env).join(" ")).not.toContain(TOKEN); // base64 inside Basic, never the raw token
    const dir = mkdtempSync(join(tmpdir(), "fk-clone-"));
    try {
      const env = { PATH: process.env["PATH"] ?? "", HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...access.env };
      const clone = await runGit(["clone", "-q", "--mirror", access.url, join(dir, "mirror.git")], { env });
      expect(clone.stderr).toBe("");
      expect(clone.status).toBe(0);
      const refs = (await runGit(["for-each-ref", "--format=%(refname) %(objectname)"], { cwd: join(dir, "mirror.git"), env })).stdout;
      expect(refs).toContain(`refs/heads/feature ${forge.git["octo/hello"]?.branches["feature"] ?? "?"}`);
      expect(refs).toContain(`refs/tags/v1.0 ${forge.git["octo/hello"]?.tags["v1.0"] ?? "?"}`);
      const config = (await runGit(["config", "--list"], { cwd: join(dir, "mirror.git"), env: { ...env, GIT_CONFIG_COUNT: "0" } })).stdout;
      expect(config).not.toContain("authorization");
      expect(config).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
      // Without the header the stand-in's git refuses.
      const anonymous = await runGit(["ls-remote", access.url], { env: { PATH: env.PATH, HOME: dir, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
      expect(anonymous.status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a clone URL on a local address without allowLocalNetwork", async () => {
    const repo = await client().repository(42);
    expect((await failureOf(client({ allowLocalNetwork: false }).gitAccess(repo))).reason).toBe("blocked_url");
  });
});

describe("download (attachments)", () => {
  it("refuses a local address without allowLocalNetwork", async () => {
    expect((await failureOf(client({ allowLocalNetwork: false }).download(`${forge.url}/api/v3/user`))).reason).toBe("blocked_url");
  });

  it("downloads within the size limit and refuses past it", async () => {
    const got = await client().download(`${forge.url}/api/v3/user`);
    expect(JSON.parse(Buffer.from(got.bytes).toString("utf8"))).toMatchObject({ login: "octo" });
    expect((await failureOf(client().download(`${forge.url}/api/v3/user`, { maxBytes: 5 }))).reason).toBe("failed");
  });
});
