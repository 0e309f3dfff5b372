/** Memberships of users in projects and groups, at Guest (10) … Owner (50). */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { TransactionStore } from "../ports/store.js";
import { queueMemberHooks } from "../webhooks/system-events.js";
import { attempt, inTransaction } from "./service-kit.js";
import type { AccessLevel, Membership, MemberSource } from "./types.js";
import { isMemberLevel } from "./validation.js";

/** Where a membership applies: a project, or a group (namespace). */
export interface MemberTarget {
  sourceType: MemberSource;
  sourceId: number;
}

/** Input of {@link MembersService.add}. */
export interface AddMemberInput extends MemberTarget {
  userId: number;
  accessLevel: number;
  expiresAt?: Date | null;
}

/** Members service (host API: `fk.members`). */
export interface MembersService {
  /**
   * 409 `Member already exists` for a second unexpired direct membership (an expired one is
   * replaced); 404 for a missing source or user.
   */
  add(input: AddMemberInput): ResultAsync<Membership, ForgekitError>;
  /**
   * Changes the level of a direct membership, and its expiry when `expiresAt` is given (`null`:
   * never); `not_found("Member")` when there is none.
   */
  update(target: MemberTarget, userId: number, accessLevel: number, expiresAt?: Date | null): ResultAsync<Membership, ForgekitError>;
  /** Removes a direct membership; `not_found("Member")` when there is none. */
  remove(target: MemberTarget, userId: number): ResultAsync<void, ForgekitError>;
  /** Direct members of the source. */
  list(target: MemberTarget): ResultAsync<Membership[], ForgekitError>;
}

const levelError = (): ForgekitError => errors.validation({ access_level: ["is not included in the list"] });

/** Checks that the membership's source exists (a project, or a group namespace). */
async function sourceExists(tx: TransactionStore, target: MemberTarget): Promise<Result<void, ForgekitError>> {
  if (target.sourceType === "project") return (await tx.projects.findById(target.sourceId)) ? ok(undefined) : err(errors.notFound("Project"));
  const namespace = await tx.namespaces.findById(target.sourceId);
  return namespace?.kind === "group" ? ok(undefined) : err(errors.notFound("Group"));
}

/** Whether a membership counts at `now`: no expiry, or expiry strictly later (the stores' rule, ports/store.ts). */
export function isUnexpired(membership: Pick<Membership, "expiresAt">, now: Date): boolean {
  return membership.expiresAt === null || membership.expiresAt.getTime() > now.getTime();
}

/**
 * Adds a membership inside an existing transaction (used by token services for bots). An expired
 * membership of the same user and source counts nowhere, so it is replaced rather than a conflict.
 */
export async function addMember(tx: TransactionStore, input: AddMemberInput, now: Date): Promise<Result<Membership, ForgekitError>> {
  if (!isMemberLevel(input.accessLevel)) return err(levelError());
  const source = await sourceExists(tx, input);
  if (source.isErr()) return err(source.error);
  if (!(await tx.users.findById(input.userId))) return err(errors.notFound("User"));
  const expired = await tx.members.find(input.sourceType, input.sourceId, input.userId);
  if (expired !== null && !isUnexpired(expired, now)) await tx.members.remove(expired.id);
  const row = await tx.members.add(
    { sourceType: input.sourceType, sourceId: input.sourceId, userId: input.userId, accessLevel: input.accessLevel, expiresAt: input.expiresAt ?? null },
    now,
  );
  if (!row) return err(errors.conflict("Member already exists"));
  await queueMemberHooks(tx, row, "create", now);
  if (row.sourceType !== "project") return ok(row);
  // A user joining a project is an event of that project (reference: project members only).
  const joined = await insertEvent(tx, { projectId: row.sourceId, authorId: row.userId, action: "joined" }, now);
  return joined.map(() => row);
}

/** Builds the members service. */
export function membersService(config: ForgekitConfig): MembersService {
  const { store, clock } = config;
  return {
    add: (input) => inTransaction(store, (tx) => addMember(tx, input, clock.now())),
    update(target, userId, accessLevel, expiresAt) {
      if (!isMemberLevel(accessLevel)) return errAsync(levelError());
      const level: AccessLevel = accessLevel;
      return inTransaction(store, async (tx) => {
        const member = await tx.members.find(target.sourceType, target.sourceId, userId);
        if (member === null) return err(errors.notFound("Member"));
        let row = await tx.members.updateAccessLevel(member.id, level);
        if (row !== null && expiresAt !== undefined) row = await tx.members.updateExpiry(member.id, expiresAt);
        if (row === null) return err(errors.notFound("Member"));
        await queueMemberHooks(tx, row, "update", clock.now());
        return ok(row);
      });
    },
    remove: (target, userId) =>
      inTransaction(store, async (tx) => {
        const member = await tx.members.find(target.sourceType, target.sourceId, userId);
        if (!member || !(await tx.members.remove(member.id))) return err(errors.notFound("Member"));
        await queueMemberHooks(tx, member, "destroy", clock.now());
        if (member.sourceType !== "project") return ok(undefined);
        const left = await insertEvent(tx, { projectId: member.sourceId, authorId: userId, action: "left" }, clock.now());
        return left.map(() => undefined);
      }),
    list: (target) =>
      attempt(async () => {
        const exists = await sourceExists(store, target);
        return exists.isErr() ? err(exists.error) : ok(await store.members.listBySource(target.sourceType, target.sourceId));
      }),
  };
}
