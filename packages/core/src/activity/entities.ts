/**
 * JSON shapes of issues, notes and milestones (reference `API::Entities::Issue`, `IssueBasic`,
 * `Note`, `Milestone`). Fields forgekit has no data for carry the reference's value for an empty
 * record (`0`, `null`, `false`).
 */
import { userBasic } from "../accounts/entities/users.js";
import { iso } from "../accounts/entities/time.js";
import type { Project, User } from "../accounts/types.js";
import type { Group } from "../accounts/types.js";
import type { GroupMilestone } from "../ports/group-milestones-store.js";
import { taskCompletion } from "./issuable-facts.js";
import { isResolvable } from "./note-fields.js";
import type { DiffLineRangeEnd, DiffPosition, Issue, Milestone, Note } from "./types.js";

/**
 * `GET /projects/:id/milestones/:milestone_id` entity; `today` (`YYYY-MM-DD`, the clock's UTC date)
 * decides `expired` (reference `Timebox#expired?`: a due date before today).
 */
export function milestoneEntity(milestone: Milestone, project: Project, baseUrl: string, today: string) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.projectId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: iso(milestone.createdAt),
    updated_at: iso(milestone.updatedAt),
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: milestone.dueDate !== null && milestone.dueDate < today,
    web_url: `${baseUrl}/${project.fullPath}/-/milestones/${milestone.iid}`,
  };
}

/** `GET /groups/:id/milestones/:milestone_id` entity; `today` as for {@link milestoneEntity}. */
export function groupMilestoneEntity(milestone: GroupMilestone, group: Group, baseUrl: string, today: string) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    group_id: milestone.groupId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: iso(milestone.createdAt),
    updated_at: iso(milestone.updatedAt),
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: milestone.dueDate !== null && milestone.dueDate < today,
    web_url: `${baseUrl}/groups/${group.fullPath}/-/milestones/${milestone.iid}`,
  };
}

/** Where the issue's references are read from: a project list (`#1`), a group (`proj#1`) or anywhere (`grp/proj#1`). */
export type ReferenceContext = { kind: "project" } | { kind: "group"; fullPath: string } | { kind: "global" };

function relativeReference(project: Project, iid: number, context: ReferenceContext): string {
  if (context.kind === "project") return `#${iid}`;
  if (context.kind === "group" && project.fullPath.startsWith(`${context.fullPath}/`)) return `${project.fullPath.slice(context.fullPath.length + 1)}#${iid}`;
  return `${project.fullPath}#${iid}`;
}

/** Everything an issue entity shows besides the issue row. */
export interface IssueView {
  issue: Issue;
  project: Project;
  author: User | null;
  assignees: readonly User[];
  labels: readonly string[];
  milestone: Milestone | null;
  /** Who closed it (the author of its latest "closed" system note), when closed. */
  closedBy: User | null;
  userNotesCount: number;
  /** Merge requests that close it (stored relation) which the viewer may read. */
  mergeRequestsCount: number;
  context: ReferenceContext;
}

/** `API::Entities::Issue`. */
export function issueEntity(view: IssueView, baseUrl: string, today: string) {
  const { issue, project } = view;
  const api = `${baseUrl}/api/v4/projects/${project.id}`;
  const tasks = taskCompletion(issue.description);
  const assignees = view.assignees.map((u) => userBasic(u, baseUrl));
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: iso(issue.closedAt),
    closed_by: view.closedBy === null ? null : userBasic(view.closedBy, baseUrl),
    labels: [...view.labels],
    milestone: view.milestone === null ? null : milestoneEntity(view.milestone, project, baseUrl, today),
    assignees,
    author: view.author === null ? null : userBasic(view.author, baseUrl),
    type: "ISSUE",
    assignee: assignees[0] ?? null,
    user_notes_count: view.userNotesCount,
    merge_requests_count: view.mergeRequestsCount,
    upvotes: 0,
    downvotes: 0,
    due_date: issue.dueDate,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked,
    issue_type: "issue",
    web_url: `${baseUrl}/${project.fullPath}/-/issues/${issue.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    task_completion_status: tasks,
    has_tasks: tasks.count > 0,
    ...(tasks.count > 0 ? { task_status: `${tasks.completed_count} of ${tasks.count} ${tasks.count === 1 ? "task" : "tasks"} completed` } : {}),
    blocking_issues_count: 0,
    _links: { self: `${api}/issues/${issue.iid}`, notes: `${api}/issues/${issue.iid}/notes`, award_emoji: `${api}/issues/${issue.iid}/award_emoji`, project: api, closed_as_duplicate_of: null },
    references: { short: `#${issue.iid}`, relative: relativeReference(project, issue.iid, view.context), full: `${project.fullPath}#${issue.iid}` },
    severity: "UNKNOWN",
    moved_to_id: null,
    imported: issue.importedFrom !== "none",
    imported_from: issue.importedFrom,
    service_desk_reply_to: null,
  };
}

/** A diff note's `position` as the reference shows it (`Gitlab::Diff::Position#to_h`, text positions). */
export function positionEntity(position: DiffPosition) {
  const end = (e: DiffLineRangeEnd | null) => (e === null ? null : { line_code: e.lineCode, type: e.type, old_line: e.oldLine, new_line: e.newLine });
  return {
    base_sha: position.baseSha,
    start_sha: position.startSha,
    head_sha: position.headSha,
    old_path: position.oldPath,
    new_path: position.newPath,
    position_type: position.positionType,
    old_line: position.oldLine,
    new_line: position.newLine,
    line_range: position.lineRange === null ? null : { start: end(position.lineRange.start), end: end(position.lineRange.end) },
  };
}

/**
 * `API::Entities::Note`; `noteableIid` is null for snippets. `users` holds the author and the
 * resolver (missing: shown as null). Resolution fields appear only on resolvable notes, `position`
 * only on diff notes and `commit_id` only on a merge request's diff notes (reference).
 */
export function noteEntity(note: Note, users: ReadonlyMap<number, User>, noteableIid: number | null, baseUrl: string) {
  const author = users.get(note.authorId) ?? null;
  const resolver = note.resolvedById === null ? null : (users.get(note.resolvedById) ?? null);
  const diff = note.type === "DiffNote";
  return {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: author === null ? null : userBasic(author, baseUrl),
    created_at: iso(note.createdAt),
    updated_at: iso(note.updatedAt),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    ...(diff && note.noteableType === "MergeRequest" ? { commit_id: note.commitId } : {}),
    ...(diff && note.position !== null ? { position: positionEntity(note.position) } : {}),
    resolvable: isResolvable(note),
    ...(isResolvable(note)
      ? { resolved: note.resolvedAt !== null, resolved_by: resolver === null ? null : userBasic(resolver, baseUrl), resolved_at: iso(note.resolvedAt) }
      : {}),
    confidential: false,
    internal: false,
    imported: note.importedFrom !== "none",
    imported_from: note.importedFrom,
    noteable_iid: noteableIid,
    commands_changes: {},
  };
}
