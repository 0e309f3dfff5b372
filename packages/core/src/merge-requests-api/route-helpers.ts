/** What the merge-request route files share: auth modes, the project and merge-request lookups, refusals and rendering one. */
import type { Result } from "neverthrow";
import type { User } from "../accounts/types.js";
import type { Identity } from "../auth/identity.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { p } from "../http/params.js";
import type { RouteAuth, RouteResult } from "../http/types.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { findMergeRequest, readableProject, type ProjectRepository } from "../repository-api/context.js";
import { renderMergeRequests, type MergeRefusal } from "./service.js";

/** Reading: anonymous allowed (public projects). */
export const READ: RouteAuth = { mode: "optional" };
/** Writing: signed in with the `api` scope. */
export const WRITE: RouteAuth = { mode: "required" };

/** An optional Grape boolean. */
export const bool = () => p.bool().optional();

/** The project of `:id` for reading merge requests (the merge requests feature: access/features.ts). */
export const readable = (config: ForgekitConfig, identity: Identity, id: string | undefined): Promise<Result<ProjectRepository, ForgekitError>> =>
  readableProject(config, identity, id, "mergeRequests");

/** The project's merge request `iid`, or 404 Merge Request Not Found. */
export const findMr = findMergeRequest;

/** A merge refusal as its response. */
export const refusal = (r: MergeRefusal): RouteResult => ({ status: r.status, body: { message: r.message } });
/** Whether a merge error is a refusal (rendered as is) rather than a {@link ForgekitError}. */
export const isRefusal = (e: ForgekitError | MergeRefusal): e is MergeRefusal => "status" in e;

/** One merge request as `MergeRequest` (show, create, update, merge). */
export async function renderOne(config: ForgekitConfig, o: ProjectRepository, mr: MergeRequestRecord, viewer: User | null): Promise<unknown> {
  return (await renderMergeRequests(config, o.project, o.repo, [mr], { viewer }))[0];
}
