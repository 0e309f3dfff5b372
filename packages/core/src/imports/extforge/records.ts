/**
 * Maps the forge's JSON (GitHub REST v3) onto the port's records, checking what the importer relies
 * on: a record without its identifying fields is a `failed` ExternalFailure, never a half-filled
 * object. Optional fields default to null.
 */
import { externalFailure } from "../external-failure.js";
import type {
  ExtForgeComment,
  ExtForgeGist,
  ExtForgeGistFile,
  ExtForgeIssue,
  ExtForgeIssueEvent,
  ExtForgeLabel,
  ExtForgeMilestone,
  ExtForgePullRequest,
  ExtForgeRelease,
  ExtForgeRepository,
  ExtForgeReviewComment,
  ExtForgeUser,
} from "./types.js";

/** A JSON object as the forge sends it. */
export type Json = Record<string, unknown>;

const bad = (what: string, field: string) => externalFailure("extforge", "failed", `The forge sent a ${what} without a valid "${field}"`);

const obj = (v: unknown): Json | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function need<T>(value: T | null, what: string, field: string): T {
  if (value === null) throw bad(what, field);
  return value;
}

const date = (v: unknown): Date | null => {
  if (typeof v !== "string") return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
const needDate = (v: unknown, what: string, field: string): Date => need(date(v), what, field);

/** A user object (or null when absent: deleted accounts show as null / "ghost"). */
export function mapUser(raw: unknown): ExtForgeUser | null {
  const u = obj(raw);
  if (u === undefined) return null;
  const id = num(u["id"]);
  const login = str(u["login"]);
  if (id === null || login === null) return null;
  return { id, login, email: str(u["email"]), name: str(u["name"]) };
}

const users = (v: unknown): ExtForgeUser[] => (Array.isArray(v) ? v.map(mapUser).filter((u): u is ExtForgeUser => u !== null) : []);
const labelNames = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((l) => (typeof l === "string" ? l : str(obj(l)?.["name"]))).filter((n): n is string => n !== null) : [];
const milestoneNumber = (v: unknown): number | null => num(obj(v)?.["number"]);

export function mapRepository(r: Json): ExtForgeRepository {
  const fullName = need(str(r["full_name"]), "repository", "full_name");
  const [owner = "", name = ""] = fullName.split("/");
  const isPrivate = r["private"] === true;
  const visibility = str(r["visibility"]);
  return {
    id: need(num(r["id"]), "repository", "id"),
    fullName,
    owner: str(obj(r["owner"])?.["login"]) ?? owner,
    name: str(r["name"]) ?? name,
    description: str(r["description"]),
    private: isPrivate,
    visibility: visibility === "internal" || visibility === "private" || visibility === "public" ? visibility : isPrivate ? "private" : "public",
    defaultBranch: str(r["default_branch"]) ?? "main",
    cloneUrl: need(str(r["clone_url"]), "repository", "clone_url"),
    htmlUrl: str(r["html_url"]) ?? "",
    hasIssues: r["has_issues"] !== false,
  };
}

export function mapLabel(l: Json): ExtForgeLabel {
  const color = str(l["color"]) ?? "428bca";
  return { name: need(str(l["name"]), "label", "name"), color: /^#/.test(color) ? color : `#${color}`, description: str(l["description"]) };
}

export function mapMilestone(m: Json): ExtForgeMilestone {
  return {
    number: need(num(m["number"]), "milestone", "number"),
    title: need(str(m["title"]), "milestone", "title"),
    description: str(m["description"]),
    state: m["state"] === "closed" ? "closed" : "open",
    dueOn: str(m["due_on"])?.slice(0, 10) ?? null,
    createdAt: needDate(m["created_at"], "milestone", "created_at"),
    updatedAt: date(m["updated_at"]) ?? needDate(m["created_at"], "milestone", "created_at"),
  };
}

export function mapRelease(r: Json): ExtForgeRelease {
  return {
    id: need(num(r["id"]), "release", "id"),
    tagName: need(str(r["tag_name"]), "release", "tag_name"),
    name: str(r["name"]),
    body: str(r["body"]),
    draft: r["draft"] === true,
    author: mapUser(r["author"]),
    createdAt: needDate(r["created_at"], "release", "created_at"),
    publishedAt: date(r["published_at"]),
  };
}

export function mapIssue(i: Json): ExtForgeIssue {
  return {
    number: need(num(i["number"]), "issue", "number"),
    title: need(str(i["title"]), "issue", "title"),
    body: str(i["body"]),
    state: i["state"] === "closed" ? "closed" : "open",
    author: mapUser(i["user"]),
    assignees: users(i["assignees"]),
    labels: labelNames(i["labels"]),
    milestone: milestoneNumber(i["milestone"]),
    locked: i["locked"] === true,
    createdAt: needDate(i["created_at"], "issue", "created_at"),
    updatedAt: date(i["updated_at"]) ?? needDate(i["created_at"], "issue", "created_at"),
    closedAt: date(i["closed_at"]),
  };
}

export function mapPullRequest(p: Json): ExtForgePullRequest {
  const head = obj(p["head"]) ?? {};
  const base = obj(p["base"]) ?? {};
  const mergedAt = date(p["merged_at"]);
  const headRepo = str(obj(head["repo"])?.["full_name"]);
  const baseRepo = str(obj(base["repo"])?.["full_name"]);
  return {
    number: need(num(p["number"]), "pull request", "number"),
    title: need(str(p["title"]), "pull request", "title"),
    body: str(p["body"]),
    state: mergedAt !== null || p["merged"] === true ? "merged" : p["state"] === "closed" ? "closed" : "open",
    draft: p["draft"] === true,
    author: mapUser(p["user"]),
    assignees: users(p["assignees"]),
    labels: labelNames(p["labels"]),
    milestone: milestoneNumber(p["milestone"]),
    sourceBranch: need(str(head["ref"]), "pull request", "head.ref"),
    sourceSha: need(str(head["sha"]), "pull request", "head.sha"),
    sourceRepository: headRepo !== null && headRepo !== baseRepo ? headRepo : null,
    targetBranch: need(str(base["ref"]), "pull request", "base.ref"),
    targetSha: need(str(base["sha"]), "pull request", "base.sha"),
    mergeCommitSha: mergedAt === null ? null : str(p["merge_commit_sha"]),
    createdAt: needDate(p["created_at"], "pull request", "created_at"),
    updatedAt: date(p["updated_at"]) ?? needDate(p["created_at"], "pull request", "created_at"),
    closedAt: date(p["closed_at"]),
    mergedAt,
  };
}

/** The number at the end of an `issue_url` / `pull_request_url`. */
const trailingNumber = (v: unknown): number | null => {
  const m = typeof v === "string" ? /\/(\d+)$/.exec(v) : null;
  return m?.[1] === undefined ? null : Number(m[1]);
};

/** Comments; `issueNumber` is known for per-issue lists, else read from `issue_url`. */
export const mapComment =
  (issueNumber: number | undefined) =>
  (c: Json): ExtForgeComment => ({
    id: need(num(c["id"]), "comment", "id"),
    issueNumber: issueNumber ?? need(trailingNumber(c["issue_url"]), "comment", "issue_url"),
    body: str(c["body"]) ?? "",
    author: mapUser(c["user"]),
    createdAt: needDate(c["created_at"], "comment", "created_at"),
    updatedAt: date(c["updated_at"]) ?? needDate(c["created_at"], "comment", "created_at"),
  });

export function mapReviewComment(c: Json): ExtForgeReviewComment {
  const side = c["side"];
  return {
    id: need(num(c["id"]), "review comment", "id"),
    pullNumber: need(trailingNumber(c["pull_request_url"]), "review comment", "pull_request_url"),
    body: str(c["body"]) ?? "",
    author: mapUser(c["user"]),
    path: need(str(c["path"]), "review comment", "path"),
    line: num(c["line"]),
    originalLine: num(c["original_line"]),
    side: side === "LEFT" || side === "RIGHT" ? side : null,
    commitId: str(c["commit_id"]) ?? str(c["original_commit_id"]) ?? "",
    originalCommitId: str(c["original_commit_id"]),
    diffHunk: str(c["diff_hunk"]) ?? "",
    inReplyTo: num(c["in_reply_to_id"]),
    createdAt: needDate(c["created_at"], "review comment", "created_at"),
    updatedAt: date(c["updated_at"]) ?? needDate(c["created_at"], "review comment", "created_at"),
  };
}

/** Events; repository-wide events carry their issue in `issue.number`. */
export const mapEvent =
  (issueNumber: number | undefined) =>
  (e: Json): ExtForgeIssueEvent => {
    const rename = obj(e["rename"]);
    const from = str(rename?.["from"]);
    const to = str(rename?.["to"]);
    return {
      id: need(num(e["id"]), "event", "id"),
      issueNumber: issueNumber ?? need(num(obj(e["issue"])?.["number"]), "event", "issue.number"),
      event: need(str(e["event"]), "event", "event"),
      actor: mapUser(e["actor"]),
      createdAt: needDate(e["created_at"], "event", "created_at"),
      label: str(obj(e["label"])?.["name"]),
      milestone: str(obj(e["milestone"])?.["title"]),
      rename: from !== null && to !== null ? { from, to } : null,
      assignee: mapUser(e["assignee"]),
      commitId: str(e["commit_id"]),
    };
  };

/** A gist; `withFiles` false → the files were not fetched (too many to import). */
export function mapGist(g: Json, fileCount: number, withFiles: boolean): ExtForgeGist {
  const files: ExtForgeGistFile[] = [];
  if (withFiles) {
    for (const [key, value] of Object.entries(obj(g["files"]) ?? {})) {
      const f = obj(value) ?? {};
      files.push({ name: str(f["filename"]) ?? key, content: str(f["content"]) ?? "", truncated: f["truncated"] === true });
    }
  }
  return {
    id: need(str(g["id"]), "gist", "id"),
    description: str(g["description"]),
    public: g["public"] === true,
    fileCount,
    files,
    htmlUrl: str(g["html_url"]) ?? "",
    createdAt: needDate(g["created_at"], "gist", "created_at"),
    updatedAt: date(g["updated_at"]) ?? needDate(g["created_at"], "gist", "created_at"),
  };
}
