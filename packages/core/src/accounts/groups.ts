/** Groups: creation in a hierarchy (with an optional owner membership) and lookups. */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import { isRecordId, recordRef } from "../ids.js";
import { isStorableText } from "../storable.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { TransactionStore } from "../ports/store.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import { fromStore, Messages, TAKEN } from "./service-kit.js";
import { AccessLevel, type Group, type Namespace, type Visibility } from "./types.js";
import { checkName, checkPath, visibilityWithin } from "./validation.js";

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
}

/** Narrows a namespace to a group. */
export function isGroup(namespace: Namespace | null): namespace is Group {
  return namespace !== null && namespace.kind === "group";
}

/** The reference's message when a subgroup would be more open than its parent. */
export const parentVisibilityMessage = (visibility: Visibility, parent: Visibility): string =>
  `${visibility} is not allowed since the parent group has a ${parent} visibility.`;

/** Builds the groups service. */
export function groupsService(config: ForgekitConfig): GroupsService {
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
  };
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
  }
  return ok(created);
}
