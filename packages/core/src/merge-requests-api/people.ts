/**
 * Assignees and reviewers of a merge request (reference `IssuableBaseService#filter_assignees`,
 * `filter_reviewers`): `assignee_id`, `assignee_ids` and `reviewer_ids` name users; `0` or an
 * empty list clears; users who cannot read the project are dropped without an error, and below
 * the premium tier only the first one is kept (multiple assignees and reviewers are premium).
 */
import { err, ok, type Result } from "neverthrow";
import { hasProjectAccess } from "../access/permissions.js";
import { AccessLevel, type Project } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordIdFrom } from "../http/params.js";

/** The people parameters as sent (each kept raw: an integer, a list or a comma-separated string). */
export interface PeopleParams {
  assignee_id?: unknown;
  assignee_ids?: unknown;
  reviewer_ids?: unknown;
}

/** Names of the people parameters, for "at least one parameter" checks. */
export const PEOPLE_PARAMS = ["assignee_id", "assignee_ids", "reviewer_ids"] as const;

/** Grape `Array[Integer]` with comma-separated coercion; null when absent, an error when an element is not an id. */
function ids(name: string, value: unknown): Result<number[] | null, ForgekitError> {
  if (value === undefined) return ok(null);
  if (value === null || value === "") return ok([]);
  const parts = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
  const out: number[] = [];
  for (const part of parts) {
    const text = typeof part === "number" ? String(part) : typeof part === "string" ? part.trim() : null;
    const id = text === "0" ? 0 : text === null ? null : recordIdFrom(text);
    if (id === null) return err(errors.invalidParam(name));
    out.push(id);
  }
  return ok(out);
}

/** Users among `candidates` who may be assigned: they exist, are active and may read the project (reference `can?(user, :read_merge_request)`). */
async function readers(config: ForgekitConfig, project: Project, candidates: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  const now = config.clock.now();
  for (const id of new Set(candidates)) {
    if (id === 0) continue;
    const user = await config.store.users.findById(id);
    if (user === null || user.state !== "active") continue;
    if (project.visibility !== "private" || (await hasProjectAccess(config.store, user, project, AccessLevel.Reporter, now))) out.push(id);
  }
  return config.tier === "free" ? out.slice(0, 1) : out;
}

/** The assignees and reviewers to set (undefined: leave as they are). */
export async function peopleFrom(config: ForgekitConfig, project: Project, params: PeopleParams): Promise<Result<{ assignees?: number[]; reviewers?: number[] }, ForgekitError>> {
  const single = ids("assignee_id", params.assignee_id);
  const many = ids("assignee_ids", params.assignee_ids);
  const reviewers = ids("reviewer_ids", params.reviewer_ids);
  if (single.isErr()) return err(single.error);
  if (many.isErr()) return err(many.error);
  if (reviewers.isErr()) return err(reviewers.error);
  // `assignee_ids` wins over `assignee_id` when both are sent (reference `filter_assignees`).
  const assigneeIds = many.value ?? single.value;
  return ok({
    ...(assigneeIds === null ? {} : { assignees: await readers(config, project, assigneeIds) }),
    ...(reviewers.value === null ? {} : { reviewers: await readers(config, project, reviewers.value) }),
  });
}
