/**
 * Project features as permissions (reference `ProjectFeature#feature_available?`): a `disabled`
 * feature is available to no one, a `private` one to project members (any level, expired
 * memberships not counting) and administrators, an `enabled` one to everyone who can read the
 * project. Routes of an unavailable feature answer 403 (reference `authorize! :read_issue` …),
 * and its records leave cross-project lists and feeds.
 */
import { err, ok, type Result } from "neverthrow";
import type { ProjectFeature } from "../accounts/project-features.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import { type AccessStore, projectAccess } from "./permissions.js";

/** Whether the user may use the project's feature (the project itself being readable is the caller's check). */
export async function featureAvailable(store: AccessStore, user: User | null, project: Project, feature: ProjectFeature, now: Date): Promise<boolean> {
  const level = project.features[feature];
  if (level === "enabled") return true;
  if (level === "disabled" || user === null) return false;
  return user.admin || (await projectAccess(store, user, project, now)) > AccessLevel.NoAccess;
}

/** The project when its feature is available to the user, else `403 Forbidden`. */
export async function withFeature(store: AccessStore, user: User | null, project: Project, feature: ProjectFeature, now: Date): Promise<Result<Project, ForgekitError>> {
  return (await featureAvailable(store, user, project, feature, now)) ? ok(project) : err(errors.forbidden());
}
