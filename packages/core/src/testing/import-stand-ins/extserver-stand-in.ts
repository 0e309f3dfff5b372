/**
 * A stand-in for the external repository server (Bitbucket Server / Data Center REST API 1.0): a
 * real HTTP server on 127.0.0.1 answering `/rest/api/1.0/projects/{key}/repos/{slug}`, its
 * `pull-requests` (`state=ALL|OPEN|DECLINED|MERGED`) and their `activities`, paged with
 * `start` / `limit` / `isLastPage` / `nextPageStart`, with Basic authentication (username + token or
 * password; 401 otherwise), 404 bodies as the server sends them, and the repositories' git over
 * smart HTTP at `/scm/{key}/{slug}.git`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { rm } from "node:fs/promises";
import { buildRepository, serveGit, standInDirectory, type BuiltRepository, type StandInGitRepository } from "./git-repositories.js";
import { arrayList, credentialsOf, generatedList, listen, sendJson, slice, type LazyList, type StandInRequest } from "./kit.js";

/** An account: its login (`name`) and the token (or password) it authenticates with. */
export interface ExtServerStandInUser {
  name: string;
  token: string;
  displayName?: string;
  email?: string;
}

/** A comment on a pull request of the external repository server stand-in. */
export interface ExtServerStandInComment {
  id: number;
  text: string;
  author?: string;
  /** For a comment on a line of the diff. */
  anchor?: { path: string; line?: number; lineType?: "ADDED" | "REMOVED" | "CONTEXT" };
  replies?: ExtServerStandInComment[];
}

/** A pull request of the external repository server stand-in, as a test describes it. */
export interface ExtServerStandInPullRequest {
  id: number;
  title: string;
  description?: string;
  state?: "OPEN" | "DECLINED" | "MERGED";
  author?: string;
  /** Source branch. */
  from: string;
  /** Target branch (default: the default branch). */
  to?: string;
  /** Comments, as `COMMENTED` activities (newest first in the activity stream, as the server sends them). */
  comments?: ExtServerStandInComment[];
  /** Other activities (`APPROVED`, `MERGED`, …). */
  activities?: { id: number; action: string; user?: string }[];
}

/** A repository of the external repository server stand-in, with its pull requests. */
export interface ExtServerStandInRepository {
  id: number;
  projectKey: string;
  slug: string;
  name?: string;
  git?: StandInGitRepository;
  pullRequests?: ExtServerStandInPullRequest[];
  /** Generated pull requests (ids after the given ones), made page by page. */
  generatedPullRequests?: number;
}

/**
 * What the external repository server stand-in serves: its users and repositories, and the largest page it
 * answers.
 */
export interface ExtServerStandInOptions {
  users?: ExtServerStandInUser[];
  repos?: ExtServerStandInRepository[];
  /** Largest `limit` honoured (the server's `page.max.changes`-style cap; default 1000). */
  maxLimit?: number;
}

/**
 * A running external repository server stand-in: its URL, users, built git repositories, the requests it
 * saw, and `close()`.
 */
export interface ExtServerStandIn {
  /** `http://127.0.0.1:<port>`: what `extserver_url` takes. */
  url: string;
  users: ExtServerStandInUser[];
  git: Record<string, BuiltRepository>;
  requests: StandInRequest[];
  close(): Promise<void>;
}

/** The default user: `standin-user` with token `standin-server-token`. */
export const DEFAULT_EXTSERVER_USER: ExtServerStandInUser = { name: "standin-user", token: "standin-server-token", displayName: "Stand-in User", email: "standin-user@standin.test" };

type Json = Record<string, unknown>;
const BASE_MS = Date.UTC(2024, 0, 1);

