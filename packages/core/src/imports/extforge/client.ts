/**
 * The default external forge client: GitHub's REST API v3 through a thin client on forgekit's own
 * guarded fetch (./rest.ts: `Link` pagination, every connection checked by the import URL guard,
 * {@link guardedFetch}). The port and its records are in ./types.ts; this file maps the API's
 * JSON onto them and the API's failures onto `ExternalFailure`s:
 * 401 → `unauthorized`, 403 → `forbidden` (or `rate_limited` when `X-RateLimit-Remaining` is 0 or a
 * `Retry-After` is sent: the forge's primary and secondary limits), 429 → `rate_limited`,
 * 404 → `not_found`, a refused address → `blocked_url`, no connection → `unreachable`.
 */
import type { Clock } from "../../ports/runtime.js";
import { basicAuthorization, externalFailure, gitRemoteAccess, rateLimitResetOf, unresolvedHostOf, type ExternalFailure, type GitRemoteAccess } from "../external-failure.js";
import { guardedFetch, isBlockedUrlError } from "../guarded-fetch.js";
import { checkUrl, type HostLookup, type UrlRefusal } from "../url-guard.js";
import { mapComment, mapEvent, mapGist, mapIssue, mapLabel, mapMilestone, mapPullRequest, mapRelease, mapRepository, mapReviewComment, mapUser, type Json } from "./records.js";
import { extForgeRest, type ExtForgeParams, type ExtForgeRest } from "./rest.js";
import type { ExtForgeClient, ExtForgeGist, ExtForgeListOptions, ExtForgePage } from "./types.js";

export type * from "./types.js";

/** The public forge's API root (used when no `extforge_hostname` is given). */
export const PUBLIC_EXTFORGE_API = "https://api.github.com";

/** Options of {@link restExtForge}. */
export interface ExtForgeClientOptions {
  /** The forge token (`personal_access_token`). Sent only to the forge's API and git hosts. */
  token: string;
  /**
   * `extforge_hostname`: the URL (or bare host name, taken as https) of a GitHub Enterprise server;
   * its API is at `<origin>/api/v3`. Absent → the public forge.
   */
  hostname?: string;
  /** Allow loopback / private / link-local addresses (`imports.allowLocalNetwork`). */
  allowLocalNetwork: boolean;
  /** Name resolution for the URL guard (tests inject one). */
  lookup?: HostLookup;
  /** For rate-limit reset times given as `Retry-After` seconds (default: system time). */
  clock?: Clock;
  /** Longest wait for a response's headers, in ms (default 30 000). */
  timeoutMs?: number;
  /** `User-Agent` sent (the forge requires one). */
  userAgent?: string;
}

/** Makes a forge client; the host can replace it (e.g. for a proxy) through the import options. */
export type ExtForgeClientFactory = (options: ExtForgeClientOptions) => ExtForgeClient;

/** The API root for `hostname`: `https://api.github.com`, or `<origin>/api/v3` of a custom host. */
export function extForgeApiUrl(hostname: string | undefined): string {
  if (hostname === undefined || hostname.trim() === "") return PUBLIC_EXTFORGE_API;
  const raw = hostname.trim();
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  return `${url.origin}/api/v3`;
}

const failure = (reason: ExternalFailure["reason"], message: string, extra?: Parameters<typeof externalFailure>[3]) =>
  externalFailure("extforge", reason, message, extra);

/** A name-lookup failure: transient (`unreachable`, retried), with its own message. */
const unresolved = (hostname: string) => failure("unreachable", `Could not resolve the forge's host name (${hostname})`);

/** A URL the guard did not pass: a name that does not resolve (yet) is `unreachable`, anything else `blocked_url`. */
const refusedUrl = (refusal: UrlRefusal, url: string) => (refusal.reason === "unresolvable" ? unresolved(new URL(url).hostname) : failure("blocked_url", refusal.message));

/** The forge's error text from a JSON body (`message`, plus `errors[].message`), trimmed. */
function detailOf(data: unknown): string | undefined {
  if (typeof data === "string") return data.trim().slice(0, 500) || undefined;
  if (typeof data !== "object" || data === null) return undefined;
  const body = data as { message?: unknown; errors?: unknown };
  const parts: string[] = [];
  if (typeof body.message === "string") parts.push(body.message);
  if (Array.isArray(body.errors)) for (const e of body.errors) if (typeof (e as { message?: unknown }).message === "string") parts.push((e as { message: string }).message);
  return parts.length === 0 ? undefined : parts.join(", ").slice(0, 500);
}

/** Whether `error` or one of its causes is an abort or a timeout. */
function timedOut(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === "AbortError" || name === "TimeoutError") return true;
  }
  return false;
}

