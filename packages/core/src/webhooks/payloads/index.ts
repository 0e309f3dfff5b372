/**
 * The payload of a queued delivery, built when it is sent from the stored activity event (the
 * push data it recorded; the issue, merge request or note it names, as stored then) with the
 * reference's `X-Gitlab-Event` header. Null when what it reports is gone. The services' own issue
 * and merge request hooks are built when queued instead (issuable.ts, with their `changes`); what
 * is built here — test deliveries, events a host recorded itself — has `changes: {}`.
 */
import type { ForgekitConfig } from "../../config.js";
import { refAccess } from "../../protected-refs/index.js";
import { openRepository } from "../../repository-api/index.js";
import type { User } from "../../accounts/types.js";
import type { Store } from "../../ports/store.js";
import { issuePayload, mergeRequestPayload, notePayload, type IssuableLinks, type PayloadContext } from "./objects.js";
import { pushPayload } from "./push.js";

/** A payload with its `X-Gitlab-Event` header. */
export interface BuiltPayload {
  header: string;
  payload: unknown;
}

/** The labels and assignees of an issue or merge request now. */
async function linksOf(store: Store, type: "Issue" | "MergeRequest", id: number): Promise<IssuableLinks> {
  const labels = await store.imports.labels.labelsOf(type, id);
  const ids = type === "Issue" ? ((await store.activity.issueDetails.assigneesOf([id])).get(id) ?? []) : ((await store.mergeRequestExtras.extras([id])).get(id)?.assigneeIds ?? []);
  const assignees: User[] = [];
  for (const userId of ids) {
    const user = await store.users.findById(userId);
    if (user !== null) assignees.push(user);
  }
  return { labels, assignees };
}

/** Builds the payload of activity event `eventId`. */
export async function eventPayload(config: ForgekitConfig, eventId: number): Promise<BuiltPayload | null> {
  const { store, baseUrl } = config;
  const event = await store.activity.events.findById(eventId);
  if (event === null || event.projectId === null) return null;
  const project = await store.projects.findById(event.projectId);
  const user = await store.users.findById(event.authorId);
  if (project === null || user === null) return null;
  const namespace = await store.namespaces.findById(project.namespaceId);
  if (namespace === null) return null;
  if (event.push !== null) {
    const access = await refAccess(store, project, user, config.clock.now());
    const repo = await openRepository({ config }, project);
    const change = { refType: event.push.refType, ref: event.push.ref, commitFrom: event.push.commitFrom, commitTo: event.push.commitTo, commitCount: event.push.commitCount };
    const payload = await pushPayload({ baseUrl, project, namespace, user, change, repo, refProtected: access.isProtected(change.refType, change.ref) });
    return { header: change.refType === "tag" ? "Tag Push Hook" : "Push Hook", payload };
  }
  const ctx: PayloadContext = { baseUrl, project, namespace, user };
  if (event.targetType === "Issue" && event.targetId !== null) {
    const issue = await store.activity.issues.findById(event.targetId);
    return issue === null ? null : { header: issue.confidential ? "Confidential Issue Hook" : "Issue Hook", payload: issuePayload(ctx, issue, event.action, await linksOf(store, "Issue", issue.id)) };
  }
  if (event.targetType === "MergeRequest" && event.targetId !== null) {
    const mr = await store.activity.mergeRequests.findById(event.targetId);
    return mr === null ? null : { header: "Merge Request Hook", payload: mergeRequestPayload(ctx, mr, event.action, await linksOf(store, "MergeRequest", mr.id)) };
  }
  if (event.targetType === "Note" && event.targetId !== null) {
    const note = await store.activity.notes.findById(event.targetId);
    if (note === null) return null;
    const confidential = event.audience === "members" || event.audience === "reporters";
    let noteable: Parameters<typeof notePayload>[2] = null;
    if (note.noteableType === "Issue") {
      const issue = await store.activity.issues.findById(note.noteableId);
      if (issue !== null) noteable = { issue };
    } else if (note.noteableType === "MergeRequest") {
      const mr = await store.activity.mergeRequests.findById(note.noteableId);
      if (mr !== null) noteable = { mergeRequest: mr };
    }
    return { header: confidential ? "Confidential Note Hook" : "Note Hook", payload: notePayload(ctx, note, noteable, confidential) };
  }
  return null;
}
