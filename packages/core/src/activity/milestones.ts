/** Project milestones (host API: `fk.milestones`): iid per project, active → closed → active, each change with its event. */
import { err, type Result, type ResultAsync } from "neverthrow";
import { attempt, inTransaction, Messages, TAKEN } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { TransactionStore } from "../ports/store.js";
import { milestoneEvent } from "./event-inputs.js";
import { alreadyIn, byIidOr404, checkTitle, projectOr404, userOr404, vanished } from "./kit.js";
import type { Milestone } from "./types.js";

/** Input of {@link MilestonesService.create}. */
export interface CreateMilestoneInput {
  projectId: number;
  /** The user creating it (the event's author; milestones have no author of their own). */
  authorId: number;
  title: string;
  description?: string;
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
          const milestone = await tx.activity.milestones.create({ projectId: input.projectId, title: input.title, description: input.description ?? "" }, now);
          if (milestone === null) return err(errors.validation({ title: [TAKEN] }));
          const event = await insertEvent(tx, milestoneEvent(milestone, "created", input.authorId), now);
          return event.map(() => milestone);
        }),
      );
    },
    find: (projectId, iid) => attempt(() => findMilestone(store, projectId, iid)),
    close: (projectId, iid, actorId) => transition(projectId, iid, actorId, "closed"),
    reopen: (projectId, iid, actorId) => transition(projectId, iid, actorId, "active"),
  };
}