/** Maps whatever the REST client threw onto an ExternalFailure; the token never reaches a message. */
export function toExtForgeFailure(error: unknown, now: Date): ExternalFailure {
  if (isBlockedUrlError(error)) return failure("blocked_url", "The forge address is not allowed (the URL guard refused it)");
  const host = unresolvedHostOf(error);
  if (host !== undefined) return unresolved(host);
  const e = error as { status?: unknown; response?: { headers?: Record<string, string | undefined>; data?: unknown }; name?: unknown };
  const status = typeof e.status === "number" ? e.status : undefined;
  if (e.response === undefined) {
    if (timedOut(error)) return failure("unreachable", "The forge did not answer in time");
    return failure("unreachable", "Could not connect to the forge", { cause: (error as { cause?: unknown }).cause });
  }
  const raw = e.response.headers ?? {};
  const headers = { get: (name: string) => raw[name] ?? null };
  const detail = detailOf(e.response.data);
  const extra = (more: { resetAt?: Date } = {}) => ({ ...(status === undefined ? {} : { status }), ...(detail === undefined ? {} : { detail }), ...more });
  const limited = headers.get("x-ratelimit-remaining") === "0" || headers.get("retry-after") !== null || /rate limit/i.test(detail ?? "");
  if (status === 429 || (status === 403 && limited)) {
    const resetAt = rateLimitResetOf(headers, now) ?? new Date(now.getTime() + 60_000);
    return failure("rate_limited", `The forge's rate limit is exceeded until ${resetAt.toISOString()}`, extra({ resetAt }));
  }
  if (status === 401) return failure("unauthorized", "The forge did not accept the token (401)", extra());
  if (status === 403) return failure("forbidden", "The forge token may not read this (403)", extra());
  if (status === 404) return failure("not_found", "Not found on the forge (404)", extra());
  return failure("failed", `The forge answered HTTP ${status ?? "?"}`, extra());
}

