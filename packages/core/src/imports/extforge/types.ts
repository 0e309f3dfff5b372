/**
 * The external forge port (DESIGN §7): what the importer reads from GitHub's REST API v3, as typed
 * records holding just the fields an import needs. The default implementation is
 * {@link ../extforge/client.ts `restExtForge`}; tests use the stand-in of `@forgekit/core/testing`.
 *
 * Every list is an async iterator over pages (`for await (const page of client.issues(repo))`), so
 * memory stays bounded by one page; a page says its number, and a job that stored the number of
 * the last page it finished resumes with `{ startPage: n + 1 }`. Calls and iterators reject with an
 * `ExternalFailure` (imports/external-failure.ts) with `service: "extforge"`.
 */
import type { GitRemoteAccess } from "../external-failure.js";

/** An account on the forge. `email` is the public e-mail (or the token owner's own when readable). */
export interface ExtForgeUser {
  id: number;
  login: string;
  email: string | null;
  name: string | null;
}

/** A repository (`GET /repositories/:id`). */
export interface ExtForgeRepository {
  id: number;
  /** `owner/name`: the import's `import_source`. */
  fullName: string;
  owner: string;
  name: string;
  description: string | null;
  private: boolean;
  /** `public`, `private` or `internal` (GitHub Enterprise). */
  visibility: "public" | "private" | "internal";
  defaultBranch: string;
  /** The `https://…/owner/name.git` clone URL (no credentials). */
  cloneUrl: string;
  /** The repository's page (`https://github.com/owner/name`). */
  htmlUrl: string;
  hasIssues: boolean;
}

/** A label of the repository. */
export interface ExtForgeLabel {
  name: string;
  /** Six hex digits with a leading `#`. */
  color: string;
  description: string | null;
}

