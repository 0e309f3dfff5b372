/** Project milestones (host API: `fk.milestones`): iid per project, active → closed → active, each change with its event. */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt, inTransaction, Messages, TAKEN } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { MilestoneListFilter } from "../ports/issue-details-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";
import { milestoneEvent } from "./event-inputs.js";
import { alreadyIn, byIidOr404, checkTitle, pageInProject, projectOr404, userOr404, vanished } from "./kit.js";
import type { Milestone } from "./types.js";

/** Input of {@link MilestonesService.create}. */
export interface CreateMilestoneInput {
  projectId: number;
  /** The user creating it (the event's author; milestones have no author of their own). */
  authorId: number;
  title: string;
  description?: string;
  /** `YYYY-MM-DD`. */
  startDate?: string | null;
  /** `YYYY-MM-DD`, after `startDate` when both are given. */
  dueDate?: string | null;
}

/** Milestones service. Callers are trusted: no permission checks. */
export interface MilestonesService {
  /** Creates an active milestone (title unique in the project → 400 `title has already been taken`) and records `created`. */
  create(input: CreateMilestoneInput): ResultAsync<Milestone, ForgekitError>;
  /** `404 Milestone Not Found` when the project has none with that iid. */
  find(projectId: number, iid: number): ResultAsync<Milestone, ForgekitError>;
  /** Closes an active milestone and records `closed`; 422 when already closed. */
  close(projectId: number, iid: number, actorId: number): ResultAsync<Milestone, ForgekitError>;
  /** Reactivates a closed milestone and records `reopened`; 422 when active. */
  reopen(projectId: number, iid: number, actorId: number): ResultAsync<Milestone, ForgekitError>;
  /** The project's milestones matching the filter, newest iid first. 404 Project; 400 bad page. */
  list(filter: MilestoneListFilter, page: OffsetPageRequest): ResultAsync<OffsetPageResult<Milestone>, ForgekitError>;
  /**
   * Changes title and description, then the state event (`close` / `activate`, recording `closed` /
   * `reopened`; one that changes nothing is ignored), in one transaction. 400 blank or taken title.
   */
  update(projectId: number, iid: number, actorId: number, changes: MilestoneChanges): ResultAsync<Milestone, ForgekitError>;
  /** Deletes the milestone (its issues keep none) and records `destroyed` (reference `Milestones::DestroyService`). */
  remove(projectId: number, iid: number, actorId: number): ResultAsync<void, ForgekitError>;
}

/** What {@link MilestonesService.update} changes. */
export interface MilestoneChanges {
  title?: string;
  description?: string;
  stateEvent?: "close" | "activate";
  /** `YYYY-MM-DD`; null clears it. */
  startDate?: string | null;
  /** `YYYY-MM-DD`; null clears it. */
  dueDate?: string | null;
}

/** Reference `Timebox#start_date_should_be_less_than_due_date`: a due date must come after the start date. */
export const DUE_BEFORE_START = "must be greater than start date";

/** The reference's date rule on the dates a milestone would have; a validation error when broken. */
export function checkDates(startDate: string | null, dueDate: string | null): ForgekitError | null {
  return startDate !== null && dueDate !== null && dueDate <= startDate ? errors.validation({ due_date: [DUE_BEFORE_START] }) : null;
}

const findMilestone = (tx: TransactionStore, projectId: number, iid: number): Promise<Result<Milestone, ForgekitError>> =>
  byIidOr404(tx, projectId, iid, (p, i) => tx.activity.milestones.findByIid(p, i), "Milestone");

/** Builds the milestones service. */
export function milestonesService(config: ForgekitConfig): MilestonesService {
  const { store, clock } = config;

  const transition = (projectId: number, iid: number, actorId: number, to: "active" | "closed") =>
    inTransaction(store, async (tx) => {
      const now = clock.now();
      const actor = await userOr404(tx, actorId);
      if (actor.isErr()) return err(actor.error);
      const found = await findMilestone(tx, projectId, iid);
      if (found.isErr()) return err(found.error);
      if (found.value.state === to) return err(alreadyIn("Milestone", to));
      const milestone = await tx.activity.milestones.update(found.value.id, { state: to, updatedAt: now });
      if (milestone === null) return err(vanished("milestone"));
      const event = await insertEvent(tx, milestoneEvent(milestone, to === "closed" ? "closed" : "reopened", actorId), now);
      return event.map(() => milestone);
    });

  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const project = await projectOr404(tx, input.projectId);
          if (project.isErr()) return err(project.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const dates = { startDate: input.startDate ?? null, dueDate: input.dueDate ?? null };
          const broken = checkDates(dates.startDate, dates.dueDate);
          if (broken !== null) return err(broken);
          const milestone = await tx.activity.milestones.create({ projectId: input.projectId, title: input.title, description: input.description ?? "", ...dates }, now);
          if (milestone === null) return err(errors.validation({ title: [TAKEN] }));
          const event = await insertEvent(tx, milestoneEvent(milestone, "created", input.authorId), now);
          return event.map(() => milestone);
        }),
      );
    },
    find: (projectId, iid) => attempt(() => findMilestone(store, projectId, iid)),
    close: (projectId, iid, actorId) => transition(projectId, iid, actorId, "closed"),
    reopen: (projectId, iid, actorId) => transition(projectId, iid, actorId, "active"),
    list: (filter, page) => attempt(() => pageInProject(store, filter.projectId, page, () => store.activity.issueDetails.listMilestones(filter, page))),
    update(projectId, iid, actorId, changes) {
      const messages = new Messages();
      if (changes.title !== undefined) checkTitle(messages, "title", changes.title);
      return messages.result(changes).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const actor = await userOr404(tx, actorId);
          if (actor.isErr()) return err(actor.error);
          const found = await findMilestone(tx, projectId, iid);
          if (found.isErr()) return err(found.error);
          let milestone = found.value;
          const dates = { startDate: changes.startDate === undefined ? milestone.startDate : changes.startDate, dueDate: changes.dueDate === undefined ? milestone.dueDate : changes.dueDate };
          const broken = checkDates(dates.startDate, dates.dueDate);
          if (broken !== null) return err(broken);
          if (changes.description !== undefined) milestone = (await tx.activity.issueDetails.describeMilestone(milestone.id, changes.description, now)) ?? milestone;
          const to = changes.stateEvent === "close" ? "closed" : changes.stateEvent === "activate" ? "active" : milestone.state;
          const moved = to !== milestone.state;
          const patched = await tx.activity.milestones.update(milestone.id, {
            ...(changes.title === undefined ? {} : { title: changes.title }),
            ...(moved ? { state: to } : {}),
            ...(changes.startDate === undefined ? {} : { startDate: changes.startDate }),
            ...(changes.dueDate === undefined ? {} : { dueDate: changes.dueDate }),
            updatedAt: now,
          });
          if (patched === null) return err(errors.validation({ title: [TAKEN] }));
          if (!moved) return ok(patched);
          const event = await insertEvent(tx, milestoneEvent(patched, to === "closed" ? "closed" : "reopened", actorId), now);
          return event.map(() => patched);
        }),
      );
    },
    remove: (projectId, iid, actorId) =>
      inTransaction(store, async (tx) => {
        const now = clock.now();
        const actor = await userOr404(tx, actorId);
        if (actor.isErr()) return err(actor.error);
        const found = await findMilestone(tx, projectId, iid);
        if (found.isErr()) return err(found.error);
        await tx.activity.issueDetails.removeMilestone(found.value.id);
        const event = await insertEvent(tx, milestoneEvent(found.value, "destroyed", actorId), now);
        return event.map(() => undefined);
      }),
  };
}
