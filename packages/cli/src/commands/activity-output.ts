/** How the activity commands print records: snake_case JSON (as the REST API names things) and one text line each. */
import type { Event, Issue, MergeRequest, Milestone, Note, Snippet } from "@forgekit/core";
import { actionName } from "@forgekit/core/internal";
import type { CommandArgs } from "../command.js";
import { UsageError } from "../usage-error.js";
import { positiveInt } from "../values.js";

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function issueRecord(issue: Issue): Record<string, unknown> {
  return {
    id: issue.id, iid: issue.iid, project_id: issue.projectId, title: issue.title, description: issue.description,
    state: issue.state, confidential: issue.confidential, author_id: issue.authorId, created_at: iso(issue.createdAt), closed_at: iso(issue.closedAt),
  };
}

export const issueLine = (issue: Issue): string =>
  `issue #${issue.iid} "${issue.title}" in project ${issue.projectId} (${issue.state}${issue.confidential ? ", confidential" : ""})`;

export function mergeRequestRecord(mr: MergeRequest): Record<string, unknown> {
  return {
    id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, state: mr.state, author_id: mr.authorId,
    source_branch: mr.sourceBranch, target_branch: mr.targetBranch, created_at: iso(mr.createdAt), merged_at: iso(mr.mergedAt), closed_at: iso(mr.closedAt),
  };
}

export const mergeRequestLine = (mr: MergeRequest): string =>
  `merge request !${mr.iid} "${mr.title}" ${mr.sourceBranch} → ${mr.targetBranch} in project ${mr.projectId} (${mr.state})`;

export function milestoneRecord(m: Milestone): Record<string, unknown> {
  return { id: m.id, iid: m.iid, project_id: m.projectId, title: m.title, description: m.description, state: m.state, created_at: iso(m.createdAt) };
}

export const milestoneLine = (m: Milestone): string => `milestone %${m.iid} "${m.title}" in project ${m.projectId} (${m.state})`;

export function snippetRecord(s: Snippet): Record<string, unknown> {
  return { id: s.id, project_id: s.projectId, author_id: s.authorId, title: s.title, file_name: s.fileName, visibility: s.visibility, created_at: iso(s.createdAt) };
}

export const snippetLine = (s: Snippet): string =>
  `snippet ${s.id} "${s.title}" (${s.fileName}, ${s.visibility}${s.projectId === null ? ", personal" : `, project ${s.projectId}`})`;

export function noteRecord(n: Note): Record<string, unknown> {
  return { id: n.id, project_id: n.projectId, noteable_type: n.noteableType, noteable_id: n.noteableId, author_id: n.authorId, body: n.body, system: n.system, created_at: iso(n.createdAt) };
}

export const noteLine = (n: Note): string => `note ${n.id} on ${n.noteableType} ${n.noteableId} by user ${n.authorId}${n.system ? " (system)" : ""}`;

export function eventRecord(e: Event): Record<string, unknown> {
  return {
    id: e.id, project_id: e.projectId, author_id: e.authorId, action_name: actionName(e), action: e.action,
    target_type: e.targetType, target_id: e.targetId, target_iid: e.targetIid, target_title: e.targetTitle, created_at: iso(e.createdAt),
    ...(e.push === null ? {} : { push_data: { ...e.push } }),
    ...(e.note === null ? {} : { note: { id: e.note.id, body: e.note.body, noteable_type: e.note.noteableType, noteable_id: e.note.noteableId } }),
  };
}

export function eventLine(e: Event): string {
  const target = e.targetType === null ? "" : ` ${e.targetType}${e.targetIid === null ? "" : ` ${e.targetIid}`}${e.targetTitle === null ? "" : ` "${e.targetTitle}"`}`;
  const push = e.push === null ? "" : ` ${e.push.refType} ${e.push.ref}${e.push.commitCount > 0 ? ` (${e.push.commitCount} commits)` : ""}`;
  return `event ${e.id} ${e.createdAt.toISOString()} user ${e.authorId} ${actionName(e)}${target}${push} in project ${e.projectId ?? "-"}`;
}

/** `--page` and `--per-page` (1-100, default 20), checked while parsing. */
export function pageOptions(args: CommandArgs, command: string): { kind: "offset"; page: number; perPage: number } {
  const perPage = positiveInt("--per-page", args.string("per-page") ?? "20");
  if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, command);
  return { kind: "offset", page: positiveInt("--page", args.string("page") ?? "1"), perPage };
}

/** Options shared by the list commands. */
export const PAGE_OPTIONS = {
  page: { type: "string", placeholder: "<n>", description: "page number (default 1)" },
  "per-page": { type: "string", placeholder: "<n>", description: "entries per page, 1-100 (default 20)" },
} as const;

/** The list's lines, with a hint when another page follows. */
export function paged<T>(items: readonly T[], hasNext: boolean, page: number, line: (item: T) => string, none: string): string[] {
  const lines = items.length === 0 ? [none] : items.map(line);
  return hasNext ? [...lines, `more on the next page: --page ${page + 1}`] : lines;
}