/** A milestone; `number` is its per-repository number (kept as the milestone's iid). */
export interface ExtForgeMilestone {
  number: number;
  title: string;
  description: string | null;
  state: "open" | "closed";
  /** `YYYY-MM-DD` or null. */
  dueOn: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A release of the repository (`GET /repos/:owner/:repo/releases`). */
export interface ExtForgeRelease {
  id: number;
  tagName: string;
  name: string | null;
  body: string | null;
  /** Drafts are listed to those who may push; they have no `publishedAt`. */
  draft: boolean;
  author: ExtForgeUser | null;
  createdAt: Date;
  publishedAt: Date | null;
}

/** An issue (pull requests are never listed as issues). */
export interface ExtForgeIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  author: ExtForgeUser | null;
  assignees: ExtForgeUser[];
  /** Label names. */
  labels: string[];
  /** The milestone's number. */
  milestone: number | null;
  locked: boolean;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

/** A pull request; `state` is `merged` when it was merged (the API says `closed` + `merged_at`). */
export interface ExtForgePullRequest {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed" | "merged";
  draft: boolean;
  author: ExtForgeUser | null;
  assignees: ExtForgeUser[];
  labels: string[];
  milestone: number | null;
  /** `head.ref`: the branch it merges from. */
  sourceBranch: string;
  sourceSha: string;
  /** Repository of the head when it is a fork (`owner/name`), else null. */
  sourceRepository: string | null;
  /** `base.ref`: the branch it merges into. */
  targetBranch: string;
  targetSha: string;
  mergeCommitSha: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
}

/** A comment on an issue or a pull request's conversation (`issueNumber` is either's number). */
export interface ExtForgeComment {
  id: number;
  issueNumber: number;
  body: string;
  author: ExtForgeUser | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A review comment on a pull request's diff. */
export interface ExtForgeReviewComment {
  id: number;
  pullNumber: number;
  body: string;
  author: ExtForgeUser | null;
  /** File path in the diff. */
  path: string;
  /** Line in the new file, or null when the comment is on a removed line or outdated. */
  line: number | null;
  originalLine: number | null;
  side: "LEFT" | "RIGHT" | null;
  /** The pull request's commit the comment is on now (`commit_id`), or the original one when absent. */
  commitId: string;
  /** The commit the comment was first made on (`original_commit_id`). */
  originalCommitId: string | null;
  diffHunk: string;
  /** Id of the review comment it answers. */
  inReplyTo: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An event on an issue or pull request (`closed`, `reopened`, `labeled`, `renamed`, `milestoned`, …). */
export interface ExtForgeIssueEvent {
  id: number;
  issueNumber: number;
  /** The forge's event name, as sent. */
  event: string;
  actor: ExtForgeUser | null;
  createdAt: Date;
  /** `labeled` / `unlabeled`: the label name. */
  label: string | null;
  /** `milestoned` / `demilestoned`: the milestone title. */
  milestone: string | null;
  /** `renamed`: old and new title. */
  rename: { from: string; to: string } | null;
  /** `assigned` / `unassigned`: the assignee. */
  assignee: ExtForgeUser | null;
  /** `closed` / `referenced` / `merged`: the commit, when there is one. */
  commitId: string | null;
}

/** One file of a gist, with its content. */
export interface ExtForgeGistFile {
  name: string;
  content: string;
  /** The forge cut the content short (files over about 1 MB): `content` is incomplete. */
  truncated: boolean;
}

/** A gist of the token's owner, with its files' contents. */
export interface ExtForgeGist {
  id: string;
  description: string | null;
  public: boolean;
  /** Number of files the gist has (the importer skips gists with more than 10). */
  fileCount: number;
  /** The files; empty when `fileCount` is over the `maxFiles` the caller passed (they are not fetched). */
  files: ExtForgeGistFile[];
  htmlUrl: string;
  createdAt: Date;
  updatedAt: Date;
}

/** One page of a list. */
export interface ExtForgePage<T> {
  /** 1-based page number (what `startPage` takes). */
  page: number;
  items: T[];
  /** Whether another page follows (the `Link` header has `rel="next"`). */
  hasNext: boolean;
}

/** Where a list starts and how long its pages are. */
export interface ExtForgeListOptions {
  /** Page to start from (default 1): a resumed job passes the page after the last it finished. */
  startPage?: number;
  /** Items per page, 1..100 (default 100). */
  perPage?: number;
}

/** The forge, as the importer sees it. */
export interface ExtForgeClient {
  /** The API root, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`. */
  readonly apiUrl: string;
  /** The token's owner (`GET /user`): validates the token (401 → `unauthorized`). */
  currentUser(): Promise<ExtForgeUser>;
  /**
   * An account by login (`GET /users/:login`), with its public e-mail when it shows one (how authors
   * and assignees are mapped); null when the forge has no such account (404). Optional for clients
   * written before it: without it, records map only by the e-mails the lists carry (none on GitHub).
   */
  user?(login: string): Promise<ExtForgeUser | null>;
  /**
   * The repository by id (`GET /repositories/:id`): checks that the token can read it
   * (401 → `unauthorized`; 403 / 404 → `forbidden` / `not_found`).
   */
  repository(id: number): Promise<ExtForgeRepository>;
  labels(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeLabel>>;
  /** All milestones (open and closed), by number. */
  milestones(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeMilestone>>;
  /**
   * Every release, drafts included, as the forge lists them (newest first). Optional for clients
   * written before it: without it, an import brings no releases.
   */
  releases?(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeRelease>>;
  /** All issues (open and closed), oldest first; pull requests are left out. */
  issues(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeIssue>>;
  /** All pull requests (open, closed, merged), oldest first. */
  pullRequests(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgePullRequest>>;
  /** Every issue and pull-request comment of the repository, oldest first (`/issues/comments`). */
  issueComments(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeComment>>;
  /** The comments of one issue or pull request (`single_endpoint_notes_import`). */
  commentsOf(repo: string, issueNumber: number, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeComment>>;
  /** Every review comment of the repository, oldest first (`/pulls/comments`). */
  reviewComments(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeReviewComment>>;
  /** Every issue and pull-request event of the repository (`/issues/events`). */
  issueEvents(repo: string, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeIssueEvent>>;
  /** The events of one issue or pull request (`single_endpoint_issue_events_import`). */
  eventsOf(repo: string, issueNumber: number, options?: ExtForgeListOptions): AsyncIterable<ExtForgePage<ExtForgeIssueEvent>>;
  /**
   * The token owner's gists with their files' contents (one `GET /gists/:id` per gist with at most
   * `maxFiles` files; larger gists come with `files: []` and their `fileCount`).
   */
  gists(options?: ExtForgeListOptions & { maxFiles?: number }): AsyncIterable<ExtForgePage<ExtForgeGist>>;
  /**
   * Downloads a Markdown attachment (`attachments_import`) through the URL guard, sending the token
   * only to the forge's own hosts. Rejects with `failed` past `maxBytes` (default 10 MiB).
   */
  download(url: string, options?: { maxBytes?: number }): Promise<{ contentType: string | null; bytes: Uint8Array }>;
  /**
   * How git reaches the repository: its clone URL (checked by the URL guard) and the environment
   * that hands git the token as an `Authorization` header.
   */
  gitAccess(repository: ExtForgeRepository): Promise<GitRemoteAccess>;
}
