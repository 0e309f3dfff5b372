/**
 * Promoting a project label to a group label (reference `PUT /projects/:id/labels/:name/promote`,
 * `LabelHelpers#promote_label`, `Labels::PromoteService`): the project's group gets a label of the
 * same title, colour and description, and every label of that title in the group and its projects
 * is merged into it — their issues and merge requests, priorities and subscriptions move to it and
 * they are deleted — in one transaction. Where the group has a label of that title already, that
 * label takes the project label's colour and description and keeps its id (the reference makes a
 * new one and merges the old group label into it: the same labels, links and names, another id).
 */
import { err, ok, type Result } from "neverthrow";
import { AccessLevel, type Group, type User } from "../accounts/types.js";
import { hasGroupAccess } from "../access/permissions.js";
import { findGroupRef } from "../accounts/routes/containers.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { Label } from "../ports/imports-store.js";
import type { TransactionStore } from "../ports/store.js";
import { findLabel, type LabelOwner } from "./service.js";

const FAILED = "Failed to promote project label to group label";

/** The ids of the projects directly in the group (paged through). */
async function projectIdsIn(tx: TransactionStore, group: Group): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const listed = await tx.projects.list({ viewer: { userId: 0, admin: true }, namespaceId: group.id, orderBy: "id", sort: "asc" }, { kind: "offset", page, perPage: 100 });
    ids.push(...listed.items.map((p) => p.id));
    if (!("hasNext" in listed) || !listed.hasNext) return ids;
  }
}

/**
 * Promotes the project's label `labelRef` (id or title, the project's own labels only): the group
 * label, with the group. 400 when the project is not in a group, 403 unless the user may administer
 * the group's labels (Reporter+ of the group, administrators), 404 for a label the project does not own.
 */
export async function promoteLabel(config: ForgekitConfig, user: User, owner: Extract<LabelOwner, { kind: "project" }>, labelRef: string): Promise<Result<{ group: Group; label: Label }, ForgekitError>> {
  const { store, clock } = config;
  const group = await findGroupRef(store, owner.project.namespaceId);
  if (group === null) return err(errors.badRequestMessage(FAILED));
  if (!(await hasGroupAccess(store, user, group, AccessLevel.Reporter, clock.now()))) return err(errors.forbidden());
  const found = await findLabel(config, owner, labelRef, false);
  if (found.isErr()) return err(found.error);
  const label = found.value;
  const promoted = await store.transaction(async (tx): Promise<Label | null> => {
    const now = clock.now();
    const existing = await tx.labels.findInGroups([group.id], label.name);
    const into = existing === null ? await tx.labels.createGroupLabel({ groupId: group.id, name: label.name, color: label.color, description: label.description }, now) : await tx.labels.update(existing.id, { color: label.color, description: label.description }, now);
    if (into === null) return null;
    const sources: number[] = [];
    for (const projectId of await projectIdsIn(tx, group)) {
      const same = await tx.imports.labels.findByName(projectId, label.name);
      if (same !== null) sources.push(same.id);
    }
    await tx.labels.mergeInto(into.id, sources);
    return into;
  });
  return promoted === null ? err(errors.badRequestMessage(FAILED)) : ok({ group, label: promoted });
}
