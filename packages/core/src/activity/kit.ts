/** Checks shared by the activity services: existing project and user, titles, state changes. */
import { err, ok, type Result } from "neverthrow";
import { BLANK, tooLong, type Messages } from "../accounts/service-kit.js";
import type { Project, User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import { checkPageRequest } from "../events/feeds.js";
import { isRecordId } from "../ids.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";

export { isRecordId };

/** Longest title of an issue, merge request, milestone or snippet (reference: 255). */
export const TITLE_MAX = 255;

/** Adds `can't be blank` / too long for a title-like string. */
export function checkTitle(messages: Messages, field: string, value: unknown): void {
  if (typeof value !== "string" || value.trim() === "") messages.add(field, BLANK);
  else if (value.length > TITLE_MAX) messages.add(field, tooLong(TITLE_MAX));
}

/** The project, or `404 Project Not Found`. */
export async function projectOr404(tx: TransactionStore, id: number): Promise<Result<Project, ForgekitError>> {
  const project = isRecordId(id) ? await tx.projects.findById(id) : null;
  return project ? ok(project) : err(errors.notFound("Project"));
}

/** The user, or `404 User Not Found`. */
export async function userOr404(tx: TransactionStore, id: number): Promise<Result<User, ForgekitError>> {
  const user = isRecordId(id) ? await tx.users.findById(id) : null;
  return user ? ok(user) : err(errors.notFound("User"));
}

/** A record looked up by iid inside a project, or `404 <thing> Not Found`. */
export function foundOr404<T>(row: T | null, thing: string): Result<T, ForgekitError> {
  return row === null ? err(errors.notFound(thing)) : ok(row);
}

/** 422 `{"message": "<Thing> is already <state>"}` for a state change that changes nothing. */
export function alreadyIn(thing: string, state: string): ForgekitError {
  return errors.unprocessable(`${thing} is already ${state}`);
}

/** A row the transaction just read is gone: impossible inside one transaction, so an internal error. */
export function vanished(thing: string): ForgekitError {
  return errors.internal(new Error(`${thing} vanished inside its own transaction`));
}

/** A hand-built page request, or the 400 naming its bad value. */
export function pageOr400(page: OffsetPageRequest): Result<OffsetPageRequest, ForgekitError> {
  const invalid = checkPageRequest(page);
  return invalid === null ? ok(page) : err(invalid);
}

/** The record with `iid` in an existing project: 404 `Project` or 404 `<thing>` otherwise. */
export async function byIidOr404<T>(
  tx: TransactionStore,
  projectId: number,
  iid: number,
  findByIid: (projectId: number, iid: number) => Promise<T | null>,
  thing: string,
): Promise<Result<T, ForgekitError>> {
  const project = await projectOr404(tx, projectId);
  if (project.isErr()) return err(project.error);
  return foundOr404(isRecordId(iid) ? await findByIid(projectId, iid) : null, thing);
}

/** A page of an existing project's records: 404 `Project`, or 400 for a bad page request. */
export async function pageInProject<T>(
  tx: TransactionStore,
  projectId: number,
  page: OffsetPageRequest,
  listByProject: (projectId: number, page: OffsetPageRequest) => Promise<OffsetPageResult<T>>,
): Promise<Result<OffsetPageResult<T>, ForgekitError>> {
  const project = await projectOr404(tx, projectId);
  if (project.isErr()) return err(project.error);
  const valid = pageOr400(page);
  return valid.isErr() ? err(valid.error) : ok(await listByProject(projectId, page));
}
