/**
 * The default external repository server client: Bitbucket Server / Data Center REST API 1.0 on
 * `fetch` through the import URL guard ({@link guardedFetch}), authenticated with Basic (username +
 * token or password). The port and its records are in ./types.ts. Failures: 401 → `unauthorized`,
 * 403 → `forbidden`, 404 → `not_found`, 429 → `rate_limited` (with `Retry-After`), a refused address
 * → `blocked_url`, no connection → `unreachable`, anything else → `failed`.
 */
import type { Clock } from "../../ports/runtime.js";
import { basicAuthorization, externalFailure, gitRemoteAccess, rateLimitResetOf, unresolvedHostOf, type ExternalFailure, type GitRemoteAccess } from "../external-failure.js";
import { guardedFetch, isBlockedUrlError } from "../guarded-fetch.js";
import { checkUrl, type HostLookup } from "../url-guard.js";
import type { ExtServerActivity, ExtServerClient, ExtServerComment, ExtServerListOptions, ExtServerPage, ExtServerPullRequest, ExtServerRepository, ExtServerUser } from "./types.js";

export type * from "./types.js";

/** Options of {@link fetchExtServer}. */
export interface ExtServerClientOptions {
  /** `extserver_url`: the server's root URL (a context path such as `/bitbucket` is kept). */
  url: string;
  /** `extserver_username`. */
  username: string;
  /** `personal_access_token`: a token or the password. */
  token: string;
  /** Allow loopback / private / link-local addresses (`imports.allowLocalNetwork`). */
  allowLocalNetwork: boolean;
  /** Name resolution for the URL guard (tests inject one). */
  lookup?: HostLookup;
  clock?: Clock;
  /** Longest wait for a response's headers, in ms (default 30 000). */
  timeoutMs?: number;
}

/** Makes a repository-server client; the host can replace it through the import options. */
export type ExtServerClientFactory = (options: ExtServerClientOptions) => ExtServerClient;

type Json = Record<string, unknown>;

const failure = (reason: ExternalFailure["reason"], message: string, extra?: Parameters<typeof externalFailure>[3]) =>
  externalFailure("extserver", reason, message, extra);

/** A name-lookup failure: transient (`unreachable`, retried), with its own message. */
const unresolved = (hostname: string) => failure("unreachable", `Could not resolve the repository server's host name (${hostname})`);

const obj = (v: unknown): Json | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bad = (what: string, field: string) => failure("failed", `The repository server sent a ${what} without a valid "${field}"`);
function need<T>(value: T | null, what: string, field: string): T {
  if (value === null) throw bad(what, field);
  return value;
}
/** The server's timestamps are milliseconds since the epoch. */
const millis = (v: unknown): Date | null => (typeof v === "number" && Number.isFinite(v) ? new Date(v) : null);

function mapUser(raw: unknown): ExtServerUser | null {
  const u = obj(raw);
  const name = str(u?.["name"]);
  if (u === undefined || name === null) return null;
  return { name, displayName: str(u["displayName"]), email: str(u["emailAddress"]), slug: str(u["slug"]) };
}

function mapRepository(r: Json): ExtServerRepository {
  const project = obj(r["project"]) ?? {};
  const links = obj(r["links"]) ?? {};
  const clone = Array.isArray(links["clone"]) ? (links["clone"] as unknown[]).map(obj).find((l) => l?.["name"] === "http" || l?.["name"] === "https") : undefined;
  const self = Array.isArray(links["self"]) ? obj((links["self"] as unknown[])[0]) : undefined;
  return {
    id: need(num(r["id"]), "repository", "id"),
    slug: need(str(r["slug"]), "repository", "slug"),
    name: str(r["name"]) ?? need(str(r["slug"]), "repository", "slug"),
    description: str(r["description"]),
    projectKey: need(str(project["key"]), "repository", "project.key"),
    projectName: str(project["name"]),
    public: r["public"] === true,
    cloneUrl: need(str(clone?.["href"]), "repository", "links.clone[http]"),
    webUrl: str(self?.["href"]),
  };
}

function mapPullRequest(p: Json): ExtServerPullRequest {
  const from = obj(p["fromRef"]) ?? {};
  const to = obj(p["toRef"]) ?? {};
  const state = p["state"] === "MERGED" ? "merged" : p["state"] === "DECLINED" ? "declined" : "open";
  const createdAt = need(millis(p["createdDate"]), "pull request", "createdDate");
  return {
    id: need(num(p["id"]), "pull request", "id"),
    title: need(str(p["title"]), "pull request", "title"),
    description: str(p["description"]),
    state,
    author: mapUser(obj(p["author"])?.["user"]),
    sourceBranch: need(str(from["displayId"]), "pull request", "fromRef.displayId"),
    sourceSha: str(from["latestCommit"]) ?? "",
    targetBranch: need(str(to["displayId"]), "pull request", "toRef.displayId"),
    targetSha: str(to["latestCommit"]) ?? "",
    createdAt,
    updatedAt: millis(p["updatedDate"]) ?? createdAt,
    closedAt: millis(p["closedDate"]),
  };
}

function mapComment(raw: unknown, anchor: ExtServerComment["anchor"]): ExtServerComment {
  const c = obj(raw) ?? {};
  const createdAt = need(millis(c["createdDate"]), "comment", "createdDate");
  return {
    id: need(num(c["id"]), "comment", "id"),
    text: str(c["text"]) ?? "",
    author: mapUser(c["author"]),
    createdAt,
    updatedAt: millis(c["updatedDate"]) ?? createdAt,
    anchor,
    replies: Array.isArray(c["comments"]) ? (c["comments"] as unknown[]).map((reply) => mapComment(reply, anchor)) : [],
  };
}

