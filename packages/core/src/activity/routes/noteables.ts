/**
 * What the note and discussion routes share: the three noteable kinds, the lookup of a noteable the
 * caller may read (reference `find_noteable`: 404 when missing or invisible) and note rendering.
 */
import { err, ok, type Result } from "neverthrow";
import { featureAvailable } from "../../access/features.js";
import type { ProjectFeature } from "../../accounts/project-features.js";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { noteEntity } from "../entities.js";
import type { NoteTarget } from "../notes.js";
import type { Note } from "../types.js";
import { canReadIssue, canReadSnippet, levelOn, readableProject } from "./access.js";
import { assigneesOf } from "./issue-views.js";

/** A noteable kind: its path segment, the placeholder its resource routes use, its 404 name and the project feature it belongs to. */
export type NoteableKind = { segment: "issues" | "merge_requests" | "snippets"; param: "issue_iid" | "merge_request_iid" | "snippet_id"; thing: "Issue" | "Merge Request" | "Snippet"; feature: ProjectFeature };

/** Issues and merge requests by iid, project snippets by id. */
export const NOTEABLE_KINDS: readonly NoteableKind[] = [
  { segment: "issues", param: "issue_iid", thing: "Issue", feature: "issues" },
  { segment: "merge_requests", param: "merge_request_iid", thing: "Merge Request", feature: "mergeRequests" },
  { segment: "snippets", param: "snippet_id", thing: "Snippet", feature: "snippets" },
];

/** A noteable the caller may read. */
export interface ReadableNoteable {
  target: NoteTarget;
  project: Project;
  /** The caller's level on the project (administrators: Owner). */
  level: number;
  /** The iid notes show as `noteable_iid` (null for snippets). */
  iid: number | null;
  /** The noteable's record id and author. */
  id: number;
  authorId: number;
  /** An issue or merge request whose discussion is locked (reference `discussion_locked`). */
  locked: boolean;
}

/**
 * Reference IssuablePolicy `locked & ~is_project_member` prevents `create_note`: on a locked
 * discussion only project members (administrators count as Owners) comment; others get 403.
 */
export function commentRefused(found: ReadableNoteable): ForgekitError | null {
  return found.locked && found.level <= AccessLevel.NoAccess ? errors.forbidden() : null;
}

/** The noteable when the user may read it: 404 Project, or 404 `<thing>` (missing or invisible). */
export async function readableNoteable(config: ForgekitConfig, user: User | null, kind: NoteableKind, projectRef: number | string, noteableId: number): Promise<Result<ReadableNoteable, ForgekitError>> {
  const { store, clock } = config;
  const now = clock.now();
  const project = await readableProject(store, user, projectRef, now);
  if (project.isErr()) return err(project.error);
  const level = await levelOn(store, user, project.value, now);
  const notFound = err(errors.notFound(kind.thing));
  // Reference `find_noteable`: a noteable the user may not read (its feature unavailable included) is not found.
  if (!(await featureAvailable(store, user, project.value, kind.feature, now))) return notFound;
  if (kind.segment === "issues") {
    const issue = await store.activity.issues.findByIid(project.value.id, noteableId);
    if (issue === null || !canReadIssue(user, level, issue, (await assigneesOf(store, [issue])).get(issue.id) ?? [])) return notFound;
    return ok({ target: { type: "Issue", projectId: project.value.id, iid: issue.iid }, project: project.value, level, iid: issue.iid, id: issue.id, authorId: issue.authorId, locked: issue.discussionLocked === true });
  }
  if (kind.segment === "merge_requests") {
    const mr = await store.activity.mergeRequests.findByIid(project.value.id, noteableId);
    if (mr === null) return notFound;
    const locked = (await store.mergeRequestExtras.extras([mr.id])).get(mr.id)?.discussionLocked === true;
    return ok({ target: { type: "MergeRequest", projectId: project.value.id, iid: mr.iid }, project: project.value, level, iid: mr.iid, id: mr.id, authorId: mr.authorId, locked });
  }
  const snippet = await store.activity.snippets.findById(noteableId);
  if (snippet === null || snippet.projectId !== project.value.id || !(await canReadSnippet(store, user, snippet, now))) return notFound;
  return ok({ target: { type: "Snippet", id: snippet.id }, project: project.value, level, iid: null, id: snippet.id, authorId: snippet.authorId, locked: false });
}

/** The users notes show: their authors and resolvers. */
export async function noteUsers(config: ForgekitConfig, notes: readonly Note[]): Promise<Map<number, User>> {
  const ids = new Set<number>();
  for (const n of notes) {
    ids.add(n.authorId);
    if (n.resolvedById !== null) ids.add(n.resolvedById);
  }
  return new Map((await config.store.users.findByIds([...ids])).map((u) => [u.id, u]));
}

/** Notes as `API::Entities::Note`. */
export async function renderNotes(config: ForgekitConfig, items: readonly Note[], iid: number | null): Promise<unknown[]> {
  const users = await noteUsers(config, items);
  return items.map((note) => noteEntity(note, users, iid, config.baseUrl));
}
