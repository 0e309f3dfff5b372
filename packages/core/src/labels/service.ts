/**
 * Project and group labels (reference `LabelHelpers`, `Labels::CreateService` / `UpdateService`,
 * `Label` validations): find by id or title (a project's own labels, then its groups'), check and
 * write names, colours and priorities, render with the viewer's subscriptions, the project's
 * priorities and counts from the stored links.
 */
import { err, ok, type Result } from "neverthrow";
import { AccessLevel, type Group, type Project, type User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordIdFrom } from "../ids.js";
import { BLANK, Messages } from "../accounts/service-kit.js";
import { hasGroupAccess, hasProjectAccess } from "../access/permissions.js";
import type { Label } from "../ports/imports-store.js";
import type { LabelPatch } from "../ports/labels-store.js";
import { labelColor } from "./colors.js";
import { groupLabelEntity, projectLabelEntity } from "./entities.js";

/** Longest label title (reference `Label` title limit). */
const TITLE_MAX = 255;
/** Longest label description, in UTF-8 bytes. */
const DESCRIPTION_MAX_BYTES = 65_535;

/** Whose labels a route serves: a project or a group, with the ids of the groups above it (nearest first). */
export type LabelOwner = { kind: "project"; project: Project; groupIds: number[] } | { kind: "group"; group: Group; groupIds: number[] };

/** The owner with the groups above it: a project's namespace chain (groups only), a group's ancestors. */
export async function labelOwner(config: ForgekitConfig, of: { project: Project } | { group: Group }): Promise<LabelOwner> {
  if ("project" in of) {
    const chain = await config.store.namespaces.chain(of.project.namespaceId);
    return { kind: "project", project: of.project, groupIds: chain.filter((n) => n.kind === "group").map((n) => n.id) };
  }
  return { kind: "group", group: of.group, groupIds: (await config.store.namespaces.ancestors(of.group.id)).map((n) => n.id) };
}

const owns = (owner: LabelOwner, label: Label) => (owner.kind === "project" ? label.projectId === owner.project.id : label.groupId === owner.group.id);

/**
 * The owner's label with this id, else the one with this title; with `ancestors`, also the labels
 * of the groups above it (reference `find_label`: reads include ancestor groups, edits do not).
 * `404 Label Not Found`.
 */
export async function findLabel(config: ForgekitConfig, owner: LabelOwner, idOrTitle: string, ancestors: boolean): Promise<Result<Label, ForgekitError>> {
  const store = config.store;
  const id = recordIdFrom(idOrTitle);
  const byId = id === null ? null : await store.labels.findById(id);
  if (byId !== null && (owns(owner, byId) || (ancestors && byId.groupId !== null && owner.groupIds.includes(byId.groupId)))) return ok(byId);
  const own = owner.kind === "project" ? await store.imports.labels.findByName(owner.project.id, idOrTitle) : await store.labels.findInGroups([owner.group.id], idOrTitle);
  const label = own ?? (ancestors ? await store.labels.findInGroups(owner.groupIds, idOrTitle) : null);
  return label === null ? err(errors.notFound("Label")) : ok(label);
}

/** What a create or an update asks to write. */
export interface LabelChanges {
  name?: string;
  color?: string;
  description?: string;
}

/** The checked patch (a CSS colour name as its hex) or the reference's validation messages. */
export function checkLabel(changes: LabelChanges): Result<LabelPatch, ForgekitError> {
  const messages = new Messages();
  const patch: LabelPatch = {};
  if (changes.name !== undefined) {
    const name = changes.name.trim();
    if (name === "") messages.add("title", BLANK);
    else if (name.includes(",")) messages.add("title", "is invalid");
    else if (name.length > TITLE_MAX) messages.add("title", `is too long (maximum is ${TITLE_MAX} characters)`);
    patch.name = name;
  }
  if (changes.color !== undefined) {
    const color = labelColor(changes.color);
    if (color === null) messages.add("color", "must be a valid color code");
    else patch.color = color;
  }
  if (changes.description !== undefined) {
    // The column is a MySQL TEXT (0010_imports): at most 65,535 bytes of UTF-8.
    if (new TextEncoder().encode(changes.description).length > DESCRIPTION_MAX_BYTES) messages.add("description", `is too long (maximum is ${DESCRIPTION_MAX_BYTES} bytes)`);
    patch.description = changes.description;
  }
  return messages.result(patch);
}

/** `priority` as the reference reads it (`allow_blank`): absent, cleared (`null` / blank) or an integer ≥ 0. */
export function priorityParam(value: unknown): Result<number | null | undefined, ForgekitError> {
  if (value === undefined) return ok(undefined);
  if (value === null || value === "") return ok(null);
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d{1,9}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n)) return err(errors.invalidParam("priority"));
  return n < 0 ? err(errors.validation({ priority: ["must be greater than or equal to 0"] })) : ok(n);
}

/** Who may create, edit and delete the owner's labels: Reporter+ of the project or group (reference `admin_label`), administrators. */
export function canAdminLabels(config: ForgekitConfig, user: User, owner: LabelOwner): Promise<boolean> {
  const now = config.clock.now();
  return owner.kind === "project" ? hasProjectAccess(config.store, user, owner.project, AccessLevel.Reporter, now) : hasGroupAccess(config.store, user, owner.group, AccessLevel.Reporter, now);
}

/** Renders labels for `viewer` as the owner shows them; counts (confidential issues only for Reporter+) when asked. */
export async function renderLabels(config: ForgekitConfig, owner: LabelOwner, viewer: User, labels: readonly Label[], withCounts: boolean): Promise<Record<string, unknown>[]> {
  const store = config.store;
  const ids = labels.map((l) => l.id);
  const [subscribed, priorities] = await Promise.all([store.labels.subscribed(viewer.id, ids), owner.kind === "project" ? store.labels.priorities(owner.project.id, ids) : new Map<number, number>()]);
  const counts = withCounts ? await store.labels.counts(ids, { confidential: await canAdminLabels(config, viewer, owner) }) : undefined;
  return labels.map((label) => {
    const view = { label, subscribed: subscribed.has(label.id), priority: priorities.get(label.id) ?? null, ...(counts === undefined ? {} : { counts: counts.get(label.id) ?? { openIssues: 0, closedIssues: 0, openMergeRequests: 0 } }) };
    return owner.kind === "project" ? projectLabelEntity(view) : groupLabelEntity(view);
  });
}
