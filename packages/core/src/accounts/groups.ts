/** Groups: creation in a hierarchy (with an optional owner membership) and lookups. */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import { isRecordId, recordRef } from "../ids.js";
import { isStorableText } from "../storable.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { TransactionStore } from "../ports/store.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import { repositoryRemoval, type RepositoryRemoval } from "../repositories/removal.js";
import { fromStore, inTransaction, Messages, TAKEN, tooLong } from "./service-kit.js";
import { AccessLevel, type Group, type Namespace, type Visibility } from "./types.js";
import { checkName, checkPath, VISIBILITY_ORDER, visibilityWithin } from "./validation.js";
import { queueMemberHooks } from "../webhooks/system-events.js";

/** Input of {@link GroupsService.create}. */
export interface CreateGroupInput {
  name: string;
  path: string;
  /** Parent group id for a subgroup. */
  parentId?: number | null;
  /** Default `private`; never more open than the parent. */
  visibility?: Visibility;
  description?: string;
  /** When set, this user becomes the group's Owner in the same transaction (reference: the creator). */
  ownerId?: number;
}

/** Groups service (host API: `fk.groups`). */
export interface GroupsService {
  create(input: CreateGroupInput): ResultAsync<Group, ForgekitError>;
  /** `not_found("Group")` when missing or a user namespace. */
  findById(id: number): ResultAsync<Group, ForgekitError>;
  /** Case-insensitive full path; `not_found("Group")` when missing. */
  findByFullPath(fullPath: string): ResultAsync<Group, ForgekitError>;
  /** All-digit values are ids, anything else a full path (reference `find_group`). */
  findByIdOrPath(value: string | number): ResultAsync<Group, ForgekitError>;
  /** Ancestors, nearest parent first. */
  ancestors(id: number): ResultAsync<Group[], ForgekitError>;
  /**
   * Changes name, description or visibility. The visibility stays within the parent's and no more
   * closed than any subgroup's or project's (reference `Group` visibility validations). A group's
   * path cannot be changed: a different `path` is a validation error.
   */
  update(id: number, input: UpdateGroupInput): ResultAsync<Group, ForgekitError>;
  /**
   * Removes the group with its subgroups and projects, and everything they hold, in one transaction;
   * then deletes their repositories (repositories/removal.ts). `conflict` while a repository in it
   * is read-only (a storage move is running).
   */
  remove(id: number): ResultAsync<void, ForgekitError>;
}

/** Input of {@link GroupsService.update}. */
export interface UpdateGroupInput {
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
}

/** Narrows a namespace to a group. */
export function isGroup(namespace: Namespace | null): namespace is Group {
  return namespace !== null && namespace.kind === "group";
}

/** The reference's message when a subgroup would be more open than its parent. */
export const parentVisibilityMessage = (visibility: Visibility, parent: Visibility): string =>
  `${visibility} is not allowed since the parent group has a ${parent} visibility.`;

/** Builds the groups service. */
export function groupsService(config: ForgekitConfig, removal: RepositoryRemoval = repositoryRemoval(config)): GroupsService {
  const { store, clock } = config;
  const asGroup = (n: Namespace | null): Result<Group, ForgekitError> => (isGroup(n) ? ok(n) : err(errors.notFound("Group")));
  // An id or path no store can hold names no group: "not found" without asking the store (ids.ts).
  const findById = (id: number) => (isRecordId(id) ? fromStore(store.namespaces.findById(id)).andThen(asGroup) : errAsync(errors.notFound("Group")));
  const findByFullPath = (path: string) =>
    isStorableText(path) ? fromStore(store.namespaces.findByFullPath(path)).andThen(asGroup) : errAsync(errors.notFound("Group"));

  return {
    create(input) {
      const messages = new Messages();
      checkName(messages, "name", input.name);
      checkPath(messages, "path", input.path);
      // Every group gets its wiki repository (what group storage moves move) as the transaction's last step.
      return messages.result(input).asyncAndThen(() =>
        inTransactionWithRepository(config, async (tx) =>
          (await insertGroup(tx, input, clock.now())).map((group) => ({
            value: group,
            repository: { storage: config.defaultRepositoryStorage, ref: { kind: "group-wiki" as const, id: group.id } },
          })),
        ),
      );
    },
    findById,
    findByFullPath,
    findByIdOrPath(value) {
      const ref = recordRef(value);
      if (ref === null) return errAsync(errors.notFound("Group"));
      return typeof ref === "number" ? findById(ref) : findByFullPath(ref);
    },
    ancestors: (id) => findById(id).andThen(() => fromStore(store.namespaces.ancestors(id))).map((list) => list.filter(isGroup)),
    update(id, input) {
      const messages = new Messages();
      if (input.name !== undefined) checkName(messages, "name", input.name);
      if (input.description !== undefined && input.description.length > 2000) messages.add("description", tooLong(2000));
      return messages
        .result(input)
        .asyncAndThen(() => findById(id))
        .andThen((group) => {
          if (input.path !== undefined && input.path !== group.path) return errAsync(errors.validation({ path: ["cannot be changed: forgekit does not rename groups"] }));
          return inTransaction(store, async (tx) => {
            if (input.visibility !== undefined && input.visibility !== group.visibility) {
              const allowed = await visibilityAllowed(tx, group, input.visibility);
              if (allowed.isErr()) return err(allowed.error);
            }
            const patch = { ...pick(input, ["name", "description", "visibility"]), updatedAt: clock.now() };
            const updated = await tx.namespaces.updateGroup(group.id, patch);
            return updated !== null && isGroup(updated) ? ok(updated) : err(errors.notFound("Group"));
          });
        });
    },
    remove: (id) =>
      findById(id)
        .andThen((group) =>
          inTransaction(store, async (tx) => {
            if (await holdsReadOnlyRepository(tx, group)) return err(errors.conflict("A repository of this group is read-only while a storage move runs; try again when it finished"));
            const removed = await tx.namespaces.removeGroup(group.id);
            return removed === null ? err(errors.notFound("Group")) : ok(removed);
          }),
        )
        .andThen((removed) => fromStore(removal.removeAll(removed))),
  };
}

