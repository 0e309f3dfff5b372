import { execFileSync } from "node:child_process";
import { PassThrough, Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";
import { errAsync } from "neverthrow";
import { errors } from "../errors.js";
import { basicCredentials } from "./basic-auth.js";
import { gitHttpService, type GitHttpDeps } from "./service.js";
import { runGitService } from "./git-process.js";
import { ReceiveCommandsTap, pktLine } from "./pkt-line.js";
import { matchGitRoute, requestedService } from "./route.js";
import type { GitHttpRequest } from "./types.js";

const ZERO = "0".repeat(40);
const A = "a".repeat(40);

describe("matchGitRoute", () => {
  it("info/refs (GET, HEAD), git-upload-pack and git-receive-pack (POST), with or without .git, nested namespaces", () => {
    expect(matchGitRoute("GET", "/grp/sub/proj.git/info/refs")).toEqual({ projectPath: "grp/sub/proj", endpoint: "info/refs" });
    expect(matchGitRoute("HEAD", "/grp/proj/info/refs")).toEqual({ projectPath: "grp/proj", endpoint: "info/refs" });
    expect(matchGitRoute("POST", "/grp/proj.git/git-upload-pack")).toEqual({ projectPath: "grp/proj", endpoint: "git-upload-pack" });
    expect(matchGitRoute("POST", "/grp/my%2Dproj/git-receive-pack")).toEqual({ projectPath: "grp/my-proj", endpoint: "git-receive-pack" });
  });
  it("anything else is not a git request: wrong method, one segment, dot segments, encoded slashes, bad escapes, dumb paths", () => {
    for (const [method, path] of [
      ["POST", "/grp/proj.git/info/refs"],
      ["GET", "/grp/proj.git/git-upload-pack"],
      ["GET", "/proj.git/info/refs"],
      ["GET", "/grp/../proj/info/refs"],
      ["GET", "/grp//proj/info/refs"],
      ["GET", "/grp/a%2Fb/info/refs"],
      ["GET", "/grp/%E0%A4%A/info/refs"],
      ["GET", "/grp/proj.git/HEAD"],
      ["GET", "/grp/proj.git/objects/info/packs"],
    ] as const) {
      expect(matchGitRoute(method, path)).toBeNull();
    }
  });
  it("requestedService: only the two smart services", () => {
    expect(requestedService("service=git-upload-pack")).toBe("git-upload-pack");
    expect(requestedService("service=git-receive-pack&x=1")).toBe("git-receive-pack");
    expect(requestedService("")).toBeNull();
    expect(requestedService("service=git-upload-archive")).toBeNull();
  });
});

describe("basicCredentials", () => {
  it("decodes user and password (the password may hold colons); other schemes are no credentials", () => {
    expect(basicCredentials(`Basic ${Buffer.from("oauth2:a:b").toString("base64")}`)).toEqual({ username: "oauth2", password: "a:b" });
    expect(basicCredentials(`basic ${Buffer.from("alone").toString("base64")}`)).toEqual({ username: "alone", password: "" });
    expect(basicCredentials("Bearer abc")).toBeNull();
    expect(basicCredentials(undefined)).toBeNull();
  });
});

describe("ReceiveCommandsTap", () => {
  const run = async (chunks: Buffer[]) => {
    const tap = new ReceiveCommandsTap();
    const out: Buffer[] = [];
    tap.on("data", (c: Buffer) => out.push(c));
    const done = new Promise((resolve) => tap.on("end", resolve));
    for (const c of chunks) tap.write(c);
    tap.end();
    await done;
    return { commands: tap.commands(), passed: Buffer.concat(out) };
  };
  it("reads the commands up to the flush, split anywhere across chunks, and passes every byte through", async () => {
    const body = Buffer.concat([pktLine(`${ZERO} ${A} refs/heads/main\0report-status side-band-64k\n`), pktLine(`${A} ${ZERO} refs/tags/v1\n`), Buffer.from("0000PACK-bytes")]);
    const chunks = [body.subarray(0, 3), body.subarray(3, 50), body.subarray(50)];
    const r = await run(chunks);
    expect(r.commands).toEqual([
      { oldId: ZERO, newId: A, ref: "refs/heads/main" },
      { oldId: A, newId: ZERO, ref: "refs/tags/v1" },
    ]);
    expect(r.passed.equals(body)).toBe(true);
  });
  it("a signed push, garbage, or a body that ends before the flush → null (unknown)", async () => {
    expect((await run([pktLine("push-cert\0caps\n"), Buffer.from("0000")])).commands).toBeNull();
    expect((await run([Buffer.from("zzzz")])).commands).toBeNull();
    expect((await run([pktLine(`${ZERO} ${A} refs/heads/main\n`)])).commands).toBeNull();
  });
});

describe("fk.gitHttp.handle", () => {
  let t: TestForgekit;
  let sha: string;
  const auth = () => `Basic ${Buffer.from(`alice:${t.tokens.alice}`).toString("base64")}`;
  const request = (over: Partial<GitHttpRequest>): GitHttpRequest => ({ method: "GET", path: "/", rawQuery: "", headers: {}, body: Readable.from([]), ...over });
  const text = async (body: string | Readable) => {
    if (typeof body === "string") return body;
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("latin1");
  };

  beforeAll(async () => {
    t = await createTestForgekit();
    const dir = t.fk.config.repositoryStorage.localPath?.(t.projects.personal.repositoryStorage, { kind: "project", id: t.projects.personal.id }) ?? "";
    // One commit written straight into the bare repository.
    const env = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.com" };
    const tree = execFileSync("git", [`--git-dir=${dir}`, "mktree"], { input: "", env }).toString().trim();
    sha = execFileSync("git", [`--git-dir=${dir}`, "commit-tree", tree, "-m", "empty"], { env }).toString().trim();
    execFileSync("git", [`--git-dir=${dir}`, "update-ref", "refs/heads/main", sha]);
  });

  it("a gzip upload-pack request body is decoded before git reads it", async () => {
    const body = Readable.from([gzipSync(Buffer.from(`0032want ${sha}\n00000009done\n`))]);
    const r = await t.fk.gitHttp.handle(request({ method: "POST", path: `/${t.projects.personal.fullPath}.git/git-upload-pack`, headers: { authorization: auth(), "content-type": "application/x-git-upload-pack-request", "content-encoding": "gzip" }, body }));
    expect(r.status).toBe(200);
    expect((await text(r.body)).startsWith("0008NAK\nPACK")).toBe(true);
  });

  it("a broken gzip body stops git; the response is the client's error (400), never a hang", async () => {
    const body = Readable.from([Buffer.from("not gzip at all")]);
    const r = await t.fk.gitHttp.handle(request({ method: "POST", path: `/${t.projects.personal.fullPath}.git/git-upload-pack`, headers: { authorization: auth(), "content-type": "application/x-git-upload-pack-request", "content-encoding": "gzip" }, body }));
    expect(r.status).toBe(400);
  });

  it("a client that goes away stops git: no process is left (the answer no one reads is a 400)", async () => {
    const dir = t.fk.config.repositoryStorage.localPath?.(t.projects.personal.repositoryStorage, { kind: "project", id: t.projects.personal.id }) ?? "";
    const stdin = new PassThrough();
    stdin.write(pktLine(`want ${sha}\n`));
    const controller = new AbortController();
    const pending = t.fk.gitHttp.handle(request({ method: "POST", path: `/${t.projects.personal.fullPath}.git/git-upload-pack`, headers: { authorization: auth(), "content-type": "application/x-git-upload-pack-request" }, body: stdin, signal: controller.signal }));
    const running = () => execFileSync("ps", ["-eo", "args"]).toString().split("\n").filter((line) => line.includes("upload-pack") && line.includes(dir)).length;
    for (let i = 0; i < 50 && running() === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(running()).toBe(1);
    controller.abort();
    const r = await pending;
    expect(r.status).toBe(400);
    for (let i = 0; i < 100 && running() > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(running()).toBe(0);
  });

  it("a transfer where nothing moves for idleTimeoutMs stops git (500 before any output)", async () => {
    const dir = t.fk.config.repositoryStorage.localPath?.(t.projects.personal.repositoryStorage, { kind: "project", id: t.projects.personal.id }) ?? "";
    const stalled = new PassThrough();
    const started = Date.now();
    const r = await runGitService({ binary: "git", service: "upload-pack", directory: dir, advertise: false, stdin: stalled, idleTimeoutMs: 300, logger: { log: () => undefined } });
    expect(r.ok).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("a repository missing on its shard → 404 with the reference's text", async () => {
    const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "gone", name: "gone", visibility: "public", creatorId: t.users.alice.id });
    await t.fk.config.repositoryStorage.delete(project.repositoryStorage, { kind: "project", id: project.id });
    const r = await t.fk.gitHttp.handle(request({ path: `/${project.fullPath}.git/info/refs`, rawQuery: "service=git-upload-pack" }));
    expect(r).toMatchObject({ status: 404, body: "A repository for this project does not exist yet.\n" });
  });
});

describe("gitHttpService: a failing credential check", () => {
  it("answers 500 and logs the cause, with secrets masked (not only its code)", async () => {
    const t = await createTestForgekit();
    const logged: { event: string; fields: Record<string, unknown> }[] = [];
    const cause = new Error("connection terminated while reading glpat-abc123def456ghi789jkl0");
    const server = gitHttpService({
      config: { ...t.fk.config, logger: { log: (_level, event, fields) => logged.push({ event, fields: fields ?? {} }) } },
      git: { checkCredentials: () => errAsync(errors.internal(cause)) },
      // Never reached: the check fails first.
      pushes: {} as GitHttpDeps["pushes"],
    });
    const r = await server.handle({ method: "GET", path: "/alice/notes.git/info/refs", rawQuery: "service=git-upload-pack", headers: {}, body: Readable.from([]) });
    expect(r.status).toBe(500);
    const entry = logged.find((l) => l.event === "git_http.credentials_failed");
    expect(entry?.fields).toMatchObject({ code: "internal", name: "Error", message: "connection terminated while reading [REDACTED]" });
    expect(JSON.stringify(entry)).not.toContain("glpat-abc123");
  });
});
