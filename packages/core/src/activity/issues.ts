/** Issues (host API: `fk.issues`): iid per project, confidential flag, open → closed → reopened, each change with its event. */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt, inTransaction, Messages } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { EventAction } from "../events/types.js";
import { FIRST_PAGE } from "../events/feeds.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";
import { issueAudience, issueEvent } from "./event-inputs.js";
import { alreadyIn, byIidOr404, checkTitle, isRecordId, pageInProject, projectOr404, TITLE_MAX, userOr404, vanished } from "./kit.js";
import type { Issue } from "./types.js";
import { findOrCreateLabels } from "../labels/index.js";
import { queueIssuableUpdate } from "../webhooks/fanout.js";
import { issueHook, issueSnapshot } from "../webhooks/payloads/issuable.js";

/** Input of {@link IssuesService.create}. */
export interface CreateIssueInput {
  projectId: number;
  authorId: number;
  title: string;
  description?: string;
  /** Default false. */
  confidential?: boolean;
  /** Assignees; ids naming no user are left out (reference). */
  assigneeIds?: readonly number[];
  /** Label names; labels the project lacks are created (reference `Labels::FindOrCreateService`). */
  labels?: readonly string[];
  /** A milestone of the project; an id naming none leaves the issue without one (reference). */
  milestoneId?: number | null;
  /** Backdated creation time (the REST route allows it to administrators and project owners). */
  createdAt?: Date;
  /** `YYYY-MM-DD`; default none. */
  dueDate?: string | null;
}

/** What {@link IssuesService.update} changes; absent fields stay as they are. */
export interface IssueChanges {
  title?: string;
  description?: string;
  confidential?: boolean;
  assigneeIds?: readonly number[];
  /** Replaces every label. */
  labels?: readonly string[];
  addLabels?: readonly string[];
  removeLabels?: readonly string[];
  /** null (or an id naming no milestone of the project) removes the milestone. */
  milestoneId?: number | null;
  /** Close or reopen; one that changes nothing is ignored (reference). */
  stateEvent?: "close" | "reopen";
  /** `YYYY-MM-DD`; null removes the due date. */
  dueDate?: string | null;
  /**
   * Locks or unlocks the discussion (only project members may then comment); a change writes the
   * reference's system note (`locked the discussion in this issue`).
   */
  discussionLocked?: boolean;
}

/** Options of {@link IssuesService.close}. */
export interface CloseIssueOptions {
  /** What closed it (`merge request !1`, `commit <sha>`): the system note reads "closed via …". */
  via?: string;
}

