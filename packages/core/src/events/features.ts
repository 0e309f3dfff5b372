/**
 * Which project feature an event belongs to (reference `Event#visible_to_user?`: an issue event
 * needs `read_issue`, a merge request's `read_merge_request`, a push `download_code`, a note what
 * its noteable needs). A feed lists an event only when its feature is available to the viewer
 * (access/features.ts); events of no feature (project created, joined, milestones, …) follow the
 * project alone.
 */
import type { ProjectFeature } from "../accounts/project-features.js";
import type { Event } from "./types.js";

/** Noteable types whose notes belong to a feature (`Commit` notes to the repository). */
export const NOTEABLE_FEATURES: Readonly<Record<string, ProjectFeature>> = { Issue: "issues", MergeRequest: "mergeRequests", Snippet: "snippets", Commit: "repository" };

/** The target types that belong to a feature themselves. */
export const TARGET_FEATURES: Readonly<Record<string, ProjectFeature>> = { Issue: "issues", MergeRequest: "mergeRequests", Snippet: "snippets" };

/** The feature an event belongs to, or null. */
export function eventFeature(event: Pick<Event, "action" | "targetType" | "note">): ProjectFeature | null {
  if (event.action === "pushed") return "repository";
  if (event.targetType === "Note") return NOTEABLE_FEATURES[event.note?.noteableType ?? ""] ?? null;
  return event.targetType === null ? null : (TARGET_FEATURES[event.targetType] ?? null);
}
