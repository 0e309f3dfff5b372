/** Row ↔ record conversions of the activity tables (every Date a fresh object). */
import type { DiffPosition, Event, ImportedFrom, EventAudience, Issue, IssueState, MergeRequest, MergeRequestState, Milestone, MilestoneState, NewEvent, Note, NoteableType, NoteData, PushData, Snippet, Visibility } from "@forgekit/core";
import type { Insertable, Selectable } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { EventsTable, IssuesTable, MergeRequestsTable, MilestonesTable, NotesTable, SnippetsTable } from "../schema-activity.js";
import type { DbDate } from "../schema.js";
import { legacyDiscussionId } from "../migrations/0027-note-discussions.js";

const nullableDate = (value: DbDate | null, t: DialectTraits): Date | null => (value === null ? null : t.fromDate(value));

export function toIssue(row: Selectable<IssuesTable>, t: DialectTraits): Issue {
  return {
    id: Number(row.id),
    projectId: Number(row.project_id),
    iid: Number(row.iid),
    title: row.title,
    description: row.description,
    confidential: t.fromBool(row.confidential),
    state: row.state as IssueState,
    authorId: Number(row.author_id),
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    closedAt: nullableDate(row.closed_at, t),
    dueDate: row.due_date,
    discussionLocked: row.discussion_locked === null ? null : t.fromBool(row.discussion_locked),
    importedFrom: row.imported_from as ImportedFrom,
  };
}

export function toMergeRequest(row: Selectable<MergeRequestsTable>, t: DialectTraits): MergeRequest {
  return {
    id: Number(row.id),
    projectId: Number(row.project_id),
    iid: Number(row.iid),
    title: row.title,
    description: row.description,
    state: row.state as MergeRequestState,
    authorId: Number(row.author_id),
    sourceBranch: row.source_branch,
    targetBranch: row.target_branch,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    mergedAt: nullableDate(row.merged_at, t),
    closedAt: nullableDate(row.closed_at, t),
  };
}

export function toMilestone(row: Selectable<MilestonesTable>, t: DialectTraits): Milestone {
  return {
    id: Number(row.id),
    projectId: Number(row.project_id),
    iid: Number(row.iid),
    title: row.title,
    description: row.description,
    state: row.state as MilestoneState,
    startDate: row.start_date,
    dueDate: row.due_date,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

export function toSnippet(row: Selectable<SnippetsTable>, t: DialectTraits): Snippet {
  return {
    id: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    authorId: Number(row.author_id),
    title: row.title,
    fileName: row.file_name,
    content: row.content,
    visibility: row.visibility as Visibility,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    importedFrom: row.imported_from as ImportedFrom,
  };
}

export function toNote(row: Selectable<NotesTable>, t: DialectTraits): Note {
  return {
    id: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    noteableType: row.noteable_type as NoteableType,
    noteableId: Number(row.noteable_id),
    authorId: Number(row.author_id),
    body: row.body,
    system: t.fromBool(row.system),
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    discussionId: row.discussion_id ?? legacyDiscussionId(Number(row.id)),
    type: row.type === "DiscussionNote" || row.type === "DiffNote" ? row.type : null,
    position: row.position === null ? null : (JSON.parse(row.position) as DiffPosition),
    commitId: row.commit_id,
    resolvedAt: nullableDate(row.resolved_at, t),
    resolvedById: row.resolved_by_id === null ? null : Number(row.resolved_by_id),
    importedFrom: row.imported_from as ImportedFrom,
  };
}

/** Audiences by rank: a viewer of rank r sees every audience of rank ≤ r. */
export const AUDIENCE_RANKS: readonly EventAudience[] = ["project", "signed_in", "members", "reporters"];

type Payload = { push?: PushData; note?: Omit<NoteData, "createdAt"> & { createdAt: string } };

/** The insertable row of a new event. */
export function eventRow(input: NewEvent, t: DialectTraits): Insertable<EventsTable> {
  const payload: Payload | null =
    input.push !== null ? { push: input.push } : input.note !== null ? { note: { ...input.note, createdAt: input.note.createdAt.toISOString() } } : null;
  return {
    project_id: input.projectId,
    author_id: input.authorId,
    action: input.action,
    target_type: input.targetType,
    target_id: input.targetId,
    target_iid: input.targetIid,
    target_title: input.targetTitle,
    audience: AUDIENCE_RANKS.indexOf(input.audience),
    audience_user_id: input.audienceUserId,
    payload: payload === null ? null : JSON.stringify(payload),
    created_at: t.toDate(input.createdAt),
  };
}

export function toEvent(row: Selectable<EventsTable>, t: DialectTraits): Event {
  const payload = row.payload === null ? null : (JSON.parse(row.payload) as Payload);
  const note = payload?.note;
  return {
    id: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    authorId: Number(row.author_id),
    action: row.action as Event["action"],
    targetType: row.target_type as Event["targetType"],
    targetId: row.target_id === null ? null : Number(row.target_id),
    targetIid: row.target_iid === null ? null : Number(row.target_iid),
    targetTitle: row.target_title,
    audience: AUDIENCE_RANKS[Number(row.audience)] ?? "reporters",
    audienceUserId: row.audience_user_id === null ? null : Number(row.audience_user_id),
    push: payload?.push ?? null,
    note: note === undefined ? null : { ...note, createdAt: new Date(note.createdAt) },
    createdAt: t.fromDate(row.created_at),
  };
}