/** Issues service. Callers are trusted (the host or an operator): no permission checks. */
export interface IssuesService {
  /** Opens an issue with the project's next iid and records `created` ("opened"). 404 Project / User; 400 validation. */
  create(input: CreateIssueInput): ResultAsync<Issue, ForgekitError>;
  /** `404 Issue Not Found` when the project has no issue with that iid. */
  find(projectId: number, iid: number): ResultAsync<Issue, ForgekitError>;
  /** The project's issues by iid. */
  list(projectId: number, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<Issue>, ForgekitError>;
  /** Closes an open issue as `actorId`: a system note "closed" and a `closed` event. 422 when already closed. */
  close(projectId: number, iid: number, actorId: number, options?: CloseIssueOptions): ResultAsync<Issue, ForgekitError>;
  /** Reopens a closed issue: a system note "reopened" and a `reopened` event. 422 when open. */
  reopen(projectId: number, iid: number, actorId: number): ResultAsync<Issue, ForgekitError>;
  /** Makes the issue (non-)confidential; its past events and those of its notes follow (no event of its own). */
  setConfidential(projectId: number, iid: number, confidential: boolean): ResultAsync<Issue, ForgekitError>;
  /**
   * Applies `changes` as `actorId` in one transaction: fields, assignees, labels, milestone, then the
   * state event with its system note and `closed` / `reopened` event. 404 Project / Issue; 400 validation.
   */
  update(projectId: number, iid: number, actorId: number, changes: IssueChanges): ResultAsync<Issue, ForgekitError>;
  /** Deletes the issue with its notes, assignees and labels (no event: reference). 404 Project / Issue. */
  remove(projectId: number, iid: number): ResultAsync<void, ForgekitError>;
}

/** Existing users among `ids`. */
async function existingUsers(tx: TransactionStore, ids: readonly number[]): Promise<number[]> {
  const valid = [...new Set(ids)].filter(isRecordId);
  return valid.length === 0 ? [] : (await tx.users.findByIds(valid)).map((u) => u.id);
}

/** The milestone id when it names a milestone of the project, else null (issues and merge requests take only their project's). */
export async function projectMilestone(tx: TransactionStore, projectId: number, id: number | null | undefined): Promise<number | null> {
  if (id === null || id === undefined || !isRecordId(id)) return null;
  const milestone = await tx.activity.milestones.findById(id);
  return milestone !== null && milestone.projectId === projectId ? milestone.id : null;
}

/** Label names: each non-blank, at most 255 characters. */
function checkLabels(messages: Messages, lists: readonly (readonly string[] | undefined)[]): void {
  for (const list of lists) for (const name of list ?? []) if (name.trim() === "" || name.length > TITLE_MAX) messages.add("labels", "is invalid");
}

const findIssue = (tx: TransactionStore, projectId: number, iid: number): Promise<Result<Issue, ForgekitError>> =>
  byIidOr404(tx, projectId, iid, (p, i) => tx.activity.issues.findByIid(p, i), "Issue");

/** Builds the issues service. */
export function issuesService(config: ForgekitConfig): IssuesService {
  const { store, clock, baseUrl } = config;

  const transition = (projectId: number, iid: number, actorId: number, to: "opened" | "closed", via?: string) =>
    inTransaction(store, async (tx) => {
      const now = clock.now();
      const actor = await userOr404(tx, actorId);
      if (actor.isErr()) return err(actor.error);
      const found = await findIssue(tx, projectId, iid);
      if (found.isErr()) return err(found.error);
      if (found.value.state === to) return err(alreadyIn("Issue", to === "closed" ? "closed" : "open"));
      const issue = await tx.activity.issues.update(found.value.id, { state: to, closedAt: to === "closed" ? now : null, updatedAt: now });
      if (issue === null) return err(vanished("issue"));
      const action: EventAction = to === "closed" ? "closed" : "reopened";
      // Reference `SystemNotes::IssuablesService#change_status`: "closed via merge request !1" / "closed via commit <sha>".
      await tx.activity.notes.create({ projectId, noteableType: "Issue", noteableId: issue.id, authorId: actorId, body: via === undefined ? action : `${action} via ${via}`, system: true }, now);
      // Reference `Issues::CloseService` / `ReopenService`: the hook's `changes` are the columns the state change wrote.
      const event = await insertEvent(tx, issueEvent(issue, action, actorId), now, issueHook(tx, issue.id, { baseUrl, actorId, action, before: found.value }));
      return event.map(() => issue);
    });

  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      checkLabels(messages, [input.labels]);
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const project = await projectOr404(tx, input.projectId);
          if (project.isErr()) return err(project.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const issue = await tx.activity.issues.create(
            { projectId: input.projectId, authorId: input.authorId, title: input.title, description: input.description ?? "", confidential: input.confidential ?? false, dueDate: input.dueDate ?? null },
            input.createdAt ?? now,
          );
          if (input.assigneeIds !== undefined) await tx.activity.issueDetails.setAssignees(issue.id, await existingUsers(tx, input.assigneeIds));
          const milestoneId = await projectMilestone(tx, input.projectId, input.milestoneId);
          if (milestoneId !== null) await tx.activity.issueDetails.setMilestone(issue.id, milestoneId);
          for (const id of await findOrCreateLabels(tx, input.projectId, input.labels ?? [], now)) await tx.imports.labels.link(id, "Issue", issue.id);
          const hook = issueHook(tx, issue.id, { baseUrl, actorId: input.authorId, action: "created", before: null });
          const event = await insertEvent(tx, issueEvent(issue, "created", input.authorId), now, hook);
          return event.map(() => issue);
        }),
      );
    },
    find: (projectId, iid) => attempt(() => findIssue(store, projectId, iid)),
    list: (projectId, page = FIRST_PAGE) => attempt(() => pageInProject(store, projectId, page, (p, pg) => store.activity.issues.listByProject(p, pg))),
    close: (projectId, iid, actorId, options) => transition(projectId, iid, actorId, "closed", options?.via),
    reopen: (projectId, iid, actorId) => transition(projectId, iid, actorId, "opened"),
    setConfidential: (projectId, iid, confidential) =>
      inTransaction(store, async (tx) => {
        const found = await findIssue(tx, projectId, iid);
        if (found.isErr()) return err(found.error);
        const issue = await tx.activity.issues.update(found.value.id, { confidential, updatedAt: clock.now() });
        if (issue === null) return err(vanished("issue"));
        const notes = await tx.activity.notes.listByNoteable("Issue", issue.id);
        const targets = [{ type: "Issue" as const, id: issue.id }, ...notes.map((note) => ({ type: "Note" as const, id: note.id }))];
        const { audience, audienceUserId } = issueAudience(issue);
        await tx.activity.events.setAudience(targets, audience, audienceUserId);
        return ok(issue);
      }),
    update(projectId, iid, actorId, changes) {
      const messages = new Messages();
      if (changes.title !== undefined) checkTitle(messages, "title", changes.title);
      checkLabels(messages, [changes.labels, changes.addLabels, changes.removeLabels]);
      return messages.result(changes).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const actor = await userOr404(tx, actorId);
          if (actor.isErr()) return err(actor.error);
          const found = await findIssue(tx, projectId, iid);
          if (found.isErr()) return err(found.error);
          const id = found.value.id;
          // What the issue was, for the hooks' `changes` (reference `associations_before_update`).
          const before = await issueSnapshot(tx, id);
          const details = tx.activity.issueDetails;
          if (changes.assigneeIds !== undefined) await details.setAssignees(id, await existingUsers(tx, changes.assigneeIds));
          if (changes.milestoneId !== undefined) await details.setMilestone(id, await projectMilestone(tx, projectId, changes.milestoneId));
          if (changes.labels !== undefined) {
            const current = await tx.imports.labels.labelsOf("Issue", id);
            await details.unlinkLabels(id, current.map((l) => l.id));
          }
          for (const labelId of await findOrCreateLabels(tx, projectId, [...(changes.labels ?? []), ...(changes.addLabels ?? [])], now)) await tx.imports.labels.link(labelId, "Issue", id);
          if (changes.removeLabels !== undefined) {
            await details.unlinkLabels(id, await findOrCreateLabels(tx, projectId, changes.removeLabels, now, { create: false }));
          }
          const to = changes.stateEvent === "close" ? "closed" : changes.stateEvent === "reopen" ? "opened" : found.value.state;
          const moved = to !== found.value.state;
          const patch = {
            ...(changes.title === undefined ? {} : { title: changes.title }),
            ...(changes.description === undefined ? {} : { description: changes.description }),
            ...(changes.confidential === undefined ? {} : { confidential: changes.confidential }),
            ...(changes.dueDate === undefined ? {} : { dueDate: changes.dueDate }),
            ...(changes.discussionLocked === undefined ? {} : { discussionLocked: changes.discussionLocked }),
            ...(moved ? { state: to, closedAt: to === "closed" ? now : null } : {}),
            updatedAt: now,
          };
          const issue = await tx.activity.issues.update(id, patch);
          if (issue === null) return err(vanished("issue"));
          if (changes.confidential !== undefined && changes.confidential !== found.value.confidential) {
            const notes = await tx.activity.notes.listByNoteable("Issue", id);
            const targets = [{ type: "Issue" as const, id }, ...notes.map((note) => ({ type: "Note" as const, id: note.id }))];
            const { audience, audienceUserId } = issueAudience(issue);
            await tx.activity.events.setAudience(targets, audience, audienceUserId);
          }
          if (changes.discussionLocked !== undefined && changes.discussionLocked !== (found.value.discussionLocked ?? false)) {
            // Reference `SystemNotes::IssuablesService#discussion_lock`.
            const body = `${changes.discussionLocked ? "locked" : "unlocked"} the discussion in this issue`;
            await tx.activity.notes.create({ projectId, noteableType: "Issue", noteableId: id, authorId: actorId, body, system: true }, now);
          }
          // Reference `IssuableBaseService#update`: `state_event` goes through the close or reopen service
          // first (its own hook); anything else given is saved after it and reported by the `update`
          // hook, whose `changes` hold all the request changed.
          if (moved) {
            const action: EventAction = to === "closed" ? "closed" : "reopened";
            await tx.activity.notes.create({ projectId, noteableType: "Issue", noteableId: id, authorId: actorId, body: action, system: true }, now);
            const event = await insertEvent(tx, issueEvent(issue, action, actorId), now, issueHook(tx, id, { baseUrl, actorId, action, before, stateOnly: true }));
            if (event.isErr()) return err(event.error);
          }
          if (Object.entries(changes).some(([key, value]) => key !== "stateEvent" && value !== undefined)) {
            await queueIssuableUpdate(tx, { projectId, targetType: "Issue", id, confidential: issue.confidential }, issueHook(tx, id, { baseUrl, actorId, action: "updated", before }), now);
          }
          return ok(issue);
        }),
      );
    },
    remove: (projectId, iid) =>
      inTransaction(store, async (tx) => {
        const found = await findIssue(tx, projectId, iid);
        if (found.isErr()) return err(found.error);
        await tx.activity.issueDetails.removeIssue(found.value.id);
        return ok(undefined);
      }),
  };
}
