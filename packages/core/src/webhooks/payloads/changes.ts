/**
 * The `changes` object of issue and merge request hooks. The reference (`Issuable#to_hook_data`)
 * takes the record's `reportable_changes` — every column the operation wrote, as `[was, is]`,
 * from the value the record had when it was loaded — and, on updates only
 * (`IssuableBaseService#update` passes `old_associations`), adds `hook_association_changes`
 * (`labels`, `assignees`, and for merge requests `target_branch`) and `hook_reviewer_changes`
 * (`reviewers`), each when the list differs. `Gitlab::DataBuilder::Issuable#build` keeps the keys
 * of the builder's `safe_hook_attributes` then `safe_hook_relations`, in that order, as
 * `{previous, current}`.
 *
 * Here the same rule runs on two snapshots of what forgekit stores (before and after the change):
 * the columns are the safe attributes forgekit keeps, with the reference's names and values
 * (`state_id` 1 opened, 2 closed, 3 merged, 4 locked; times in the payload's ISO 8601 format;
 * labels and users as `Label#hook_attrs` and `User#hook_attrs`). Attributes forgekit does not keep
 * (`updated_by_id`, `last_edited_at`, `last_edited_by_id`, `time_estimate`, `relative_position`,
 * `merge_status`, `prepared_at`, time tracking, severity, escalation status) never appear.
 */
import type { User } from "../../accounts/types.js";
import { isDraftTitle, type Issue, type MergeRequest } from "../../activity/types.js";
import type { Label } from "../../ports/imports-store.js";
import { labelBlock, STATE_ID, type HookChanges } from "./objects.js";
import { userBlock } from "./project.js";

/** An issue as its hook reads it: the row, its milestone, labels (by name) and assignees (in the order set). */
export interface IssueSnapshot {
  issue: Issue;
  milestoneId: number | null;
  labels: readonly Label[];
  assignees: readonly User[];
}

/** A merge request as its hook reads it: the row with its merge facts, labels, assignees and reviewers. */
export interface MergeRequestSnapshot {
  mergeRequest: MergeRequest & { mergeUserId: number | null; mergeCommitSha: string | null };
  milestoneId: number | null;
  discussionLocked: boolean | null;
  labels: readonly Label[];
  assignees: readonly User[];
  reviewers: readonly User[];
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** The `IssueBuilder.safe_hook_attributes` forgekit keeps, in that order, with their values. */
function issueColumns({ issue, milestoneId }: IssueSnapshot): Record<string, unknown> {
  return {
    author_id: issue.authorId,
    closed_at: iso(issue.closedAt),
    confidential: issue.confidential,
    created_at: iso(issue.createdAt),
    description: issue.description,
    discussion_locked: issue.discussionLocked,
    due_date: issue.dueDate,
    id: issue.id,
    iid: issue.iid,
    milestone_id: milestoneId,
    project_id: issue.projectId,
    state_id: STATE_ID[issue.state],
    title: issue.title,
    updated_at: iso(issue.updatedAt),
  };
}

/**
 * The values of a new issue row before it is saved (the reference's column defaults: `state_id` 1,
 * `confidential` false, every other one null). forgekit stores a missing description as "": it
 * counts as the default.
 */
const NEW_ISSUE: Record<string, unknown> = {
  author_id: null,
  closed_at: null,
  confidential: false,
  created_at: null,
  description: null,
  discussion_locked: null,
  due_date: null,
  id: null,
  iid: null,
  milestone_id: null,
  project_id: null,
  state_id: STATE_ID.opened,
  title: null,
  updated_at: null,
};

/** The `MergeRequestBuilder.safe_hook_attributes` forgekit keeps, in that order, with their values. */
function mergeRequestColumns({ mergeRequest: mr, milestoneId, discussionLocked }: MergeRequestSnapshot): Record<string, unknown> {
  return {
    author_id: mr.authorId,
    created_at: iso(mr.createdAt),
    description: mr.description,
    discussion_locked: discussionLocked,
    draft: isDraftTitle(mr.title),
    id: mr.id,
    iid: mr.iid,
    merge_commit_sha: mr.mergeCommitSha,
    merge_user_id: mr.mergeUserId,
    milestone_id: milestoneId,
    source_branch: mr.sourceBranch,
    source_project_id: mr.projectId,
    state_id: STATE_ID[mr.state],
    target_branch: mr.targetBranch,
    target_project_id: mr.projectId,
    title: mr.title,
    updated_at: iso(mr.updatedAt),
  };
}

/** The columns whose value differs, each `{previous, current}`, in the order of `after`. */
function columnChanges(before: Record<string, unknown>, after: Record<string, unknown>): HookChanges {
  const changes: HookChanges = {};
  for (const [key, current] of Object.entries(after)) {
    const previous = before[key] ?? null;
    if (previous !== current) changes[key] = { previous, current };
  }
  return changes;
}

/** Whether two lists hold other records (the reference compares ids without their order: `ids_changing?`). */
const differ = (a: readonly { id: number }[], b: readonly { id: number }[]) => {
  const ids = (list: readonly { id: number }[]) => list.map((x) => x.id).sort((x, y) => x - y).join(",");
  return ids(a) !== ids(b);
};

/** Adds `key` to `changes` when the records of the list differ, as `{previous, current}` hook blocks. */
function listChange<T extends { id: number }>(changes: HookChanges, key: string, before: readonly T[], after: readonly T[], block: (item: T) => unknown): void {
  if (differ(before, after)) changes[key] = { previous: before.map(block), current: after.map(block) };
}

/** What `changes` an operation reports. */
export type ChangesKind =
  /** Opened: the columns the insert wrote (for issues; merge requests report none, see {@link mergeRequestChanges}). */
  | "create"
  /** Changed through the update service: the columns and the labels, assignees and reviewers. */
  | "update"
  /** Closed, reopened or merged: the columns only (those services pass no `old_associations`). */
  | "state";

/** The `changes` of an issue's hook; `before` is null exactly for `create`. */
export function issueChanges(kind: ChangesKind, before: IssueSnapshot | null, after: IssueSnapshot): HookChanges {
  const columns = issueColumns(after);
  if (kind === "create" || before === null) {
    const written = { ...columns, description: columns["description"] === "" ? null : columns["description"] };
    return columnChanges(NEW_ISSUE, written);
  }
  const changes = columnChanges(issueColumns(before), columns);
  if (kind !== "update") return changes;
  // `IssueBuilder.safe_hook_relations` order: assignees, labels.
  listChange(changes, "assignees", before.assignees, after.assignees, userBlock);
  listChange(changes, "labels", before.labels, after.labels, labelBlock);
  return changes;
}

/**
 * The `changes` of a merge request's hook. An opened merge request reports none: the reference
 * sends its `open` hook from `MergeRequests::AfterCreateService`, run by a worker on the record
 * loaded afresh, whose own writes (`merge_status` preparing → unchecked, `prepared_at`) forgekit
 * has no counterpart of.
 */
export function mergeRequestChanges(kind: ChangesKind, before: MergeRequestSnapshot | null, after: MergeRequestSnapshot): HookChanges {
  if (kind === "create" || before === null) return {};
  const changes = columnChanges(mergeRequestColumns(before), mergeRequestColumns(after));
  if (kind !== "update") return changes;
  // `MergeRequestBuilder.safe_hook_relations` order: assignees, labels, reviewers.
  listChange(changes, "assignees", before.assignees, after.assignees, userBlock);
  listChange(changes, "labels", before.labels, after.labels, labelBlock);
  listChange(changes, "reviewers", before.reviewers, after.reviewers, userBlock);
  return changes;
}
