/**
 * What the error-tracking settings and client-key routes share: their dependencies, and the
 * project lookup with the reference's order of checks (§5.1): signed in (the route's `required`
 * auth → 401), the project visible (404 `Project Not Found`), Maintainer or above (403), and only
 * then the parameters, so callers without access learn nothing from validation messages.
 */
import { err, ok, type Result } from "neverthrow";
import type * as z from "zod";
import { canAdminProject, visibleProject } from "../../access/permissions.js";
import type { Project } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { idOrPath, parseParams } from "../../http/params.js";
import type { Params } from "../../http/types.js";
import type { Identity } from "../../auth/identity.js";
import type { ErrorTrackingService } from "../service.js";

/** What the error-tracking routes are built from. */
export interface ErrorTrackingRouteDeps {
  config: ForgekitConfig;
  errorTracking: ErrorTrackingService;
}

/**
 * Reference `find_project`: an id; a value with `/` → full path; anything else → none. `:id` is
 * read like every route's `p.id()` (idOrPath): a value that can name nothing finds nothing.
 */
async function findProject(config: ForgekitConfig, id: string): Promise<Project | null> {
  const ref = idOrPath(id);
  if (typeof ref === "number") return config.store.projects.findById(ref);
  return ref !== null && ref.includes("/") ? config.store.projects.findByFullPath(ref) : null;
}

/** The project of `:id` when the caller may administer its operations settings (Maintainer+). */
export async function maintainedProject(config: ForgekitConfig, identity: Identity, id: string): Promise<Result<Project, ForgekitError>> {
  const { store, clock } = config;
  const now = clock.now();
  const visible = await visibleProject(store, identity.user, await findProject(config, id), now);
  if (visible.isErr()) return visible;
  return (await canAdminProject(store, identity.user, visible.value, now)) ? ok(visible.value) : err(errors.forbidden());
}

/** Validates `raw` against `schema` after the access checks (see the module comment). */
export function validate<S extends z.ZodObject>(schema: S, raw: Params): Result<z.output<S>, ForgekitError> {
  return parseParams(schema)(raw);
}
