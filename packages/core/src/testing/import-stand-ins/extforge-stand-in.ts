/**
 * A stand-in for the external forge (GitHub REST API v3): a real HTTP server on 127.0.0.1 answering
 * the calls forgekit's importer makes — `/user`, `/repositories/:id`, `/repos/:owner/:repo` and its
 * labels, milestones, issues (pull requests included, as the forge does), pulls, comments, review
 * comments and events, `/gists` — at the root and under `/api/v3` (GitHub Enterprise), with `Link`
 * pagination, rate-limit headers (and a mode that answers 403 "rate limit exceeded" until a reset
 * time), 401 / 403 / 404, and the repositories' git over smart HTTP (token as Basic password or
 * Bearer). Generated data sets (`generated`) are made page by page, never held whole.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { rm } from "node:fs/promises";
import { buildRepository, serveGit, standInDirectory, type BuiltRepository, type StandInGitRepository } from "./git-repositories.js";
import { arrayList, concatLists, credentialsOf, generatedList, listen, minutesAfter, sendJson, slice, type LazyList, type StandInRequest } from "./kit.js";

/** An account and the token that authenticates as it. */
export interface ExtForgeStandInUser {
  id: number;
  login: string;
  name?: string;
  email?: string | null;
  token: string;
  /** Repository ids this token gets 403 for (a token without the `repo` scope). */
  forbidden?: number[];
}

export interface ExtForgeStandInIssue {
  number: number;
  title: string;
  body?: string | null;
  state?: "open" | "closed";
  /** Author login (default: the repository owner). */
  author?: string;
  labels?: string[];
  milestone?: number;
  assignees?: string[];
  createdAt?: string;
  closedAt?: string | null;
}

export interface ExtForgeStandInPull extends Omit<ExtForgeStandInIssue, "state"> {
  state?: "open" | "closed" | "merged";
  /** Source branch. */
  head: string;
  /** Target branch (default: the default branch). */
  base?: string;
  draft?: boolean;
}

export interface ExtForgeStandInComment {
  id?: number;
  /** Number of the issue or pull request. */
  issue: number;
  body: string;
  author?: string;
  createdAt?: string;
}

export interface ExtForgeStandInReviewComment {
  id?: number;
  pull: number;
  body: string;
  path: string;
  line?: number | null;
  author?: string;
  inReplyTo?: number;
  createdAt?: string;
}

export interface ExtForgeStandInEvent {
  id?: number;
  issue: number;
  event: string;
  actor?: string;
  label?: string;
  createdAt?: string;
}

/** A repository the stand-in serves. */
export interface ExtForgeStandInRepository {
  id: number;
  owner: string;
  name: string;
  private?: boolean;
  description?: string;
  /** Logins that may read a private repository (the owner always may). */
  readers?: string[];
  git?: StandInGitRepository;
  labels?: { name: string; color?: string; description?: string | null }[];
  milestones?: { number: number; title: string; state?: "open" | "closed"; description?: string | null; dueOn?: string | null }[];
  issues?: ExtForgeStandInIssue[];
  pulls?: ExtForgeStandInPull[];
  comments?: ExtForgeStandInComment[];
  reviewComments?: ExtForgeStandInReviewComment[];
  events?: ExtForgeStandInEvent[];
  /** Generated issues (numbered after the given ones) with `commentsPerIssue` comments each, made on the fly. */
  generated?: { issues: number; commentsPerIssue?: number };
}

export interface ExtForgeStandInGist {
  owner: string;
  id?: string;
  description?: string | null;
  public?: boolean;
  files: Record<string, string>;
}

/** The primary rate limit: `limit` requests per window of `windowSeconds` per token. */
export interface ExtForgeStandInRateLimit {
  limit?: number;
  windowSeconds?: number;
}

export interface ExtForgeStandInOptions {
  users?: ExtForgeStandInUser[];
  repos?: ExtForgeStandInRepository[];
  gists?: ExtForgeStandInGist[];
  rateLimit?: ExtForgeStandInRateLimit;
  /** Time source in ms (default `Date.now`), for rate-limit windows. */
  now?: () => number;
}

