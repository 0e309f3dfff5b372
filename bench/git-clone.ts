/**
 * Git over HTTP: `git clone` of one repository with 10,000 commits through adapter-express (an
 * anonymous clone of a public project) against `git clone` of the same bare repository from
 * `git http-backend` (CGI) behind bare `node:http`, measured in one run, interleaved (DESIGN §8).
 * Goal (issue 9 §5): adapter-express ≥ 0.8× the http-backend's clones per second.
 *
 * Run only this one: `npx tsx --conditions=@forgekit/source bench/git-clone.ts`.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { forgekit } from "../packages/adapter-express/src/index.js";
import { createTestForgekit } from "../packages/core/src/testing/fixtures.js";

// express is adapter-express's dev dependency: load it from there (as http-serving.ts does).
type ExpressApp = RequestListener & { use(...handlers: unknown[]): void };
const express = createRequire(new URL("../packages/adapter-express/package.json", import.meta.url))("express") as () => ExpressApp;

/** Options of {@link benchGitClone}. */
export interface GitCloneOptions {
  /** Commits in the repository (default 10,000). */
  commits?: number;
  /** Interleaved rounds (default 3); each clones `clonesPerRound` times from each server. */
  rounds?: number;
  clonesPerRound?: number;
  print?: (line: string) => void;
}

const GIT_ENV = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };

function git(args: string[], options: { cwd?: string; input?: string; home: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("git", args, { cwd: options.cwd, env: { ...GIT_ENV, HOME: options.home }, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(" ")}: ${stderr}`));
      else resolve(stdout);
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** `git fast-import` input: `count` commits on main, each changing one small file. */
function history(count: number): string {
  const parts: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const content = `line ${i}\n`;
    const message = `Commit ${i}\n`;
    parts.push(`commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}`);
    if (i > 1) parts.push(`from :${i - 1}\n`);
    parts.push(`M 100644 inline file-${i % 50}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  parts.push("done\n");
  return parts.join("");
}

/** A CGI bridge: `git http-backend` for every request, its output streamed back (RFC 3875). */
function httpBackend(projectRoot: string, home: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://bench");
    const env: NodeJS.ProcessEnv = {
      ...GIT_ENV,
      HOME: home,
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: "1",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_ADDR: req.socket.remoteAddress ?? "",
      SERVER_PROTOCOL: "HTTP/1.1",
      GATEWAY_INTERFACE: "CGI/1.1",
    };
    if (req.headers["content-length"] !== undefined) env["CONTENT_LENGTH"] = req.headers["content-length"];
    if (req.headers["content-encoding"] !== undefined) env["HTTP_CONTENT_ENCODING"] = req.headers["content-encoding"];
    const protocol = req.headers["git-protocol"];
    if (typeof protocol === "string") env["GIT_PROTOCOL"] = protocol;
    const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
    req.pipe(child.stdin);
    child.stdin.on("error", () => undefined);
    res.on("close", () => {
      if (!res.writableFinished) child.kill("SIGKILL");
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      child.stdout.off("data", onData);
      let status = 200;
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
      child.stdout.pipe(res);
    };
    child.stdout.on("data", onData);
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

/** Seconds of one `git clone` (bare: the transfer, not a checkout, is what is measured). */
async function timeClone(url: string, home: string): Promise<number> {
  const target = mkdtempSync(join(home, "clone-"));
  const started = performance.now();
  await git(["clone", "--bare", "-q", url, target], { home });
  const seconds = (performance.now() - started) / 1000;
  rmSync(target, { recursive: true, force: true });
  return seconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Runs the comparison; resolves the figures the summary prints. */
export async function benchGitClone(options: GitCloneOptions = {}): Promise<Record<string, number | string>> {
  const print = options.print ?? console.log;
  const commits = options.commits ?? 10_000;
  const home = mkdtempSync(join(tmpdir(), "forgekit-bench-git-"));
  const t = await createTestForgekit();
  const project = t.projects.publicProject;
  const directory = t.fk.config.repositoryStorage.localPath?.(project.repositoryStorage, { kind: "project", id: project.id });
  if (directory === undefined) throw new Error("the repository storage has no local paths");
  print(`writing ${commits} commits…`);
  await git([`--git-dir=${directory}`, "fast-import", "--quiet"], { input: history(commits), home });
  const shard = t.fk.config.repositoryStorages[project.repositoryStorage]?.path;
  if (shard === undefined) throw new Error("the project's shard has no directory");
  const backendPath = `/${relative(shard, directory)}`;

  const app = express();
  app.use(forgekit(t.fk));
  const forgekitServer = createServer(app);
  const backendServer = createServer(httpBackend(shard, home));
  const forgekitUrl = `${await listen(forgekitServer)}/${project.fullPath}.git`;
  const backendUrl = `${await listen(backendServer)}${backendPath}`;
  try {
    // Warm-up: one clone each (page cache, git's first start).
    await timeClone(forgekitUrl, home);
    await timeClone(backendUrl, home);
    const times = { forgekit: [] as number[], backend: [] as number[] };
    const rounds = options.rounds ?? 3;
    const per = options.clonesPerRound ?? 3;
    for (let round = 1; round <= rounds; round += 1) {
      for (let i = 0; i < per; i += 1) {
        times.forgekit.push(await timeClone(forgekitUrl, home));
        times.backend.push(await timeClone(backendUrl, home));
      }
      print(`round ${round}: adapter-express ${median(times.forgekit).toFixed(3)} s, http-backend ${median(times.backend).toFixed(3)} s (medians so far)`);
    }
    const forgekitSeconds = median(times.forgekit);
    const backendSeconds = median(times.backend);
    const ratio = backendSeconds / forgekitSeconds;
    print(`git clone of ${commits} commits: adapter-express ${(1 / forgekitSeconds).toFixed(2)} clones/s, git http-backend ${(1 / backendSeconds).toFixed(2)} clones/s → ${ratio.toFixed(2)}× (goal ≥ 0.8)`);
    return {
      commits,
      "adapter-express s/clone (median)": forgekitSeconds,
      "http-backend s/clone (median)": backendSeconds,
      "adapter-express clones/s": 1 / forgekitSeconds,
      "http-backend clones/s": 1 / backendSeconds,
      "ratio (goal ≥ 0.8)": ratio,
    };
  } finally {
    forgekitServer.closeAllConnections();
    backendServer.closeAllConnections();
    await Promise.all([new Promise((r) => forgekitServer.close(r)), new Promise((r) => backendServer.close(r))]);
    rmSync(home, { recursive: true, force: true });
  }
}

export default benchGitClone;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await benchGitClone());
}
