/**
 * A stand-in for the external forge (GitHub REST API v3): a real HTTP server on 127.0.0.1 answering
 * the calls forgekit's importer makes — `/user`, `/users/:login`, `/repositories/:id`,
 * `/repos/:owner/:repo` and its labels, milestones, issues (pull requests included, as the forge
 * does), pulls, comments, review comments, events and releases, `/gists` — at the root and under `/api/v3`
 * (GitHub Enterprise), with `Link` pagination, rate-limit headers (extforge-rate-limit.ts), 401 /
 * 403 / 404; attachments on its web host (`attachments`); and the repositories' git over smart
 * HTTP (token as Basic password or Bearer). What a test describes is in extforge-model.ts, the JSON
 * in extforge-json.ts. Generated data sets (`generated`) are made page by page, never held whole.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { rm } from "node:fs/promises";
import { buildRepository, git, serveGit, standInDirectory, type BuiltRepository } from "./git-repositories.js";
import { forgeJson } from "./extforge-json.js";
import { DEFAULT_EXTFORGE_USER, type ExtForgeStandInOptions, type ExtForgeStandInRepository, type ExtForgeStandInUser } from "./extforge-model.js";
import { standInRateLimiter } from "./extforge-rate-limit.js";
import { arrayList, credentialsOf, listen, sendJson, sendPage, slice, type LazyList, type StandInRequest } from "./kit.js";

/** A running forge stand-in. */
export interface ExtForgeStandIn {
  /** `http://127.0.0.1:<port>`: what `extforge_hostname` takes (its API is at `/api/v3`). */
  url: string;
  /** The API root at the server's root (`url` itself; the REST client's `baseUrl`). */
  apiUrl: string;
  users: ExtForgeStandInUser[];
  /** Commit ids of each repository's branches and tags, by `owner/name`. */
  git: Record<string, BuiltRepository>;
  /** Requests answered so far (no credentials). */
  requests: StandInRequest[];
  /**
   * Makes every API call answer the rate limit until `until` (ms since the epoch): 403 with
   * `X-RateLimit-Remaining: 0` and `X-RateLimit-Reset`, or with `retryAfter` a secondary limit
   * (403 + `Retry-After` seconds), or `status: 429`.
   */
  exhaustRateLimit(until: number, options?: { retryAfter?: boolean; status?: 403 | 429 }): void;
  close(): Promise<void>;
}

