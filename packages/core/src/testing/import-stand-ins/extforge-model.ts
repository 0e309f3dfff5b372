/**
 * What a test describes to the forge stand-in (extforge-stand-in.ts): its accounts, repositories
 * with their issues, pull requests, comments, events and attachments, gists, and rate limit.
 */
import type { StandInGitRepository } from "./git-repositories.js";

/** An account and the token that authenticates as it. */
export interface ExtForgeStandInUser {
  id: number;
  login: string;
  name?: string;
  /** The public e-mail (`GET /users/:login` and `GET /user` show it); null or absent: none shown. */
  email?: string | null;
  token: string;
  /** Repository ids this token gets 403 for (a token without the `repo` scope). */
  forbidden?: number[];
}

/** An issue of the external forge stand-in, as a test describes it. */
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

/** A pull request of the external forge stand-in, as a test describes it. */
export interface ExtForgeStandInPull extends Omit<ExtForgeStandInIssue, "state"> {
  state?: "open" | "closed" | "merged";
  /** Source branch. */
  head: string;
  /** Target branch (default: the default branch). */
  base?: string;
  draft?: boolean;
}

/** A comment on an issue or pull request of the external forge stand-in. */
export interface ExtForgeStandInComment {
  id?: number;
  /** Number of the issue or pull request. */
  issue: number;
  body: string;
  author?: string;
  createdAt?: string;
}

/** A review comment on a pull request's diff of the external forge stand-in. */
export interface ExtForgeStandInReviewComment {
  id?: number;
  pull: number;
  body: string;
  path: string;
  /** The line in the current diff; null: the comment is outdated (see `originalLine`). */
  line?: number | null;
  /** The line when the comment was made (default: `line`). */
  originalLine?: number | null;
  /** `RIGHT` (default): a line of the new file; `LEFT`: of the old one. */
  side?: "LEFT" | "RIGHT";
  /** The diff hunk the comment shows (default: a one-line hunk). */
  diffHunk?: string;
  author?: string;
  inReplyTo?: number;
  createdAt?: string;
}

/** An issue event (closed, labeled, …) of the external forge stand-in. */
export interface ExtForgeStandInEvent {
  id?: number;
  issue: number;
  event: string;
  actor?: string;
  label?: string;
  createdAt?: string;
}

/** A release of the external forge stand-in (`GET /repos/:owner/:repo/releases`). */
export interface ExtForgeStandInRelease {
  /** Default: derived from the repository id and the release's position. */
  id?: number;
  tagName: string;
  name?: string | null;
  body?: string | null;
  /** A draft has no `published_at` (the forge lists drafts to those who may push). */
  draft?: boolean;
  /** Author login (default: the repository owner). */
  author?: string;
  createdAt?: string;
  /** Default: `createdAt` for a published release, null for a draft. */
  publishedAt?: string | null;
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
  /** Releases, served in the given order. */
  releases?: ExtForgeStandInRelease[];
  /** Generated issues (numbered after the given ones) with `commentsPerIssue` comments each, made on the fly. */
  generated?: { issues: number; commentsPerIssue?: number };
}

/** A gist of the external forge stand-in. */
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

/**
 * What the external forge stand-in serves: its users, repositories (with their issues, pull requests,
 * comments and events), gists, its rate limit and clock.
 */
export interface ExtForgeStandInOptions {
  users?: ExtForgeStandInUser[];
  repos?: ExtForgeStandInRepository[];
  gists?: ExtForgeStandInGist[];
  rateLimit?: ExtForgeStandInRateLimit;
  /**
   * Files served on the forge's web host by path (`/user-attachments/assets/<id>`,
   * `/<owner>/<repo>/assets/<id>`): what issue and comment bodies link to as attachments.
   */
  attachments?: Record<string, { body: string | Uint8Array; contentType?: string }>;
  /** Time source in ms (default `Date.now`), for rate-limit windows. */
  now?: () => number;
}

/** The default user: `standin-user` with token `standin-forge-token`. */
export const DEFAULT_EXTFORGE_USER: ExtForgeStandInUser = { id: 1, login: "standin-user", name: "Stand-in User", email: "standin-user@standin.test", token: "standin-forge-token" };
