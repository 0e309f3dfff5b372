/**
 * How the activity domain describes its records to the events it records: target, iid, title and
 * audience (events/types.ts `EventAudience`). Confidential issues and their notes are for members
 * at Reporter or above and the issue's author; internal snippets for signed-in users; private
 * snippets for project members and the snippet's author.
 */
import type { RecordEventInput } from "../events/record.js";
import type { EventAction, EventAudience, NoteData } from "../events/types.js";
import type { Issue, MergeRequest, Milestone, Note, Snippet } from "./types.js";

type Audience = { audience: EventAudience; audienceUserId: number | null };

const everyone: Audience = { audience: "project", audienceUserId: null };

/** Who may see events about the issue (and its notes). */
export function issueAudience(issue: Pick<Issue, "confidential" | "authorId">): Audience {
  return issue.confidential ? { audience: "reporters", audienceUserId: issue.authorId } : everyone;
}

/** Who may see events about the snippet (and its notes). */
export function snippetAudience(snippet: Pick<Snippet, "visibility" | "authorId">): Audience {
  switch (snippet.visibility) {
    case "public":
      return everyone;
    case "internal":
      return { audience: "signed_in", audienceUserId: null };
    case "private":
      return { audience: "members", audienceUserId: snippet.authorId };
  }
}

export function issueEvent(issue: Issue, action: EventAction, authorId: number): RecordEventInput {
  return { projectId: issue.projectId, authorId, action, target: { type: "Issue", id: issue.id, iid: issue.iid, title: issue.title }, ...issueAudience(issue) };
}

export function mergeRequestEvent(mr: MergeRequest, action: EventAction, authorId: number): RecordEventInput {
  return { projectId: mr.projectId, authorId, action, target: { type: "MergeRequest", id: mr.id, iid: mr.iid, title: mr.title }, ...everyone };
}

export function milestoneEvent(milestone: Milestone, action: EventAction, authorId: number): RecordEventInput {
  return { projectId: milestone.projectId, authorId, action, target: { type: "Milestone", id: milestone.id, iid: milestone.iid, title: milestone.title }, ...everyone };
}

export function snippetEvent(snippet: Snippet, action: EventAction, authorId: number): RecordEventInput {
  return { projectId: snippet.projectId, authorId, action, target: { type: "Snippet", id: snippet.id, title: snippet.title }, ...snippetAudience(snippet) };
}

/** The noteable as a note event needs it: its iid (issues and merge requests) and audience. */
export interface NoteableFacts {
  iid: number | null;
  audience: Audience;
}

/** A `commented` event about a user's note (target `Note`, no title: reference). */
export function noteEvent(note: Note, noteable: NoteableFacts): RecordEventInput {
  const data: NoteData = {
    id: note.id,
    body: note.body,
    attachment: null,
    authorId: note.authorId,
    createdAt: note.createdAt,
    system: note.system,
    noteableType: note.noteableType,
    noteableId: note.noteableId,
    noteableIid: noteable.iid,
  };
  return { projectId: note.projectId, authorId: note.authorId, action: "commented", target: { type: "Note", id: note.id, title: null }, note: data, ...noteable.audience };
}