/** A running forge stand-in. */
export interface ExtForgeStandIn {
  /** `http://127.0.0.1:<port>`: what `extforge_hostname` takes (its API is at `/api/v3`). */
  url: string;
  /** The API root at the server's root (`url` itself; octokit's `baseUrl`). */
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

/** The default user: `standin-user` with token `standin-forge-token`. */
export const DEFAULT_EXTFORGE_USER: ExtForgeStandInUser = { id: 1, login: "standin-user", name: "Stand-in User", email: "standin-user@standin.test", token: "standin-forge-token" };

type Json = Record<string, unknown>;
const BASE_DATE = new Date(Date.UTC(2024, 0, 1));

/** Starts the forge stand-in. */
export async function startExtForgeStandIn(options: ExtForgeStandInOptions = {}): Promise<ExtForgeStandIn> {
  const users = options.users ?? [DEFAULT_EXTFORGE_USER];
  const repos = options.repos ?? [];
  const now = options.now ?? Date.now;
  const limit = options.rateLimit?.limit ?? 5000;
  const windowMs = (options.rateLimit?.windowSeconds ?? 3600) * 1000;
  const windows = new Map<string, { resetAt: number; used: number }>();
  let exhausted: { until: number; retryAfter: boolean; status: 403 | 429 } | undefined;
  const gitRoot = await standInDirectory();
  const built: Record<string, BuiltRepository> = {};
  for (const repo of repos) if (repo.git !== undefined) built[`${repo.owner}/${repo.name}`] = await buildRepository(gitRoot, `${repo.owner}/${repo.name}.git`, repo.git);
  const requests: StandInRequest[] = [];
  let origin = "";

  const userJson = (login: string | undefined): Json | null => {
    if (login === undefined) return null;
    const u = users.find((x) => x.login === login);
    return { id: u?.id ?? 10_000 + login.length, login, type: "User", site_admin: false, ...(u?.name === undefined ? {} : { name: u.name }) };
  };

  /** Every issue of a repository: given issues and pull requests by number, then generated ones. */
  const issueLists = new Map<ExtForgeStandInRepository, { issues: LazyList<Json>; comments: LazyList<Json> }>();
  const listsOf = (repo: ExtForgeStandInRepository) => {
    let lists = issueLists.get(repo);
    if (lists !== undefined) return lists;
    const given = [...(repo.issues ?? []).map((i) => issueJson(repo, i, false)), ...(repo.pulls ?? []).map((p) => issueJson(repo, p, true))].sort((a, b) => (a["number"] as number) - (b["number"] as number));
    const first = given.reduce((max, i) => Math.max(max, i["number"] as number), 0) + 1;
    const generated = repo.generated ?? { issues: 0 };
    const perIssue = generated.commentsPerIssue ?? 0;
    const genIssues = generatedList(generated.issues, (i) =>
      issueJson(repo, { number: first + i, title: `Generated issue ${first + i}`, body: `Body of generated issue ${first + i}.`, createdAt: minutesAfter(BASE_DATE, first + i) }, false),
    );
    const givenComments = (repo.comments ?? []).map((c, i) => commentJson(repo, c, i));
    const genComments = generatedList(generated.issues * perIssue, (i) => {
      const issue = first + Math.floor(i / perIssue);
      return commentJson(repo, { id: 1_000_000 + i, issue, body: `Comment ${(i % perIssue) + 1} on issue ${issue}.`, createdAt: minutesAfter(BASE_DATE, issue + 1) }, givenComments.length + i);
    });
    lists = { issues: concatLists(arrayList(given), genIssues), comments: concatLists(arrayList(givenComments), genComments) };
    issueLists.set(repo, lists);
    return lists;
  };

  const apiBase = () => origin;
  const repoUrl = (repo: ExtForgeStandInRepository) => `${apiBase()}/repos/${repo.owner}/${repo.name}`;

  function issueJson(repo: ExtForgeStandInRepository, issue: ExtForgeStandInIssue | ExtForgeStandInPull, isPull: boolean): Json {
    const state = issue.state === "merged" || issue.state === "closed" ? "closed" : "open";
    const created = issue.createdAt ?? minutesAfter(BASE_DATE, issue.number);
    return {
      id: repo.id * 1_000_000 + issue.number,
      number: issue.number,
      title: issue.title,
      body: issue.body ?? null,
      state,
      locked: false,
      user: userJson(issue.author ?? repo.owner),
      assignees: (issue.assignees ?? []).map(userJson),
      labels: (issue.labels ?? []).map((name) => ({ name, color: repo.labels?.find((l) => l.name === name)?.color ?? "ededed" })),
      milestone: issue.milestone === undefined ? null : { number: issue.milestone, title: repo.milestones?.find((m) => m.number === issue.milestone)?.title ?? `m${issue.milestone}` },
      created_at: created,
      updated_at: created,
      closed_at: state === "closed" ? (issue.closedAt ?? created) : null,
      url: `${repoUrl(repo)}/issues/${issue.number}`,
      ...(isPull ? { pull_request: { url: `${repoUrl(repo)}/pulls/${issue.number}` } } : {}),
    };
  }

  function pullJson(repo: ExtForgeStandInRepository, pull: ExtForgeStandInPull): Json {
    const git = built[`${repo.owner}/${repo.name}`];
    const defaultBranch = repo.git?.defaultBranch ?? "main";
    const base = pull.base ?? defaultBranch;
    const issue = issueJson(repo, pull, false);
    const full = { full_name: `${repo.owner}/${repo.name}` };
    const merged = pull.state === "merged";
    return {
      ...issue,
      draft: pull.draft === true,
      head: { ref: pull.head, sha: git?.branches[pull.head] ?? "0".repeat(40), repo: full },
      base: { ref: base, sha: git?.branches[base] ?? "0".repeat(40), repo: full },
      merged_at: merged ? issue["closed_at"] : null,
      merge_commit_sha: merged ? (git?.branches[base] ?? null) : null,
    };
  }

  function commentJson(repo: ExtForgeStandInRepository, c: ExtForgeStandInComment, index: number): Json {
    const created = c.createdAt ?? minutesAfter(BASE_DATE, c.issue + index / 1000);
    return { id: c.id ?? 500_000 + index, body: c.body, user: userJson(c.author ?? repo.owner), created_at: created, updated_at: created, issue_url: `${repoUrl(repo)}/issues/${c.issue}` };
  }

  /** Answers one page of `list` with the forge's `Link` header. */
  function page(res: ServerResponse, url: URL, list: LazyList<unknown>, headers: Record<string, string>): void {
    const perPage = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get("per_page") ?? "30", 10) || 30));
    const pageNo = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
    const last = Math.max(1, Math.ceil(list.length / perPage));
    const link = (n: number, rel: string) => {
      const target = new URL(url.pathname, origin);
      url.searchParams.forEach((v, k) => target.searchParams.set(k, v));
      target.searchParams.set("per_page", String(perPage));
      target.searchParams.set("page", String(n));
      return `<${target.href}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (pageNo < last) links.push(link(pageNo + 1, "next"), link(last, "last"));
    if (pageNo > 1) links.push(link(1, "first"), link(pageNo - 1, "prev"));
    sendJson(res, 200, slice(list, (pageNo - 1) * perPage, pageNo * perPage), links.length === 0 ? headers : { ...headers, link: links.join(", ") });
  }

  /** Rate-limit headers for `token`, or the refusal when exhausted. */
  function rateLimit(res: ServerResponse, token: string, user: ExtForgeStandInUser): Record<string, string> | undefined {
    const t = now();
    let window = windows.get(token);
    if (window === undefined || t >= window.resetAt) windows.set(token, (window = { resetAt: t + windowMs, used: 0 }));
    if (exhausted !== undefined && t < exhausted.until) {
      const resetSeconds = String(Math.ceil(exhausted.until / 1000));
      const headers: Record<string, string> = { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": "0", "x-ratelimit-reset": resetSeconds, "x-ratelimit-used": String(limit), "x-ratelimit-resource": "core" };
      if (exhausted.retryAfter) {
        delete headers["x-ratelimit-remaining"];
        headers["retry-after"] = String(Math.max(1, Math.ceil((exhausted.until - t) / 1000)));
      }
      sendJson(res, exhausted.status, { message: exhausted.retryAfter ? "You have exceeded a secondary rate limit." : `API rate limit exceeded for user ID ${user.id}.` }, headers);
      return undefined;
    }
    if (window.used >= limit) {
      sendJson(res, 403, { message: `API rate limit exceeded for user ID ${user.id}.` }, { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(window.resetAt / 1000)) });
      return undefined;
    }
    window.used += 1;
    return { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(limit - window.used), "x-ratelimit-reset": String(Math.ceil(window.resetAt / 1000)), "x-ratelimit-used": String(window.used), "x-ratelimit-resource": "core" };
  }

  const canRead = (user: ExtForgeStandInUser, repo: ExtForgeStandInRepository) => repo.private !== true || repo.owner === user.login || (repo.readers ?? []).includes(user.login);
  const notFound = (res: ServerResponse, headers: Record<string, string> = {}) => sendJson(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }, headers);

  function repositoryJson(repo: ExtForgeStandInRepository): Json {
    return {
      id: repo.id,
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: userJson(repo.owner),
      private: repo.private === true,
      visibility: repo.private === true ? "private" : "public",
      description: repo.description ?? null,
      default_branch: repo.git?.defaultBranch ?? "main",
      clone_url: `${origin}/${repo.owner}/${repo.name}.git`,
      html_url: `${origin}/${repo.owner}/${repo.name}`,
      has_issues: true,
    };
  }

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
    const headers = rateLimit(res, token, user);
    if (headers === undefined) return;
    if (req.method !== "GET") {
      sendJson(res, 404, { message: "Not Found" }, headers);
      return;
    }
    if (path === "/user") {
      sendJson(res, 200, { ...userJson(user.login), email: user.email ?? null }, headers);
      return;
    }
    if (path === "/gists") {
      const mine = (options.gists ?? []).map((g, i) => ({ g, i })).filter(({ g }) => g.owner === user.login);
      page(res, url, arrayList(mine.map(({ g, i }) => gistJson(g, i, false))), headers);
      return;
    }
    const gist = /^\/gists\/([^/]+)$/.exec(path);
    if (gist !== null) {
      const index = (options.gists ?? []).findIndex((g, i) => (g.id ?? `gist${i + 1}`) === gist[1]);
      const found = (options.gists ?? [])[index];
      if (found === undefined || (found.owner !== user.login && found.public === false)) notFound(res, headers);
      else sendJson(res, 200, gistJson(found, index, true), headers);
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
    const lists = listsOf(repo);
    const ofIssue = /^\/issues\/(\d+)\/(comments|events)$/.exec(rest);
    switch (rest) {
      case "":
        sendJson(res, 200, repositoryJson(repo), headers);
        return;
      case "/labels":
        page(res, url, arrayList((repo.labels ?? []).map((l) => ({ name: l.name, color: l.color ?? "ededed", description: l.description ?? null }))), headers);
        return;
      case "/milestones": {
        const all = (repo.milestones ?? []).map((m) => ({
          number: m.number,
          title: m.title,
          description: m.description ?? null,
          state: m.state ?? "open",
          due_on: m.dueOn ?? null,
          created_at: minutesAfter(BASE_DATE, m.number),
          updated_at: minutesAfter(BASE_DATE, m.number),
        }));
        page(res, url, arrayList(all.filter((m) => byState(m.state))), headers);
        return;
      }
      case "/issues":
        page(res, url, state === "all" ? lists.issues : arrayList(slice(lists.issues, 0, lists.issues.length).filter((i) => byState(i["state"]))), headers);
        return;
      case "/pulls":
        page(res, url, arrayList((repo.pulls ?? []).map((p) => pullJson(repo, p)).filter((p) => byState(p["state"]))), headers);
        return;
      case "/issues/comments":
        page(res, url, lists.comments, headers);
        return;
      case "/pulls/comments":
        page(res, url, arrayList((repo.reviewComments ?? []).map((c, i) => reviewCommentJson(repo, c, i))), headers);
        return;
      case "/issues/events":
        page(res, url, arrayList((repo.events ?? []).map((e, i) => eventJson(repo, e, i, true))), headers);
        return;
    }
    if (ofIssue !== null) {
      const number = Number(ofIssue[1]);
      if (ofIssue[2] === "comments") page(res, url, arrayList(slice(lists.comments, 0, lists.comments.length).filter((c) => String(c["issue_url"]).endsWith(`/issues/${number}`))), headers);
      else page(res, url, arrayList((repo.events ?? []).map((e, i) => ({ e, i })).filter(({ e }) => e.issue === number).map(({ e, i }) => eventJson(repo, e, i, false))), headers);
      return;
    }
    notFound(res, headers);
  }

  function reviewCommentJson(repo: ExtForgeStandInRepository, c: ExtForgeStandInReviewComment, index: number): Json {
    const created = c.createdAt ?? minutesAfter(BASE_DATE, c.pull + index / 1000);
    return {
      id: c.id ?? 700_000 + index,
      body: c.body,
      path: c.path,
      line: c.line ?? null,
      original_line: c.line ?? null,
      side: "RIGHT",
      commit_id: built[`${repo.owner}/${repo.name}`]?.branches[repo.git?.defaultBranch ?? "main"] ?? "0".repeat(40),
      diff_hunk: "@@ -1 +1 @@",
      user: userJson(c.author ?? repo.owner),
      created_at: created,
      updated_at: created,
      pull_request_url: `${repoUrl(repo)}/pulls/${c.pull}`,
      ...(c.inReplyTo === undefined ? {} : { in_reply_to_id: c.inReplyTo }),
    };
  }

  function eventJson(repo: ExtForgeStandInRepository, e: ExtForgeStandInEvent, index: number, withIssue: boolean): Json {
    return {
      id: e.id ?? 900_000 + index,
      event: e.event,
      actor: userJson(e.actor ?? repo.owner),
      created_at: e.createdAt ?? minutesAfter(BASE_DATE, e.issue + index / 1000),
      commit_id: null,
      ...(e.label === undefined ? {} : { label: { name: e.label, color: "ededed" } }),
      ...(withIssue ? { issue: { number: e.issue } } : {}),
    };
  }

  function gistJson(g: ExtForgeStandInGist, index: number, withContent: boolean): Json {
    const id = g.id ?? `gist${index + 1}`;
    const files: Record<string, Json> = {};
    for (const [name, content] of Object.entries(g.files)) files[name] = { filename: name, size: Buffer.byteLength(content), raw_url: `${origin}/raw/${id}/${name}`, ...(withContent ? { content, truncated: false } : {}) };
    const created = minutesAfter(BASE_DATE, index);
    return { id, description: g.description ?? null, public: g.public !== false, files, html_url: `${origin}/gist/${id}`, created_at: created, updated_at: created, owner: userJson(g.owner) };
  }

  const listening = await listen((req, res, url) => {
    const gitMatch = /^\/([^/]+)\/([^/]+?)\.git(\/info\/refs|\/git-upload-pack|\/git-receive-pack)$/.exec(url.pathname);
    if (gitMatch !== null) {
      handleGit(req, res, url, gitMatch);
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
    exhaustRateLimit(until, more = {}) {
      exhausted = { until, retryAfter: more.retryAfter === true, status: more.status ?? 403 };
    },
    async close() {
      await listening.close();
      await rm(gitRoot, { recursive: true, force: true });
    },
  };
}
