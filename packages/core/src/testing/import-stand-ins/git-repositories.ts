/**
 * Real git repositories for the import stand-ins: built from a list of commits (branches, tags) with
 * the `git` CLI, and served read-only over git's smart HTTP protocol by running `git http-backend`
 * as a CGI program (the protocol a forge's or repository server's git endpoint speaks).
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** One commit: files written (content) or removed (null) on top of its branch's previous tree. */
export interface StandInCommit {
  /** Branch it goes on (default: the repository's default branch). A new branch starts at the default branch's tip. */
  branch?: string;
  message: string;
  files: Record<string, string | null>;
  /** Tags to put on this commit. */
  tags?: string[];
  author?: { name: string; email: string };
  /** Commit date (default: 2024-01-01 plus one minute per commit, so ids are reproducible). */
  date?: Date;
}

/** A repository's history. */
export interface StandInGitRepository {
  /** Default branch (`HEAD`), default `main`. */
  defaultBranch?: string;
  commits: StandInCommit[];
}

/** What was built: where, and each branch's and tag's commit id. */
export interface BuiltRepository {
  path: string;
  branches: Record<string, string>;
  tags: Record<string, string>;
}

const gitEnv = (home: string, date?: string): NodeJS.ProcessEnv => ({
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  LC_ALL: "C",
  ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
});

/** Runs git; resolves stdout. */
export function git(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; home?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd: options.cwd, env: { ...gitEnv(options.home ?? tmpdir()), ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => errOut.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`git ${args[0] ?? ""} exited with ${code}: ${Buffer.concat(errOut).toString("utf8").trim()}`));
    });
  });
}

/** Builds the bare repository `<root>/<relativePath>` from `spec`. */
export async function buildRepository(root: string, relativePath: string, spec: StandInGitRepository): Promise<BuiltRepository> {
  const defaultBranch = spec.defaultBranch ?? "main";
  const work = await mkdtemp(join(tmpdir(), "fk-standin-work-"));
  const home = work;
  try {
    const run = (args: string[], date?: string) => git(args, { cwd: work, home, env: gitEnv(home, date) });
    await run(["init", "-q", "-b", defaultBranch]);
    const tags: Record<string, string> = {};
    const existing = new Set<string>();
    let current: string | undefined;
    for (const [i, commit] of spec.commits.entries()) {
      const branch = commit.branch ?? defaultBranch;
      if (branch !== current) {
        if (existing.has(branch)) await run(["checkout", "-q", branch]);
        else if (existing.size === 0) await run(["checkout", "-q", "-B", branch]);
        else await run(["checkout", "-q", "-b", branch, existing.has(defaultBranch) ? defaultBranch : (current ?? defaultBranch)]);
        current = branch;
      }
      for (const [file, content] of Object.entries(commit.files)) {
        const target = join(work, file);
        if (!target.startsWith(`${work}/`) || file.split("/").includes(".git")) throw new Error(`stand-in commit file "${file}" is outside the repository`);
        if (content === null) await rm(target, { force: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, content);
        }
      }
      const author = commit.author ?? { name: "Stand-in Author", email: "author@standin.test" };
      const date = (commit.date ?? new Date(Date.UTC(2024, 0, 1, 0, i))).toISOString();
      await run(["add", "-A"]);
      await run(["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`, "commit", "-q", "--allow-empty", "-m", commit.message], date);
      existing.add(branch);
      for (const tag of commit.tags ?? []) {
        await run(["tag", tag]);
        tags[tag] = (await run(["rev-parse", "HEAD"])).trim();
      }
    }
    const target = join(root, relativePath);
    await mkdir(dirname(target), { recursive: true });
    await git(["clone", "-q", "--mirror", work, target], { home });
    await git(["symbolic-ref", "HEAD", `refs/heads/${defaultBranch}`], { cwd: target, home });
    const branches: Record<string, string> = {};
    const refs = await git(["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads"], { cwd: target, home });
    for (const line of refs.split("\n").filter(Boolean)) {
      const [name = "", sha = ""] = line.split(" ");
      branches[name] = sha;
    }
    return { path: target, branches, tags };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Serves `GET …/info/refs?service=git-upload-pack` and `POST …/git-upload-pack` of the bare
 * repository `<root>/<relativePath>` through `git http-backend` (read-only: pushes get 403).
 */
export function serveGit(root: string, relativePath: string, suffix: string, req: IncomingMessage, res: ServerResponse, query: string): void {
  const service = /service=([a-z-]+)/.exec(query)?.[1];
  if (suffix.includes("receive-pack") || (service !== undefined && service !== "git-upload-pack")) {
    res.writeHead(403, { "content-type": "text/plain" }).end("read-only stand-in\n");
    return;
  }
  const child = spawn("git", ["http-backend"], {
    env: {
      ...gitEnv(root),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: `/${relativePath}${suffix}`,
      QUERY_STRING: query,
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-encoding"] === undefined ? {} : { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }),
      ...(req.headers["git-protocol"] === undefined ? {} : { GIT_PROTOCOL: String(req.headers["git-protocol"]) }),
      REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  req.pipe(child.stdin);
  child.stdin.on("error", () => undefined);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === "status") status = Number.parseInt(value, 10) || 200;
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.on("close", () => {
    if (!headersDone) res.writeHead(500, { "content-type": "text/plain" }).end("git http-backend failed\n");
    else res.end();
  });
  child.on("error", () => {
    if (!res.headersSent) res.writeHead(500).end();
  });
}

/** A fresh temporary directory for a stand-in's repositories. */
export const standInDirectory = (): Promise<string> => mkdtemp(join(tmpdir(), "fk-standin-"));
