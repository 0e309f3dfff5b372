/**
 * Lookups and permission rules of the issue, note and milestone routes, all through the permissions
 * module (access/permissions.ts). Invisible records are 404, never 403 (spec "Errors"; reference
 * `find_project!`, IssuePolicy, NotePolicy, MilestonePolicy).
 */
import { err, ok, type Result } from "neverthrow";
import { AccessLevel, type Group, type Project, type User } from "../../accounts/types.js";
import { canReadGroup, canReadProject, projectAccess, viewerOf } from "../../access/permissions.js";
import type { ProjectFeature } from "../../accounts/project-features.js";
import { featureAvailable, withFeature } from "../../access/features.js";
import { errors, type ForgekitError } from "../../errors.js";
import { recordRef } from "../../ids.js";
import type { ConfidentialAccess } from "../../ports/issue-details-store.js";
import type { Store } from "../../ports/store.js";
import type { Issue, Snippet } from "../types.js";

/** Reference `find_project`: digits → id; a value with `/` → full path; else none. */
export async function findProject(store: Store, idOrPath: number | string): Promise<Project | null> {
  const ref = recordRef(idOrPath);
  if (typeof ref === "number") return store.projects.findById(ref);
  return ref !== null && ref.includes("/") ? store.projects.findByFullPath(ref) : null;
}

/** The project when the user may read it, else `404 Project Not Found`. */
export async function readableProject(store: Store, user: User | null, idOrPath: number | string, now: Date): Promise<Result<Project, ForgekitError>> {
  const project = await findProject(store, idOrPath);
  return project !== null && (await canReadProject(store, user, project, now)) ? ok(project) : err(errors.notFound("Project"));
}

/** The readable project (else 404) whose feature the user may use (else 403; access/features.ts). */
export async function projectWithFeature(store: Store, user: User | null, idOrPath: number | string, feature: ProjectFeature, now: Date): Promise<Result<Project, ForgekitError>> {
  const project = await readableProject(store, user, idOrPath, now);
  return project.isErr() ? project : withFeature(store, user, project.value, feature, now);
}

/** The group when the user may read it, else `404 Group Not Found`. */
export async function readableGroup(store: Store, user: User | null, idOrPath: number | string, now: Date): Promise<Result<Group, ForgekitError>> {
  const ref = recordRef(idOrPath);
  const namespace = typeof ref === "number" ? await store.namespaces.findById(ref) : ref === null ? null : await store.namespaces.findByFullPath(ref);
  const group = namespace !== null && namespace.kind === "group" ? (namespace as Group) : null;
  return group !== null && (await canReadGroup(store, user, group, now)) ? ok(group) : err(errors.notFound("Group"));
}

/** The user's level on the project; administrators count as Owner. */
export async function levelOn(store: Store, user: User | null, project: Project, now: Date): Promise<number> {
  if (user === null) return AccessLevel.NoAccess;
  return user.admin ? AccessLevel.Owner : projectAccess(store, user, project, now);
}

/** Reference `read_issue`: a readable project, and for a confidential issue Reporter+, its author or an assignee. */
export function canReadIssue(user: User | null, level: number, issue: Issue, assigneeIds: readonly number[]): boolean {
  if (!issue.confidential || level >= AccessLevel.Reporter) return true;
  return user !== null && (issue.authorId === user.id || assigneeIds.includes(user.id));
}

/** Reference `update_issue`: Reporter+, the author or an assignee. */
export function canUpdateIssue(user: User | null, level: number, issue: Issue, assigneeIds: readonly number[]): boolean {
  if (user === null) return false;
  return level >= AccessLevel.Reporter || issue.authorId === user.id || assigneeIds.includes(user.id);
}

/** Reference `read_snippet`: public → all; internal → signed in; private → author, project members, administrators. */
export async function canReadSnippet(store: Store, user: User | null, snippet: Snippet, now: Date): Promise<boolean> {
  if (snippet.projectId !== null) {
    const project = await store.projects.findById(snippet.projectId);
    if (project === null || !(await canReadProject(store, user, project, now))) return false;
  }
  if (snippet.visibility === "public") return true;
  if (user === null) return false;
  if (snippet.visibility === "internal" || user.admin || snippet.authorId === user.id) return true;
  if (snippet.projectId === null) return false;
  const project = await store.projects.findById(snippet.projectId);
  return project !== null && (await projectAccess(store, user, project, now)) > AccessLevel.NoAccess;
}

/** Every project id a listing `projects.list` page run returns for the filter (paged through), optionally only those whose feature the user may use. */
async function allProjectIds(store: Store, filter: Parameters<Store["projects"]["list"]>[0], feature?: { name: ProjectFeature; user: User | null; now: Date }): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const result = await store.projects.list({ ...filter, orderBy: "id", sort: "asc" }, { kind: "offset", page, perPage: 100 });
    for (const project of result.items) {
      if (feature === undefined || (await featureAvailable(store, feature.user, project, feature.name, feature.now))) ids.push(project.id);
    }
    if (!("hasNext" in result) || !result.hasNext) return ids;
  }
}

/** The projects a cross-project issue list covers (visible to the user, their issues available to them; inside the group when given). */
export function visibleProjectIds(store: Store, user: User | null, now: Date, group?: Group): Promise<number[]> {
  return allProjectIds(store, { viewer: viewerOf(user), now, ...(group === undefined ? {} : { namespaceId: group.id, includeSubgroups: true }) }, { name: "issues", user, now });
}

/** Which confidential issues the user may see among `projectIds` (Reporter+ projects, own and assigned ones). */
export async function confidentialAccess(store: Store, user: User | null, now: Date, projectIds: readonly number[]): Promise<ConfidentialAccess> {
  if (user?.admin === true) return { all: true };
  if (user === null) return { all: false, userId: null, projectIds: [] };
  const reporter = new Set(await allProjectIds(store, { viewer: viewerOf(user), now, membership: true, minAccessLevel: AccessLevel.Reporter }));
  return { all: false, userId: user.id, projectIds: projectIds.filter((id) => reporter.has(id)) };
}