function mapActivity(a: Json): ExtServerActivity {
  const anchorRaw = obj(a["commentAnchor"]);
  const anchor =
    anchorRaw === undefined
      ? null
      : { path: str(anchorRaw["path"]) ?? "", line: num(anchorRaw["line"]), lineType: str(anchorRaw["lineType"]), fileType: str(anchorRaw["fileType"]) };
  return {
    id: need(num(a["id"]), "activity", "id"),
    action: need(str(a["action"]), "activity", "action"),
    user: mapUser(a["user"]),
    createdAt: need(millis(a["createdDate"]), "activity", "createdDate"),
    comment: a["comment"] === undefined || a["comment"] === null ? null : mapComment(a["comment"], anchor),
  };
}

/** The server's error text (`errors[].message`), trimmed. */
async function detailOf(response: Response): Promise<string | undefined> {
  try {
    const body = obj(JSON.parse(await response.text()));
    const messages = Array.isArray(body?.["errors"]) ? (body["errors"] as unknown[]).map((e) => str(obj(e)?.["message"])).filter((m): m is string => m !== null) : [];
    return messages.length === 0 ? undefined : messages.join(", ").slice(0, 500);
  } catch {
    return undefined;
  }
}

/** The default repository-server client. Nothing is requested until a method is called. */
export function fetchExtServer(options: ExtServerClientOptions): ExtServerClient {
  const baseUrl = options.url.trim().replace(/\/+$/, "");
  const clock = options.clock ?? { now: () => new Date() };
  const guard = { allowLocalNetwork: options.allowLocalNetwork, ...(options.lookup === undefined ? {} : { lookup: options.lookup }) };
  const fetch = guardedFetch({ ...guard, timeoutMs: options.timeoutMs ?? 30_000 });
  const authorization = basicAuthorization(options.username, options.token);
  const repoPath = (key: string, slug: string) => `/rest/api/1.0/projects/${encodeURIComponent(key)}/repos/${encodeURIComponent(slug)}`;

  /** GET a JSON object from `path` (relative to the server root). */
  async function get(path: string, query: Record<string, string> = {}): Promise<Json> {
    let url: URL;
    try {
      url = new URL(`${baseUrl}${path}`);
    } catch {
      throw failure("blocked_url", "The repository server URL is not a valid URL");
    }
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization, accept: "application/json" } });
    } catch (error) {
      if (isBlockedUrlError(error)) throw failure("blocked_url", "The repository server address is not allowed (the URL guard refused it)");
      const host = unresolvedHostOf(error);
      if (host !== undefined) throw unresolved(host || url.hostname);
      throw failure("unreachable", "Could not connect to the repository server", { cause: (error as { cause?: unknown }).cause });
    }
    const status = response.status;
    if (status >= 200 && status < 300) {
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw failure("failed", "The repository server sent a body that is not JSON", { status });
      }
      const json = obj(body);
      if (json === undefined) throw failure("failed", "The repository server sent JSON that is not an object", { status });
      return json;
    }
    const detail = await detailOf(response);
    const extra = { status, ...(detail === undefined ? {} : { detail }) };
    if (status === 401) throw failure("unauthorized", "The repository server did not accept the username and token (401)", extra);
    if (status === 403) throw failure("forbidden", "The repository server refused access (403)", extra);
    if (status === 404) throw failure("not_found", "Not found on the repository server (404)", extra);
    if (status === 429) {
      const resetAt = rateLimitResetOf(response.headers, clock.now()) ?? new Date(clock.now().getTime() + 60_000);
      throw failure("rate_limited", `The repository server's rate limit is exceeded until ${resetAt.toISOString()}`, { ...extra, resetAt });
    }
    throw failure("failed", `The repository server answered HTTP ${status}`, extra);
  }

  /** Pages of a paged resource, following `nextPageStart` until `isLastPage`. */
  async function* pages<T>(path: string, query: Record<string, string>, list: ExtServerListOptions | undefined, map: (item: Json) => T): AsyncGenerator<ExtServerPage<T>> {
    const limit = Math.min(1000, Math.max(1, list?.limit ?? 100));
    let start: number | null = Math.max(0, list?.start ?? 0);
    while (start !== null) {
      const body = await get(path, { ...query, start: String(start), limit: String(limit) });
      const values = body["values"];
      if (!Array.isArray(values)) throw failure("failed", "The repository server sent a page without values");
      const items = (values as unknown[]).map((v) => map(obj(v) ?? {}));
      const next = body["isLastPage"] === true ? null : num(body["nextPageStart"]);
      // A page that does not move forward would loop for ever.
      if (next !== null && next <= start) throw failure("failed", "The repository server sent a nextPageStart that does not advance");
      yield { start, items, nextStart: next };
      start = next;
    }
  }

  return {
    baseUrl,
    repository: async (key, slug) => mapRepository(await get(repoPath(key, slug))),
    pullRequests: (key, slug, list) => pages(`${repoPath(key, slug)}/pull-requests`, { state: "ALL", order: "OLDEST" }, list, mapPullRequest),
    activities: (key, slug, id, list) => pages(`${repoPath(key, slug)}/pull-requests/${id}/activities`, {}, list, mapActivity),
    async gitAccess(repository): Promise<GitRemoteAccess> {
      const checked = await checkUrl(repository.cloneUrl, guard);
      if (checked.isErr()) throw checked.error.reason === "unresolvable" ? unresolved(new URL(repository.cloneUrl).hostname) : failure("blocked_url", checked.error.message);
      const url = checked.value;
      url.username = "";
      url.password = "";
      return gitRemoteAccess(url.href, authorization);
    },
  };
}
