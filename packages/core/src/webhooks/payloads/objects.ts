/**
 * Issue, merge request and note payloads (reference `Gitlab::DataBuilder::Issuable`, `Note`; doc
 * "Webhook events" → Work item / Merge request / Comment events), from stored records: the
 * attributes forgekit keeps, with the labels (`Label#hook_attrs`) and assignees (`User#hook_attrs`)
 * as they are when the payload is built, and the `changes` the operation made (changes.ts; `{}`
 * where nothing says what changed, as for the reference's test hooks). Time tracking is not part of
 * them.
 */
import type { Namespace, Project, User } from "../../accounts/types.js";
import type { Issue, MergeRequest, Note } from "../../activity/types.js";
import type { Label } from "../../ports/imports-store.js";
import { projectBlock, userBlock } from "./project.js";

/** Reference `object_attributes.action` by event action. */
const ISSUABLE_ACTION: Record<string, string> = { created: "open", closed: "close", reopened: "reopen", merged: "merge", updated: "update" };
/** Reference `Issuable::STATE_ID_MAP` (`state_id` of issues and merge requests). */
export const STATE_ID = { opened: 1, closed: 2, merged: 3, locked: 4 } as const;

/** The `changes` object: attribute name → its value before and after, in the reference's key order (changes.ts). */
export type HookChanges = Record<string, { previous: unknown; current: unknown }>;

/** Reference `Label#hook_attrs`. */
export function labelBlock(label: Label) {
  return {
    id: label.id,
    title: label.name,
    color: label.color,
    project_id: label.projectId,
    created_at: label.createdAt.toISOString(),
    updated_at: label.updatedAt.toISOString(),
    template: false,
    description: label.description === "" ? null : label.description,
    type: label.groupId !== null ? "GroupLabel" : "ProjectLabel",
    group_id: label.groupId,
  };
}

/** The labels and assignees of an issue or merge request. */
export interface IssuableLinks {
  labels: readonly Label[];
  assignees: readonly User[];
}

/** `assignees` when there are any, as the reference adds them after the deprecated `repository`. */
function assigneesBlock(links: IssuableLinks) {
  return links.assignees.length === 0 ? {} : { assignees: links.assignees.map(userBlock) };
}

/** `object_attributes` fields the links give (reference `IssueBuilder` / `MergeRequestBuilder`). */
function linkAttributes(links: IssuableLinks) {
  return { assignee_ids: links.assignees.map((u) => u.id), assignee_id: links.assignees[0]?.id ?? null, labels: links.labels.map(labelBlock) };
}

/** The project context every object payload starts from. */
export interface PayloadContext {
  baseUrl: string;
  project: Project;
  namespace: Namespace;
  user: User;
}

const web = (ctx: PayloadContext) => `${ctx.baseUrl}/${ctx.project.fullPath}`;
const repositoryOf = (ctx: PayloadContext) => ({ name: ctx.project.name, url: `${web(ctx)}.git`, description: ctx.project.description, homepage: web(ctx) });

/** `object_attributes` of an issue (also `issue` of note payloads). */
export function issueAttributes(ctx: PayloadContext, issue: Issue) {
  return {
    id: issue.id,
    iid: issue.iid,
    title: issue.title,
    description: issue.description,
    author_id: issue.authorId,
    project_id: issue.projectId,
    created_at: issue.createdAt.toISOString(),
    updated_at: issue.updatedAt.toISOString(),
    closed_at: issue.closedAt === null ? null : issue.closedAt.toISOString(),
    confidential: issue.confidential,
    state_id: STATE_ID[issue.state],
    state: issue.state,
    type: "Issue",
    url: `${web(ctx)}/-/issues/${issue.iid}`,
  };
}

/** `object_attributes` of a merge request (also `merge_request` of note payloads). */
export function mergeRequestAttributes(ctx: PayloadContext, mr: MergeRequest) {
  const block = projectBlock(ctx.baseUrl, ctx.project, ctx.namespace);
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    description: mr.description,
    author_id: mr.authorId,
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    created_at: mr.createdAt.toISOString(),
    updated_at: mr.updatedAt.toISOString(),
    merged_at: mr.mergedAt === null ? null : mr.mergedAt.toISOString(),
    closed_at: mr.closedAt === null ? null : mr.closedAt.toISOString(),
    state_id: STATE_ID[mr.state],
    state: mr.state,
    url: `${web(ctx)}/-/merge_requests/${mr.iid}`,
    source: block,
    target: block,
  };
}

/** Issue Hook payload (keys in the order of the reference's `Gitlab::DataBuilder::Issuable#build`). */
export function issuePayload(ctx: PayloadContext, issue: Issue, action: string, links: IssuableLinks, changes: HookChanges = {}) {
  return {
    object_kind: "issue",
    event_type: issue.confidential ? "confidential_issue" : "issue",
    user: userBlock(ctx.user),
    project: projectBlock(ctx.baseUrl, ctx.project, ctx.namespace),
    object_attributes: { ...issueAttributes(ctx, issue), ...linkAttributes(links), action: ISSUABLE_ACTION[action] ?? "update" },
    labels: links.labels.map(labelBlock),
    changes,
    repository: repositoryOf(ctx),
    ...assigneesBlock(links),
  };
}

/** Merge Request Hook payload (keys in the order of the reference's `Gitlab::DataBuilder::Issuable#build`). */
export function mergeRequestPayload(ctx: PayloadContext, mr: MergeRequest, action: string, links: IssuableLinks, changes: HookChanges = {}) {
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    user: userBlock(ctx.user),
    project: projectBlock(ctx.baseUrl, ctx.project, ctx.namespace),
    object_attributes: { ...mergeRequestAttributes(ctx, mr), ...linkAttributes(links), action: ISSUABLE_ACTION[action] ?? "update" },
    labels: links.labels.map(labelBlock),
    changes,
    repository: repositoryOf(ctx),
    ...assigneesBlock(links),
  };
}

/** Note Hook payload; `noteable` is the issue or merge request commented on, when it is one. */
export function notePayload(ctx: PayloadContext, note: Note, noteable: { issue: Issue } | { mergeRequest: MergeRequest } | null, confidential: boolean) {
  const base = web(ctx);
  const anchor = `#note_${note.id}`;
  const url =
    noteable !== null && "issue" in noteable ? `${base}/-/issues/${noteable.issue.iid}${anchor}`
    : noteable !== null ? `${base}/-/merge_requests/${noteable.mergeRequest.iid}${anchor}`
    : note.commitId !== null ? `${base}/-/commit/${note.commitId}${anchor}`
    : `${base}${anchor}`;
  return {
    object_kind: "note",
    event_type: confidential ? "confidential_note" : "note",
    user: userBlock(ctx.user),
    project_id: ctx.project.id,
    project: projectBlock(ctx.baseUrl, ctx.project, ctx.namespace),
    object_attributes: {
      id: note.id,
      note: note.body,
      noteable_type: note.noteableType,
      author_id: note.authorId,
      created_at: note.createdAt.toISOString(),
      updated_at: note.updatedAt.toISOString(),
      project_id: note.projectId,
      noteable_id: note.noteableId,
      commit_id: note.commitId,
      system: note.system,
      discussion_id: note.discussionId,
      type: note.type,
      url,
      action: "create",
    },
    repository: repositoryOf(ctx),
    ...(noteable === null ? {} : "issue" in noteable ? { issue: issueAttributes(ctx, noteable.issue) } : { merge_request: mergeRequestAttributes(ctx, noteable.mergeRequest) }),
  };
}
