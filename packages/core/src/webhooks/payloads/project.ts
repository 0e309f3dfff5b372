/**
 * The blocks every project event payload shares (reference `Project#hook_attrs`,
 * `Gitlab::HookData::ProjectBuilder`, `User#hook_attrs`), computed from stored state.
 */
import type { Namespace, Project, User, Visibility } from "../../accounts/types.js";

/** Reference `Gitlab::VisibilityLevel`: private 0, internal 10, public 20. */
export const VISIBILITY_LEVEL: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

const host = (baseUrl: string) => new URL(baseUrl).host;
/** The name of the default branch of an empty repository (reference `default_branch_or_main`). */
const DEFAULT_BRANCH = "main";

/** Reference `Project#hook_attrs` (`project` of every payload). */
export function projectBlock(baseUrl: string, project: Project, namespace: Pick<Namespace, "name">) {
  const web = `${baseUrl}/${project.fullPath}`;
  const ssh = `git@${host(baseUrl)}:${project.fullPath}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: web,
    avatar_url: null,
    git_ssh_url: ssh,
    git_http_url: `${web}.git`,
    namespace: namespace.name,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: project.fullPath,
    default_branch: project.defaultBranch ?? DEFAULT_BRANCH,
    ci_config_path: null,
    homepage: web,
    url: ssh,
    ssh_url: ssh,
    http_url: `${web}.git`,
  };
}

/** `repository` of push payloads (reference `Gitlab::DataBuilder::Push` repository hash). */
export function repositoryBlock(baseUrl: string, project: Project) {
  const web = `${baseUrl}/${project.fullPath}`;
  const ssh = `git@${host(baseUrl)}:${project.fullPath}.git`;
  return {
    name: project.name,
    url: ssh,
    description: project.description,
    homepage: web,
    git_http_url: `${web}.git`,
    git_ssh_url: ssh,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
  };
}

/** Reference `User#hook_attrs` (`user` of issue, merge request and note payloads); email only when public. */
export function userBlock(user: User) {
  // forgekit keeps no public e-mail: the reference then shows `[REDACTED]`.
  return { id: user.id, name: user.name, username: user.username, avatar_url: user.avatarUrl, email: "[REDACTED]" };
}