/** Starts the forge stand-in. */
export async function startExtForgeStandIn(options: ExtForgeStandInOptions = {}): Promise<ExtForgeStandIn> {
  const users = options.users ?? [DEFAULT_EXTFORGE_USER];
  const repos = options.repos ?? [];
  const limiter = standInRateLimiter(options.rateLimit, options.now ?? Date.now);
  const gitRoot = await standInDirectory();
  const built: Record<string, BuiltRepository> = {};
  for (const repo of repos) {
    if (repo.git === undefined) continue;
    const done = await buildRepository(gitRoot, `${repo.owner}/${repo.name}.git`, repo.git);
    built[`${repo.owner}/${repo.name}`] = done;
    // As the forge does, each pull request's head is also `refs/pull/<number>/head`.
    for (const pull of repo.pulls ?? []) {
      const head = done.branches[pull.head];
      if (head !== undefined) await git(["update-ref", `refs/pull/${pull.number}/head`, head], { cwd: done.path });
    }
  }
  const requests: StandInRequest[] = [];
  let origin = "";
  const json = forgeJson({ users, built, origin: () => origin });

  const canRead = (user: ExtForgeStandInUser, repo: ExtForgeStandInRepository) => repo.private !== true || repo.owner === user.login || (repo.readers ?? []).includes(user.login);
  const notFound = (res: ServerResponse, headers: Record<string, string> = {}) => sendJson(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }, headers);
  const page = (res: ServerResponse, url: URL, list: LazyList<unknown>, headers: Record<string, string>) => sendPage(res, origin, url, list, headers);
  const userOfToken = (token: string) => users.find((u) => u.token === token);

  function handleGit(req: IncomingMessage, res: ServerResponse, url: URL, match: RegExpExecArray): void {
    const [, owner = "", name = "", suffix = ""] = match;
    const repo = repos.find((r) => r.owner === owner && r.name === name);
    const credentials = credentialsOf(req);
    const token = credentials?.kind === "basic" ? credentials.password : credentials?.token;
    const user = token === undefined ? undefined : userOfToken(token);
    if (user === undefined) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"', "content-type": "text/plain" }).end("Authentication required\n");
      return;
    }
    if (repo === undefined || repo.git === undefined || !canRead(user, repo)) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Repository not found.\n");
      return;
    }
    serveGit(gitRoot, `${owner}/${name}.git`, suffix, req, res, url.search.slice(1));
  }

  function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, path: string): void {
    const credentials = credentialsOf(req);
    const token = credentials?.kind === "token" ? credentials.token : credentials?.kind === "basic" ? credentials.password : undefined;
    const user = token === undefined ? undefined : userOfToken(token);
    if (token === undefined || user === undefined) {
      sendJson(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      return;
    }
    const headers = limiter.check(res, token, user);
    if (headers === undefined) return;
    if (req.method !== "GET") {
      sendJson(res, 404, { message: "Not Found" }, headers);
      return;
    }
    if (path === "/user") {
      sendJson(res, 200, json.user(user.login, true), headers);
      return;
    }
    const byLogin = /^\/users\/([^/]+)$/.exec(path);
    if (byLogin !== null) {
      sendJson(res, 200, json.user(decodeURIComponent(byLogin[1] ?? ""), true), headers);
      return;
    }
    if (path === "/gists") {
      const mine = (options.gists ?? []).map((g, i) => ({ g, i })).filter(({ g }) => g.owner === user.login);
      page(res, url, arrayList(mine.map(({ g, i }) => json.gist(g, i, false))), headers);
      return;
    }
    const gist = /^\/gists\/([^/]+)$/.exec(path);
    if (gist !== null) {
      const index = (options.gists ?? []).findIndex((g, i) => (g.id ?? `gist${i + 1}`) === gist[1]);
      const found = (options.gists ?? [])[index];
      if (found === undefined || (found.owner !== user.login && found.public === false)) notFound(res, headers);
      else sendJson(res, 200, json.gist(found, index, true), headers);
      return;
    }
    const byId = /^\/repositories\/(\d+)$/.exec(path);
    const byName = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    const repo = byId !== null ? repos.find((r) => r.id === Number(byId[1])) : byName !== null ? repos.find((r) => r.owner === byName[1] && r.name === byName[2]) : undefined;
    if (repo === undefined || !canRead(user, repo)) {
      notFound(res, headers);
      return;
    }
    if ((user.forbidden ?? []).includes(repo.id)) {
      sendJson(res, 403, { message: "Resource not accessible by personal access token" }, headers);
      return;
    }
    const rest = byId !== null ? "" : (byName?.[3] ?? "");
    repoRoute(res, url, repo, rest, headers);
  }

  function repoRoute(res: ServerResponse, url: URL, repo: ExtForgeStandInRepository, rest: string, headers: Record<string, string>): void {
    const state = url.searchParams.get("state") ?? "open";
    const byState = (s: unknown) => state === "all" || s === state;
    const lists = json.listsOf(repo);
    const ofIssue = /^\/issues\/(\d+)\/(comments|events)$/.exec(rest);
    switch (rest) {
      case "":
        sendJson(res, 200, json.repository(repo), headers);
        return;
      case "/labels":
        page(res, url, arrayList((repo.labels ?? []).map((l) => ({ name: l.name, color: l.color ?? "ededed", description: l.description ?? null }))), headers);
        return;
      case "/milestones":
        page(res, url, arrayList(json.milestones(repo).filter((m) => byState(m["state"]))), headers);
        return;
      case "/issues":
        page(res, url, state === "all" ? lists.issues : arrayList(slice(lists.issues, 0, lists.issues.length).filter((i) => byState(i["state"]))), headers);
        return;
      case "/pulls":
        page(res, url, arrayList((repo.pulls ?? []).map((p) => json.pull(repo, p)).filter((p) => byState(p["state"]))), headers);
        return;
      case "/issues/comments":
        page(res, url, lists.comments, headers);
        return;
      case "/pulls/comments":
        page(res, url, arrayList((repo.reviewComments ?? []).map((c, i) => json.reviewComment(repo, c, i))), headers);
        return;
      case "/releases":
        page(res, url, arrayList((repo.releases ?? []).map((r, i) => json.release(repo, r, i))), headers);
        return;
      case "/issues/events":
        page(res, url, arrayList((repo.events ?? []).map((e, i) => json.event(repo, e, i, true))), headers);
        return;
    }
    if (ofIssue !== null) {
      const number = Number(ofIssue[1]);
      if (ofIssue[2] === "comments") page(res, url, arrayList(slice(lists.comments, 0, lists.comments.length).filter((c) => String(c["issue_url"]).endsWith(`/issues/${number}`))), headers);
      else page(res, url, arrayList((repo.events ?? []).map((e, i) => ({ e, i })).filter(({ e }) => e.issue === number).map(({ e, i }) => json.event(repo, e, i, false))), headers);
      return;
    }
    notFound(res, headers);
  }

  const listening = await listen((req, res, url) => {
    const gitMatch = /^\/([^/]+)\/([^/]+?)\.git(\/info\/refs|\/git-upload-pack|\/git-receive-pack)$/.exec(url.pathname);
    if (gitMatch !== null) {
      handleGit(req, res, url, gitMatch);
      return;
    }
    const attachment = options.attachments?.[url.pathname];
    if (attachment !== undefined && req.method === "GET") {
      const body = typeof attachment.body === "string" ? Buffer.from(attachment.body) : attachment.body;
      res.writeHead(200, { "content-type": attachment.contentType ?? "application/octet-stream", "content-length": String(body.length) }).end(body);
      return;
    }
    const path = url.pathname.startsWith("/api/v3/") ? url.pathname.slice("/api/v3".length) : url.pathname;
    handleApi(req, res, url, path);
  }, requests);
  origin = listening.origin;

  return {
    url: origin,
    apiUrl: origin,
    users,
    git: built,
    requests,
    exhaustRateLimit: (until, more) => limiter.exhaust(until, more),
    async close() {
      await listening.close();
      await rm(gitRoot, { recursive: true, force: true });
    },
  };
}
