/**
 * Project features as permissions (reference `ProjectFeature#feature_available?`): a `disabled`
 * feature is available to no one, a `private` one to administrators and project members at the
 * feature's minimum level (reference `required_minimum_access_level`: Reporter for merge requests,
 * Reporter for the repository of a private project, Guest otherwise; expired memberships not
 * counting), an `enabled` one to everyone who can read the project. Routes of an unavailable
 * feature answer 403 (reference `authorize! :read_issue` …), and its records leave cross-project
 * lists and feeds.
 */
import { err, ok, type Result } from "neverthrow";
import type { ProjectFeature } from "../accounts/project-features.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import { type AccessStore, projectAccess } from "./permissions.js";

/** The lowest membership level a `private` feature is available to (reference `required_minimum_access_level(_for_private_project)`). */
export function privateFeatureLevel(project: Project, feature: ProjectFeature): AccessLevel {
  if (feature === "mergeRequests") return AccessLevel.Reporter;
  if (feature === "repository" && project.visibility === "private") return AccessLevel.Reporter;
  return AccessLevel.Guest;
}

/** Whether a user with `level` on the project (administrators: `admin`) may use its feature. */
export function featureAvailableAt(project: Project, feature: ProjectFeature, level: number, admin: boolean): boolean {
  const setting = project.features[feature];
  if (setting === "enabled") return true;
  if (setting === "disabled") return false;
  return admin || level >= privateFeatureLevel(project, feature);
}

/** Whether the user may use the project's feature (the project itself being readable is the caller's check). */
export async function featureAvailable(store: AccessStore, user: User | null, project: Project, feature: ProjectFeature, now: Date): Promise<boolean> {
  const setting = project.features[feature];
  if (setting === "enabled") return true;
  if (setting === "disabled" || user === null) return false;
  return featureAvailableAt(project, feature, user.admin ? AccessLevel.Owner : await projectAccess(store, user, project, now), user.admin);
}

/**
 * Whether the user may read the project's merge requests (reference `read_merge_request`): the
 * project is readable, its code is (private: Reporter+) and its merge requests feature is
 * available to them — what `GET /projects/:id/merge_requests/:iid` checks, as one answer and at
 * most one membership lookup.
 */
export async function canReadMergeRequests(store: AccessStore, user: User | null, project: Project, now: Date): Promise<boolean> {
  const setting = project.features.mergeRequests;
  if (setting === "disabled") return false;
  // Everyone who can read a public project (anyone) or an internal one (the signed-in).
  if (setting === "enabled" && project.visibility !== "private") return project.visibility === "public" || user !== null;
  if (user === null) return false;
  const level = user.admin ? AccessLevel.Owner : await projectAccess(store, user, project, now);
  // Reporter+ is needed for a private project's code and for a `private` feature: either way a member.
  return (project.visibility !== "private" || level >= AccessLevel.Reporter) && featureAvailableAt(project, "mergeRequests", level, user.admin);
}

/** The project when its feature is available to the user, else `403 Forbidden`. */
export async function withFeature(store: AccessStore, user: User | null, project: Project, feature: ProjectFeature, now: Date): Promise<Result<Project, ForgekitError>> {
  return (await featureAvailable(store, user, project, feature, now)) ? ok(project) : err(errors.forbidden());
}
