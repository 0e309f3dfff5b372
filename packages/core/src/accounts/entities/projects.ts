/**
 * JSON shapes of projects (reference `BasicProjectDetails` for `simple=true`, `Project` otherwise,
 * `ProjectWithAccess` for a single project). Where each field's value comes from — a stored
 * column, a count, or forgekit not having the feature — is listed in docs/entities.md; the
 * feature fields come from the project's stored settings (accounts/project-features.ts).
 */
import { DEFAULT_BRANCH, FEATURE_API_NAMES, type FeatureAccessLevel, type ProjectFeature } from "../project-features.js";
import { AccessLevel, type Project, type User } from "../types.js";
import { type NamespaceInfo, namespaceBasic } from "./namespaces.js";
import { iso } from "./time.js";
import { userBasic } from "./users.js";

/** What a project entity is rendered with. */
export interface ProjectView {
  project: Project;
  namespace: NamespaceInfo;
  baseUrl: string;
  /** Shows `repository_storage` (reference: `change_repository_storage`, administrators). */
  admin: boolean;
  /** Open issues of the project (`open_issues_count`; 0 when not given). */
  openIssues?: number;
  /** The viewer's access level on the project (`can_create_merge_request_in`; 0 when not given). */
  access?: number;
  /** The project's import status (`none` when it was not imported or not given). */
  importStatus?: string;
}

const hosts = new Map<string, string>();
/** The host name of the base URL (parsed once per base URL: this runs for every rendered project). */
function host(baseUrl: string): string {
  let name = hosts.get(baseUrl);
  if (name === undefined) {
    name = new URL(baseUrl).hostname;
    hosts.set(baseUrl, name);
  }
  return name;
}

/** Reference `Project#readme_url`: the default branch's root README as a blob URL, or null. */
function readmeUrl(web: string, project: Project): string | null {
  if (typeof project.readmePath !== "string") return null;
  const path = `${project.defaultBranch ?? DEFAULT_BRANCH}/${project.readmePath}`;
  return `${web}/-/blob/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** Reference `BasicProjectDetails` (what `simple=true` lists). */
export function basicProject({ project, namespace, baseUrl }: ProjectView) {
  const web = `${baseUrl}/${project.fullPath}`;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespace.fullName} / ${project.name}`,
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: iso(project.createdAt),
    // Reference `default_branch_or_main`: an empty repository's HEAD names `main`.
    default_branch: project.defaultBranch ?? DEFAULT_BRANCH,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${host(baseUrl)}:${project.fullPath}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: readmeUrl(web, project),
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: iso(project.lastActivityAt),
    namespace: namespaceBasic(namespace, baseUrl),
  };
}

/** Reference `Project`. */
export function projectEntity(view: ProjectView) {
  const { project, namespace, baseUrl } = view;
  const api = `${baseUrl}/api/v4/projects/${project.id}`;
  const owner: User | null = namespace.namespace.kind === "user" ? namespace.owner : null;
  const { features } = project;
  // Keys are added to the basic entity with Object.assign (no spread of a large object into a
  // literal): V8 keeps it a fast-properties object, which JSON.stringify serialises much faster.
  const entity: Record<string, unknown> = Object.assign(basicProject(view), {
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    packages_enabled: false,
    // `null`: a project from before the store kept it, not yet read (routes read it first).
    empty_repo: project.repositoryEmpty !== false,
    archived: false,
    visibility: project.visibility,
    owner: owner ? userBasic(owner, baseUrl) : undefined,
    resolve_outdated_diff_discussions: false,
    issues_enabled: enabled(features.issues),
    merge_requests_enabled: enabled(features.mergeRequests),
    wiki_enabled: false,
    jobs_enabled: false,
    snippets_enabled: enabled(features.snippets),
    container_registry_enabled: false,
    service_desk_enabled: false,
    service_desk_address: null,
    can_create_merge_request_in: features.mergeRequests !== "disabled" && (view.access ?? 0) >= AccessLevel.Developer,
    issues_access_level: features.issues,
    repository_access_level: features.repository,
    merge_requests_access_level: features.mergeRequests,
    forking_access_level: "disabled",
    wiki_access_level: "disabled",
    builds_access_level: "disabled",
    snippets_access_level: features.snippets,
    pages_access_level: "disabled",
    analytics_access_level: "disabled",
    container_registry_access_level: "disabled",
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: false,
    lfs_enabled: false,
    creator_id: project.creatorId,
    import_status: view.importStatus ?? "none",
    open_issues_count: view.openIssues ?? 0,
    ci_default_git_depth: null,
    public_jobs: false,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: project.mergeChecks.pipelineMustSucceed,
    request_access_enabled: false,
    only_allow_merge_if_all_discussions_are_resolved: project.mergeChecks.discussionsMustBeResolved,
    remove_source_branch_after_merge: true,
    merge_method: "merge",
    squash_option: "default_off",
    autoclose_referenced_issues: true,
    repository_read_only: project.repositoryReadOnly,
    repository_storage: view.admin ? project.repositoryStorage : undefined,
  });
  // JSON.stringify drops undefined members: `owner` only for user namespaces, `repository_storage`
  // only for administrators (reference).
  return entity;
}

/** The reference's `*_enabled` boolean of a feature level (anything but `disabled`). */
const enabled = (level: FeatureAccessLevel): boolean => level !== "disabled";

/** The `*_access_level` and `*_enabled` fields of the stored features (the reference has no `repository_enabled`). */
export const FEATURE_FIELDS: readonly { feature: ProjectFeature; level: string; enabled: string | null }[] = Object.entries(FEATURE_API_NAMES).map(([feature, api]) => ({
  feature: feature as ProjectFeature,
  level: `${api}_access_level`,
  enabled: feature === "repository" ? null : `${api}_enabled`,
}));

/** One side of `permissions` in a single-project response: `{access_level, notification_level}` or null. */
export function accessEntry(level: number) {
  // 3 = the reference's `global` notification level value.
  return level > 0 ? { access_level: level, notification_level: 3 } : null;
}