/** The default forge client (REST v3 on the guarded fetch). Nothing is requested until a method is called. */
export function restExtForge(options: ExtForgeClientOptions): ExtForgeClient & Required<Pick<ExtForgeClient, "user">> {
  const apiUrl = extForgeApiUrl(options.hostname);
  const clock = options.clock ?? { now: () => new Date() };
  const guard = { allowLocalNetwork: options.allowLocalNetwork, ...(options.lookup === undefined ? {} : { lookup: options.lookup }) };
  const fetch = guardedFetch({ ...guard, timeoutMs: options.timeoutMs ?? 30_000 });
  const rest = extForgeRest({ baseUrl: apiUrl, token: options.token, userAgent: options.userAgent ?? "forgekit-importer", fetch });

  /** Runs one request, mapping failures. */
  const call = async <T>(run: (o: ExtForgeRest) => Promise<T>): Promise<T> => {
    try {
      return await run(rest);
    } catch (error) {
      throw toExtForgeFailure(error, clock.now());
    }
  };

  /** Pages of `GET route`, following `Link: rel="next"` from `startPage`. */
  async function* pages<T>(route: string, params: ExtForgeParams, list: ExtForgeListOptions | undefined, map: (item: Json) => T | undefined): AsyncGenerator<ExtForgePage<T>> {
    const perPage = Math.min(100, Math.max(1, list?.perPage ?? 100));
    let page = Math.max(1, list?.startPage ?? 1);
    const iterator = rest.pages(route, { ...params, per_page: perPage, page });
    for (;;) {
      let next: IteratorResult<{ data: unknown; headers: Record<string, string> }>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw toExtForgeFailure(error, clock.now());
      }
      if (next.done === true) return;
      const data = next.value.data;
      if (!Array.isArray(data)) throw failure("failed", `The forge answered ${route} with something that is not a list`);
      const items: T[] = [];
      for (const raw of data as Json[]) {
        const item = map(raw);
        if (item !== undefined) items.push(item);
      }
      const hasNext = /rel="next"/.test(String(next.value.headers["link"] ?? ""));
      yield { page, items, hasNext };
      page += 1;
    }
  }

  const split = (repo: string): { owner: string; repo: string } => {
    const [owner, name, ...rest] = repo.split("/");
    if (owner === undefined || owner === "" || name === undefined || name === "" || rest.length > 0) throw failure("failed", `"${repo}" is not owner/name`);
    return { owner, repo: name };
  };
  const apiOrigin = new URL(apiUrl).origin;

  return {
    apiUrl,
    currentUser: () => call(async (o) => mapUser((await o.request("GET /user")).data as Json) ?? Promise.reject(failure("failed", "The forge sent no user"))),
    user: async (login) => {
      try {
        return await call(async (o) => mapUser((await o.request("GET /users/{username}", { username: login })).data as Json));
      } catch (error) {
        if ((error as ExternalFailure).reason === "not_found") return null;
        throw error;
      }
    },
    repository: (id) => call(async (o) => mapRepository((await o.request("GET /repositories/{id}", { id })).data as Json)),
    labels: (repo, list) => pages("GET /repos/{owner}/{repo}/labels", split(repo), list, mapLabel),
    milestones: (repo, list) => pages("GET /repos/{owner}/{repo}/milestones", { ...split(repo), state: "all", sort: "due_on", direction: "asc" }, list, mapMilestone),
    releases: (repo, list) => pages("GET /repos/{owner}/{repo}/releases", split(repo), list, mapRelease),
    issues: (repo, list) =>
      pages("GET /repos/{owner}/{repo}/issues", { ...split(repo), state: "all", sort: "created", direction: "asc" }, list, (raw) => (raw["pull_request"] === undefined ? mapIssue(raw) : undefined)),
    pullRequests: (repo, list) => pages("GET /repos/{owner}/{repo}/pulls", { ...split(repo), state: "all", sort: "created", direction: "asc" }, list, mapPullRequest),
    issueComments: (repo, list) => pages("GET /repos/{owner}/{repo}/issues/comments", { ...split(repo), sort: "created", direction: "asc" }, list, mapComment(undefined)),
    commentsOf: (repo, issueNumber, list) => pages("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...split(repo), issue_number: issueNumber }, list, mapComment(issueNumber)),
    reviewComments: (repo, list) => pages("GET /repos/{owner}/{repo}/pulls/comments", { ...split(repo), sort: "created", direction: "asc" }, list, mapReviewComment),
    issueEvents: (repo, list) => pages("GET /repos/{owner}/{repo}/issues/events", split(repo), list, mapEvent(undefined)),
    eventsOf: (repo, issueNumber, list) => pages("GET /repos/{owner}/{repo}/issues/{issue_number}/events", { ...split(repo), issue_number: issueNumber }, list, mapEvent(issueNumber)),
    gists: (list) => gistPages(list),
    download: (url, limits) => download(url, limits?.maxBytes ?? 10 * 1024 * 1024),
    gitAccess: (repository) => gitAccess(repository.cloneUrl),
  };

  /** Gists with their contents: one `GET /gists/:id` per gist small enough to import. */
  async function* gistPages(list: (ExtForgeListOptions & { maxFiles?: number }) | undefined): AsyncGenerator<ExtForgePage<ExtForgeGist>> {
    const maxFiles = list?.maxFiles ?? Number.POSITIVE_INFINITY;
    for await (const page of pages("GET /gists", {}, list, (raw) => raw)) {
      const items: ExtForgeGist[] = [];
      for (const summary of page.items) {
        const fileCount = Object.keys((summary["files"] as Json | undefined) ?? {}).length;
        const full = fileCount > maxFiles ? summary : await call(async (o) => (await o.request("GET /gists/{gist_id}", { gist_id: String(summary["id"]) })).data as Json);
        items.push(mapGist(full, fileCount, fileCount <= maxFiles));
      }
      yield { page: page.page, items, hasNext: page.hasNext };
    }
  }

  /** Fetches an attachment; the token goes only to the API's origin (never to a third-party host). */
  async function download(url: string, maxBytes: number): Promise<{ contentType: string | null; bytes: Uint8Array }> {
    const checked = await checkUrl(url, guard);
    if (checked.isErr()) throw refusedUrl(checked.error, url);
    const api = new URL(apiUrl);
    const sameHost = checked.value.origin === apiOrigin || (checked.value.protocol === api.protocol && checked.value.hostname === api.hostname.replace(/^api\./, ""));
    const headers: Record<string, string> = { "user-agent": options.userAgent ?? "forgekit-importer" };
    if (sameHost) headers["authorization"] = `token ${options.token}`;
    let response: Response;
    try {
      response = await fetch(checked.value.href, { headers });
    } catch (error) {
      throw toExtForgeFailure(error, clock.now());
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw toExtForgeFailure({ status: response.status, response: { headers: Object.fromEntries(response.headers), data: "" } }, clock.now());
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).length;
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw failure("failed", `The attachment is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk as Uint8Array);
    }
    return { contentType: response.headers.get("content-type"), bytes: Buffer.concat(chunks) };
  }

  /** The clone URL after the URL guard, and git's Authorization header. */
  async function gitAccess(cloneUrl: string): Promise<GitRemoteAccess> {
    const checked = await checkUrl(cloneUrl, guard);
    if (checked.isErr()) throw refusedUrl(checked.error, cloneUrl);
    const url = checked.value;
    url.username = "";
    url.password = "";
    // The forge's git accepts the token as the password of Basic (any user name).
    return gitRemoteAccess(url.href, basicAuthorization("x-access-token", options.token));
  }
}

/**
 * The former name of {@link restExtForge} (it ran on `@octokit/rest`, no longer a dependency).
 * @deprecated use `restExtForge`.
 */
export const octokitExtForge = restExtForge;
