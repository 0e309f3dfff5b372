/**
 * Group milestones (reference `/groups/:id/milestones`): iid per group, active → closed → active.
 * Each write records its event (no project: group events never appear in the project feeds).
 */
import { err, ok, type ResultAsync } from "neverthrow";
import { attempt, inTransaction, Messages, TAKEN } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent, type RecordEventInput } from "../events/record.js";
import type { EventAction } from "../events/types.js";
import type { GroupMilestone, GroupMilestoneListFilter } from "../ports/group-milestones-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { checkTitle, isRecordId, pageOr400, userOr404 } from "./kit.js";
import { checkDates, type MilestoneChanges } from "./milestones.js";

/** Input of {@link GroupMilestonesService.create}. */
export interface CreateGroupMilestoneInput {
  groupId: number;
  /** The user creating it (the event's author). */
  authorId: number;
  title: string;
  description?: string;
  /** `YYYY-MM-DD`. */
  startDate?: string | null;
  /** `YYYY-MM-DD`, after `startDate` when both are given. */
  dueDate?: string | null;
}

/** Group milestones service. Callers are trusted: no permission checks. */
export interface GroupMilestonesService {
  /** 400 blank or taken title, or a due date not after the start date; 404 Group / User. */
  create(input: CreateGroupMilestoneInput): ResultAsync<GroupMilestone, ForgekitError>;
  /** `404 Milestone Not Found` unless the group has a milestone with that id. */
  find(groupId: number, id: number): ResultAsync<GroupMilestone, ForgekitError>;
  list(filter: GroupMilestoneListFilter, page: OffsetPageRequest): ResultAsync<OffsetPageResult<GroupMilestone>, ForgekitError>;
  /** Title, description, dates (400 when the due date would not come after the start date), then the state event (`closed` / `reopened` events); one that changes nothing is ignored. */
  update(groupId: number, id: number, actorId: number, changes: MilestoneChanges): ResultAsync<GroupMilestone, ForgekitError>;
  /** Deletes it and records `destroyed`. */
  remove(groupId: number, id: number, actorId: number): ResultAsync<void, ForgekitError>;
}

const event = (m: GroupMilestone, action: EventAction, authorId: number): RecordEventInput => ({
  projectId: null,
  authorId,
  action,
  target: { type: "Milestone", id: m.id, iid: m.iid, title: m.title },
  audience: "project",
  audienceUserId: null,
});

/** Builds the group milestones service. */
export function groupMilestonesService(config: ForgekitConfig): GroupMilestonesService {
  const { store, clock } = config;
  const findIn = async (tx: Pick<typeof store, "activity">, groupId: number, id: number) => {
    const milestone = isRecordId(id) ? await tx.activity.groupMilestones.findById(id) : null;
    return milestone !== null && milestone.groupId === groupId ? ok(milestone) : err(errors.notFound("Milestone"));
  };
  return {
    create(input) {
      const messages = new Messages();
      checkTitle(messages, "title", input.title);
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const group = isRecordId(input.groupId) ? await tx.namespaces.findById(input.groupId) : null;
          if (group === null || group.kind !== "group") return err(errors.notFound("Group"));
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const dates = { startDate: input.startDate ?? null, dueDate: input.dueDate ?? null };
          const broken = checkDates(dates.startDate, dates.dueDate);
          if (broken !== null) return err(broken);
          const milestone = await tx.activity.groupMilestones.create({ groupId: input.groupId, title: input.title, description: input.description ?? "", ...dates }, now);
          if (milestone === null) return err(errors.validation({ title: [TAKEN] }));
          return (await insertEvent(tx, event(milestone, "created", input.authorId), now)).map(() => milestone);
        }),
      );
    },
    find: (groupId, id) => attempt(() => findIn(store, groupId, id)),
    list: (filter, page) =>
      attempt(async () => {
        const valid = pageOr400(page);
        return valid.isErr() ? err(valid.error) : ok(await store.activity.groupMilestones.list(filter, page));
      }),
    update(groupId, id, actorId, changes) {
      const messages = new Messages();
      if (changes.title !== undefined) checkTitle(messages, "title", changes.title);
      return messages.result(changes).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const found = await findIn(tx, groupId, id);
          if (found.isErr()) return err(found.error);
          const dates = { startDate: changes.startDate === undefined ? found.value.startDate : changes.startDate, dueDate: changes.dueDate === undefined ? found.value.dueDate : changes.dueDate };
          const broken = checkDates(dates.startDate, dates.dueDate);
          if (broken !== null) return err(broken);
          const to = changes.stateEvent === "close" ? "closed" : changes.stateEvent === "activate" ? "active" : found.value.state;
          const moved = to !== found.value.state;
          const patch = {
            ...(changes.title === undefined ? {} : { title: changes.title }),
            ...(changes.description === undefined ? {} : { description: changes.description }),
            ...(moved ? { state: to } : {}),
            ...(changes.startDate === undefined ? {} : { startDate: changes.startDate }),
            ...(changes.dueDate === undefined ? {} : { dueDate: changes.dueDate }),
            updatedAt: now,
          };
          const updated = await tx.activity.groupMilestones.update(id, patch);
          if (updated === null) return err(errors.validation({ title: [TAKEN] }));
          if (!moved) return ok(updated);
          return (await insertEvent(tx, event(updated, to === "closed" ? "closed" : "reopened", actorId), now)).map(() => updated);
        }),
      );
    },
    remove: (groupId, id, actorId) =>
      inTransaction(store, async (tx) => {
        const found = await findIn(tx, groupId, id);
        if (found.isErr()) return err(found.error);
        await tx.activity.groupMilestones.remove(id);
        return (await insertEvent(tx, event(found.value, "destroyed", actorId), clock.now())).map(() => undefined);
      }),
  };
}