/** Starts the repository-server stand-in. */
export async function startExtServerStandIn(options: ExtServerStandInOptions = {}): Promise<ExtServerStandIn> {
  const users = options.users ?? [DEFAULT_EXTSERVER_USER];
  const repos = options.repos ?? [];
  const maxLimit = options.maxLimit ?? 1000;
  const gitRoot = await standInDirectory();
  const built: Record<string, BuiltRepository> = {};
  for (const repo of repos) if (repo.git !== undefined) built[`${repo.projectKey}/${repo.slug}`] = await buildRepository(gitRoot, `${repo.projectKey.toLowerCase()}/${repo.slug}.git`, repo.git);
  const requests: StandInRequest[] = [];
  let origin = "";

  const userJson = (name: string | undefined): Json | null => {
    if (name === undefined) return null;
    const u = users.find((x) => x.name === name);
    return { name, slug: name.toLowerCase(), displayName: u?.displayName ?? name, emailAddress: u?.email ?? `${name}@standin.test`, type: "NORMAL", active: true };
  };
  const errorBody = (message: string, exceptionName: string) => ({ errors: [{ context: null, message, exceptionName }] });

  function repoJson(repo: ExtServerStandInRepository): Json {
    const clone = `${origin}/scm/${repo.projectKey.toLowerCase()}/${repo.slug}.git`;
    return {
      id: repo.id,
      slug: repo.slug,
      name: repo.name ?? repo.slug,
      scmId: "git",
      state: "AVAILABLE",
      public: false,
      project: { key: repo.projectKey, name: `Project ${repo.projectKey}`, id: repo.id * 10 },
      links: { clone: [{ href: clone, name: "http" }, { href: `ssh://git@127.0.0.1:7999/${repo.projectKey.toLowerCase()}/${repo.slug}.git`, name: "ssh" }], self: [{ href: `${origin}/projects/${repo.projectKey}/repos/${repo.slug}/browse` }] },
    };
  }

  function prJson(repo: ExtServerStandInRepository, pr: ExtServerStandInPullRequest): Json {
    const git = built[`${repo.projectKey}/${repo.slug}`];
    const to = pr.to ?? repo.git?.defaultBranch ?? "main";
    const created = BASE_MS + pr.id * 60_000;
    const state = pr.state ?? "OPEN";
    const ref = (branch: string) => ({ id: `refs/heads/${branch}`, displayId: branch, latestCommit: git?.branches[branch] ?? "0".repeat(40), repository: { slug: repo.slug, project: { key: repo.projectKey } } });
    return {
      id: pr.id,
      version: 0,
      title: pr.title,
      description: pr.description,
      state,
      open: state === "OPEN",
      closed: state !== "OPEN",
      createdDate: created,
      updatedDate: created + 1000,
      ...(state === "OPEN" ? {} : { closedDate: created + 2000 }),
      fromRef: ref(pr.from),
      toRef: ref(to),
      author: { user: userJson(pr.author ?? users[0]?.name), role: "AUTHOR", approved: false },
    };
  }

  function commentJson(c: ExtServerStandInComment, created: number): Json {
    return { id: c.id, version: 0, text: c.text, author: userJson(c.author ?? users[0]?.name), createdDate: created, updatedDate: created, comments: (c.replies ?? []).map((r) => commentJson(r, created + 1000)) };
  }

  function activities(pr: ExtServerStandInPullRequest): Json[] {
    const base = BASE_MS + pr.id * 60_000;
    const list: Json[] = [];
    (pr.comments ?? []).forEach((c, i) => {
      list.push({
        id: pr.id * 1000 + i + 1,
        createdDate: base + (i + 1) * 10_000,
        user: userJson(c.author ?? users[0]?.name),
        action: "COMMENTED",
        commentAction: "ADDED",
        comment: commentJson(c, base + (i + 1) * 10_000),
        ...(c.anchor === undefined ? {} : { commentAnchor: { path: c.anchor.path, line: c.anchor.line ?? null, lineType: c.anchor.lineType ?? "ADDED", fileType: "TO" } }),
      });
    });
    for (const a of pr.activities ?? []) list.push({ id: a.id, createdDate: base + 500_000 + a.id, user: userJson(a.user ?? users[0]?.name), action: a.action });
    // The server lists activities newest first.
    return list.sort((a, b) => (b["createdDate"] as number) - (a["createdDate"] as number));
  }

  /** A `start` / `limit` page. */
  function page(res: ServerResponse, url: URL, list: LazyList<unknown>): void {
    const start = Math.max(0, Number.parseInt(url.searchParams.get("start") ?? "0", 10) || 0);
    const limit = Math.min(maxLimit, Math.max(1, Number.parseInt(url.searchParams.get("limit") ?? "25", 10) || 25));
    const values = slice(list, start, start + limit);
    const isLastPage = start + limit >= list.length;
    sendJson(res, 200, { size: values.length, limit, start, isLastPage, values, ...(isLastPage ? {} : { nextPageStart: start + limit }) });
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const credentials = credentialsOf(req);
    const user =
      credentials?.kind === "basic"
        ? users.find((u) => u.name === credentials.username && u.token === credentials.password)
        : credentials?.kind === "token"
          ? users.find((u) => u.token === credentials.token)
          : undefined;
    const gitMatch = /^\/scm\/([^/]+)\/([^/]+?)\.git(\/info\/refs|\/git-upload-pack|\/git-receive-pack)$/.exec(url.pathname);
    if (user === undefined) {
      if (gitMatch !== null) res.writeHead(401, { "www-authenticate": 'Basic realm="Atlassian Bitbucket"' }).end();
      else sendJson(res, 401, errorBody("Authentication failed. Please check your credentials and try again.", "com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException"));
      return;
    }
    if (gitMatch !== null) {
      const [, key = "", slug = "", suffix = ""] = gitMatch;
      const repo = repos.find((r) => r.projectKey.toLowerCase() === key.toLowerCase() && r.slug === slug);
      if (repo?.git === undefined) res.writeHead(404).end();
      else serveGit(gitRoot, `${repo.projectKey.toLowerCase()}/${slug}.git`, suffix, req, res, url.search.slice(1));
      return;
    }
    const m = /^\/rest\/api\/1\.0\/projects\/([^/]+)\/repos\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (req.method !== "GET" || m === null) {
      sendJson(res, 404, errorBody(`No resource at ${url.pathname}`, "com.sun.jersey.api.NotFoundException"));
      return;
    }
    const [, key = "", slug = "", rest = ""] = m.map((p) => (p === undefined ? p : decodeURIComponent(p)));
    if (!repos.some((r) => r.projectKey === key)) {
      sendJson(res, 404, errorBody(`Project ${key} does not exist.`, "com.atlassian.bitbucket.project.NoSuchProjectException"));
      return;
    }
    const repo = repos.find((r) => r.projectKey === key && r.slug === slug);
    if (repo === undefined) {
      sendJson(res, 404, errorBody(`Repository ${key}/${slug} does not exist.`, "com.atlassian.bitbucket.repository.NoSuchRepositoryException"));
      return;
    }
    const given = repo.pullRequests ?? [];
    const firstGenerated = given.reduce((max, p) => Math.max(max, p.id), 0) + 1;
    const all: LazyList<ExtServerStandInPullRequest> = {
      length: given.length + (repo.generatedPullRequests ?? 0),
      at: (i) => given[i] ?? { id: firstGenerated + i - given.length, title: `Generated pull request ${firstGenerated + i - given.length}`, from: `feature-${i}` },
    };
    if (rest === "") {
      sendJson(res, 200, repoJson(repo));
      return;
    }
    if (rest === "/pull-requests") {
      const state = (url.searchParams.get("state") ?? "OPEN").toUpperCase();
      const filtered = state === "ALL" ? all : arrayList(slice(all, 0, all.length).filter((p) => (p.state ?? "OPEN") === state));
      const ordered = url.searchParams.get("order") === "OLDEST" ? filtered : generatedList(filtered.length, (i) => filtered.at(filtered.length - 1 - i));
      page(res, url, generatedList(ordered.length, (i) => prJson(repo, ordered.at(i))));
      return;
    }
    const act = /^\/pull-requests\/(\d+)\/activities$/.exec(rest);
    const pr = act === null ? undefined : slice(all, 0, all.length).find((p) => p.id === Number(act[1]));
    if (act !== null && pr !== undefined) {
      page(res, url, arrayList(activities(pr)));
      return;
    }
    sendJson(res, 404, errorBody(`Pull request ${act?.[1] ?? "?"} does not exist in ${key}/${slug}.`, "com.atlassian.bitbucket.pull.NoSuchPullRequestException"));
  }

  const listening = await listen(handle, requests);
  origin = listening.origin;
  return {
    url: origin,
    users,
    git: built,
    requests,
    async close() {
      await listening.close();
      await rm(gitRoot, { recursive: true, force: true });
    },
  };
}
