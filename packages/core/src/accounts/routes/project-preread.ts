/**
 * `GET /projects/:id` in one round trip (issue 21): the route's `auth.withToken` reads the access
 * token, its user, the project, its namespace chain and the user's levels in one store lookup
 * (`accessTokens.findByDigestWithProject`); the handler renders from that read. Nothing is kept
 * between requests, so a revocation or a permission change is seen by the next one.
 */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { idOrPath } from "../../http/params.js";
import type { TokenRead } from "../../http/types.js";
import type { ProjectReadView } from "../../ports/project-read-store.js";
import type { NamespaceInfo } from "../entities/namespaces.js";
import { accessEntry, projectEntity } from "../entities/projects.js";
import { AccessLevel, type User } from "../types.js";

/** What `withToken` read, for the handler of the same request. */
export class ProjectPreread {
  constructor(
    /** The project id asked for. */
    readonly projectId: number,
    /** The token's user the levels were read for. */
    readonly userId: number,
    /** The project as the store read it; null when there is none. */
    readonly view: ProjectReadView | null,
  ) {}
}

/** The route's `auth.withToken`: applies to a numeric id only (a full path is found by the handler). */
export function projectPreread(config: Pick<ForgekitConfig, "store">): TokenRead {
  return (digest, params, now) => {
    const id = idOrPath(params["id"]);
    if (typeof id !== "number" || id <= 0) return null;
    return config.store.accessTokens.findByDigestWithProject(digest, id, now).then((found) => {
      if (found === null) return null;
      const read = new ProjectPreread(id, found.user?.id ?? 0, found.project);
      return { token: found.token, user: found.user, read };
    });
  };
}

/** The preread of this request for `projectId` and `user`, or null (none, another project, or sudo). */
export function prereadFor(preread: object | undefined, projectId: number | string, user: User | null): ProjectPreread | null {
  if (!(preread instanceof ProjectPreread) || user === null) return null;
  return preread.projectId === projectId && preread.userId === user.id ? preread : null;
}

/**
 * The response from a preread: 404 when there is no such project or the user may not see it
 * (ProjectPolicy, as `canReadProject`); `null` when the project's repository facts are not known
 * yet (the handler's general path learns them from the repository).
 */
export function renderPreread(preread: ProjectPreread, user: User, baseUrl: string): Result<{ body: Record<string, unknown> }, ForgekitError> | null {
  const view = preread.view;
  const namespace = view?.chain[0];
  if (view === null || namespace === undefined) return err(errors.notFound("Project"));
  const { project } = view;
  const readable = project.visibility !== "private" || user.admin || Math.max(view.direct, view.chainLevel) > AccessLevel.NoAccess;
  if (!readable) return err(errors.notFound("Project"));
  if (project.repositoryEmpty === null || project.readmePath === null) return null;
  const info: NamespaceInfo = { namespace, fullName: view.chain.map((n) => n.name).reverse().join(" / "), owner: namespace.kind === "user" ? view.owner : null };
  const group = namespace.kind === "group" ? view.chainLevel : 0;
  const access = user.admin ? AccessLevel.Owner : Math.max(view.direct, group);
  const body = projectEntity({ project, namespace: info, baseUrl, admin: user.admin, openIssues: view.openIssues, importStatus: view.importStatus ?? "none", access });
  body["permissions"] = { project_access: accessEntry(view.direct), group_access: accessEntry(group) };
  return ok({ body });
}
