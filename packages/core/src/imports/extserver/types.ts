/**
 * The external repository server port (DESIGN §7): what the importer reads from Bitbucket Server /
 * Data Center's REST API 1.0, as typed records. Default implementation: `fetchExtServer`
 * (extserver/client.ts) on `fetch` through the URL guard. Lists are async iterators over pages
 * (`start` / `limit` / `isLastPage` / `nextPageStart`); a page says where the next one starts, so a
 * resumed job passes `{ start: page.nextStart }`. Calls and iterators reject with an
 * `ExternalFailure` (imports/external-failure.ts) with `service: "extserver"`.
 */
import type { GitRemoteAccess } from "../external-failure.js";

/** A user of the server (`name` is the login). */
export interface ExtServerUser {
  name: string;
  displayName: string | null;
  email: string | null;
  slug: string | null;
}

/** A repository (`/rest/api/1.0/projects/{key}/repos/{slug}`). */
export interface ExtServerRepository {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  projectKey: string;
  projectName: string | null;
  public: boolean;
  /** The HTTP clone URL (`links.clone[name=http]`), without credentials. */
  cloneUrl: string;
  /** The repository's page (`links.self[0]`), or null. */
  webUrl: string | null;
}

/** A pull request; `id` is its per-repository number (kept as the merge request's iid). */
export interface ExtServerPullRequest {
  id: number;
  title: string;
  description: string | null;
  /** `OPEN` → opened, `DECLINED` → closed, `MERGED` → merged. */
  state: "open" | "declined" | "merged";
  author: ExtServerUser | null;
  /** `fromRef.displayId`: the branch it merges from. */
  sourceBranch: string;
  sourceSha: string;
  /** `toRef.displayId`. */
  targetBranch: string;
  targetSha: string;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

/** A comment, with its replies (the server nests them). */
export interface ExtServerComment {
  id: number;
  text: string;
  author: ExtServerUser | null;
  createdAt: Date;
  updatedAt: Date;
  /** Present on comments about a line of the diff. */
  anchor: { path: string; line: number | null; lineType: string | null; fileType: string | null } | null;
  replies: ExtServerComment[];
}

/** One entry of a pull request's activity stream. */
export interface ExtServerActivity {
  id: number;
  /** `COMMENTED`, `MERGED`, `DECLINED`, `APPROVED`, `OPENED`, `RESCOPED`, … as sent. */
  action: string;
  user: ExtServerUser | null;
  createdAt: Date;
  /** `COMMENTED` activities: the comment (with replies and, for diff comments, its anchor). */
  comment: ExtServerComment | null;
}

/** One page of a list. */
export interface ExtServerPage<T> {
  /** This page's `start`. */
  start: number;
  items: T[];
  /** `nextPageStart`, or null on the last page (`isLastPage`). */
  nextStart: number | null;
}

/** Where a list starts and how long its pages are. */
export interface ExtServerListOptions {
  /** `start` of the first page (default 0). */
  start?: number;
  /** Items per page, 1..1000 (default 100). */
  limit?: number;
}

/** The repository server, as the importer sees it. */
export interface ExtServerClient {
  /** The server root (the `extserver_url` as given, without a trailing slash). */
  readonly baseUrl: string;
  /**
   * The repository (`GET /rest/api/1.0/projects/{projectKey}/repos/{slug}`): 401 → `unauthorized`,
   * 404 → `not_found` (the importer answers 422 "Project KEY/slug could not be found"), no
   * connection → `unreachable` (the importer answers 400).
   */
  repository(projectKey: string, slug: string): Promise<ExtServerRepository>;
  /** Every pull request (`state=ALL`), as the server orders them. */
  pullRequests(projectKey: string, slug: string, options?: ExtServerListOptions): AsyncIterable<ExtServerPage<ExtServerPullRequest>>;
  /** A pull request's activities, newest first as the server sends them. */
  activities(projectKey: string, slug: string, pullRequestId: number, options?: ExtServerListOptions): AsyncIterable<ExtServerPage<ExtServerActivity>>;
  /** How git reaches the repository: its clone URL (checked by the URL guard) and Basic credentials for git. */
  gitAccess(repository: ExtServerRepository): Promise<GitRemoteAccess>;
}
