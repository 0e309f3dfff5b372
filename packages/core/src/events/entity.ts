/**
 * The Event JSON entity (spec "Event" table, reference §2.4): every field of the table, `author` as
 * the user summary, `target_iid` and `data` (always null) in project lists, `note` only for note
 * targets (with `noteable_iid` in project lists) and `push_data` only for pushes.
 */
import { userBasic } from "../accounts/entities/users.js";
import { iso } from "../accounts/entities/time.js";
import type { User } from "../accounts/types.js";
import { actionName } from "./action-name.js";
import type { Event, NoteData, PushData } from "./types.js";

/** What rendering needs besides the event: the users it mentions, and which list it is in. */
export interface EventRenderContext {
  baseUrl: string;
  /** Authors of events and notes, by id (a missing user renders without `author`). */
  users: ReadonlyMap<number, User>;
  /** `GET /projects/:id/events`: adds `target_iid`, `data` and the note's `noteable_iid` (spec). */
  projectList: boolean;
}

function noteObject(note: NoteData, ctx: EventRenderContext) {
  const author = ctx.users.get(note.authorId);
  return {
    id: note.id,
    body: note.body,
    attachment: note.attachment,
    ...(author === undefined ? {} : { author: userBasic(author, ctx.baseUrl) }),
    created_at: iso(note.createdAt),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    ...(ctx.projectList ? { noteable_iid: note.noteableIid } : {}),
  };
}

function pushData(push: PushData) {
  return {
    commit_count: push.commitCount,
    action: push.action,
    ref_type: push.refType,
    commit_from: push.commitFrom,
    commit_to: push.commitTo,
    ref: push.ref,
    commit_title: push.commitTitle,
    // Reference field; forgekit records one ref per push event.
    ref_count: null,
  };
}

/** One event as JSON. */
export function eventEntity(event: Event, ctx: EventRenderContext) {
  const author = ctx.users.get(event.authorId);
  return {
    id: event.id,
    // The spec lists `title`; the reference's documentation shows it null for every event.
    title: null,
    project_id: event.projectId,
    action_name: actionName(event),
    target_id: event.targetId,
    ...(ctx.projectList ? { target_iid: event.targetIid } : {}),
    target_type: event.targetType,
    author_id: event.authorId,
    ...(author === undefined ? {} : { author: userBasic(author, ctx.baseUrl) }),
    author_username: author?.username ?? null,
    target_title: event.targetTitle,
    created_at: iso(event.createdAt),
    ...(ctx.projectList ? { data: null } : {}),
    ...(event.targetType === "Note" && event.note !== null ? { note: noteObject(event.note, ctx) } : {}),
    ...(event.action === "pushed" && event.push !== null ? { push_data: pushData(event.push) } : {}),
  };
}

/** Ids of every user a list of events mentions (authors and note authors). */
export function mentionedUserIds(events: readonly Event[]): number[] {
  const ids = new Set<number>();
  for (const event of events) {
    ids.add(event.authorId);
    if (event.note !== null) ids.add(event.note.authorId);
  }
  return [...ids];
}