/** The defined keys of `input` among `keys`. */
function pick<T extends object, K extends keyof T>(input: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

/** Reference `Group` validations: within the parent's visibility, and no subgroup or project more open. */
async function visibilityAllowed(tx: TransactionStore, group: Group, visibility: Visibility): Promise<Result<void, ForgekitError>> {
  const parent = group.parentId === null ? null : await tx.namespaces.findById(group.parentId);
  if (parent !== null && !visibilityWithin(visibility, parent.visibility)) {
    return err(errors.validation({ visibility_level: [parentVisibilityMessage(visibility, parent.visibility)] }));
  }
  const admin = { userId: 0, admin: true };
  const open = new Set(VISIBILITY_ORDER.slice(VISIBILITY_ORDER.indexOf(visibility) + 1));
  for (let page = 1; ; page += 1) {
    const children = await tx.namespaces.listGroups({ viewer: admin, parentId: group.id, orderBy: "id" }, { kind: "offset", page, perPage: 100 });
    if (children.items.some((child) => open.has(child.visibility))) {
      return err(errors.validation({ visibility_level: [`${visibility} is not allowed since there are sub-groups with higher visibility.`] }));
    }
    if (!("hasNext" in children) || !children.hasNext) break;
  }
  for (const more of open) {
    const projects = await tx.projects.list({ viewer: admin, namespaceId: group.id, visibility: more }, { kind: "offset", page: 1, perPage: 1 });
    if (projects.items.length > 0) return err(errors.validation({ visibility_level: [`${visibility} is not allowed since this group contains projects with higher visibility.`] }));
  }
  return ok(undefined);
}

/** Whether a project or group wiki in the group's tree has a read-only repository (a storage move is running). */
async function holdsReadOnlyRepository(tx: TransactionStore, group: Group): Promise<boolean> {
  const admin = { userId: 0, admin: true };
  for (let page = 1; ; page += 1) {
    const projects = await tx.projects.list({ viewer: admin, namespaceId: group.id, includeSubgroups: true, orderBy: "id", sort: "asc" }, { kind: "offset", page, perPage: 100 });
    if (projects.items.some((p) => p.repositoryReadOnly)) return true;
    if (!("hasNext" in projects) || !projects.hasNext) break;
  }
  const groups = [group.id];
  for (let page = 1; ; page += 1) {
    const listed = await tx.namespaces.listGroups({ viewer: admin, ancestorId: group.id, orderBy: "id" }, { kind: "offset", page, perPage: 100 });
    groups.push(...listed.items.map((g) => g.id));
    if (!("hasNext" in listed) || !listed.hasNext) break;
  }
  for (const id of groups) if ((await tx.storageMoves.containers.find("group", id))?.readOnly === true) return true;
  return false;
}

async function insertGroup(tx: TransactionStore, input: CreateGroupInput, now: Date): Promise<Result<Group, ForgekitError>> {
  const visibility = input.visibility ?? "private";
  let parent: Group | null = null;
  if (input.parentId != null) {
    const found = await tx.namespaces.findById(input.parentId);
    if (!isGroup(found)) return err(errors.notFound("Parent Group"));
    parent = found;
    if (!visibilityWithin(visibility, parent.visibility)) {
      return err(errors.validation({ visibility_level: [parentVisibilityMessage(visibility, parent.visibility)] }));
    }
  }
  if (input.ownerId !== undefined && !(await tx.users.findById(input.ownerId))) return err(errors.notFound("User"));
  const created = await tx.namespaces.create(
    { kind: "group", path: input.path, name: input.name, parentId: parent?.id ?? null, ownerId: null, visibility, description: input.description ?? "" },
    now,
  );
  if (!isGroup(created)) return err(errors.validation({ path: [TAKEN] }));
  if (input.ownerId !== undefined) {
    const membership = await tx.members.add({ sourceType: "namespace", sourceId: created.id, userId: input.ownerId, accessLevel: AccessLevel.Owner }, now);
    if (!membership) return err(errors.conflict("Member already exists"));
    await queueMemberHooks(tx, membership, "create", now);
  }
  return ok(created);
}
