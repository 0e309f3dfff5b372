/**
 * `/projects/:id/labels` and `/groups/:id/labels` (reference `lib/api/labels.rb`, `group_labels.rb`,
 * `LabelHelpers`, `lib/api/subscriptions.rb`): list (`with_counts`, `search`,
 * `include_ancestor_groups` (default true), pagination), show, create, update and delete by id or
 * title (and the deprecated `PUT` / `DELETE …/labels` with `label_id` or `name`, which python-gitlab
 * uses to save a label), subscribe and unsubscribe (304 when nothing changes), promote a project
 * label to a group label (labels/promote.ts). Priorities are a
 * project's. Every call needs a signed-in user (reference `before { authenticate! }`); an unreadable
 * project or group is 404; writing needs Reporter+ of it (403); edits reach only its own labels.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import type { User } from "../accounts/types.js";
import { visibleGroup, visibleProject } from "../access/permissions.js";
import { findGroupRef, findProjectRef } from "../accounts/routes/containers.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { RouteAuth, RouteResult } from "../http/types.js";
import type { Label } from "../ports/imports-store.js";
import { promoteLabel } from "./promote.js";
import { canAdminLabels, checkLabel, findLabel, labelOwner, priorityParam, renderLabels, type LabelOwner } from "./service.js";

const AUTH: RouteAuth = { mode: "required" };
const EDIT = { new_name: p.string().optional(), color: p.string().optional(), description: p.string().optional(), priority: z.unknown().optional() };

/** Builds the project and group label routes. */
export function labelRoutes(config: ForgekitConfig): AnyRoute[] {
  return [...ownerLabelRoutes(config, "project"), ...ownerLabelRoutes(config, "group")];
}

/** The label routes of projects or of groups. */
function ownerLabelRoutes(config: ForgekitConfig, kind: LabelOwner["kind"]): AnyRoute[] {
  const { store, clock, baseUrl } = config;
  const base = kind === "project" ? "/projects/:id/labels" : "/groups/:id/labels";
  const UPDATE_FIELDS = kind === "project" ? ["new_name", "color", "description", "priority"] : ["new_name", "color", "description"];

  /** The readable project or group of `:id` (404), with write access when asked (403). */
  const projectFor = async (user: User | null, id: number | string, write: boolean): Promise<Result<{ user: User; owner: LabelOwner }, ForgekitError>> => {
    if (user === null) return err(errors.unauthorized());
    const now = clock.now();
    const found = kind === "project" ? (await visibleProject(store, user, await findProjectRef(store, id), now)).map((project) => ({ project })) : (await visibleGroup(store, user, await findGroupRef(store, id), now)).map((group) => ({ group }));
    if (found.isErr()) return err(found.error);
    const owner = await labelOwner(config, found.value);
    if (write && !(await canAdminLabels(config, user, owner))) return err(errors.forbidden());
    return ok({ user, owner });
  };
  /** The owner (as {@link projectFor}) and its label of `labelRef` (id or title; reads also find the groups' above it). */
  const labelFor = async (user: User | null, id: number | string, labelRef: string, write: boolean, ancestors = !write): Promise<Result<{ user: User; owner: LabelOwner; label: Label }, ForgekitError>> => {
    const o = await projectFor(user, id, write);
    if (o.isErr()) return err(o.error);
    const label = await findLabel(config, o.value.owner, labelRef, ancestors);
    return label.map((found) => ({ ...o.value, label: found }));
  };
  const one = async (user: User, owner: LabelOwner, label: Label, status = 200): Promise<RouteResult> => ({ status, body: (await renderLabels(config, owner, user, [label], false))[0] });

  /** Reference `update_label`: new name, colour, description, priority (`null` / blank clears it). */
  const update = async (user: User | null, id: number | string, labelRef: string, params: z.output<z.ZodObject<typeof EDIT>>): Promise<Result<RouteResult, ForgekitError>> => {
    const given = UPDATE_FIELDS.filter((name) => (params as Record<string, unknown>)[name] !== undefined);
    if (given.length === 0) return err(errors.invalidParam(UPDATE_FIELDS.join(", "), "are missing, at least one parameter must be provided"));
    const priority = kind === "project" ? priorityParam(params.priority) : ok(undefined);
    if (priority.isErr()) return err(priority.error);
    const o = await labelFor(user, id, labelRef, true);
    if (o.isErr()) return err(o.error);
    const patch = checkLabel({ ...(params.new_name === undefined ? {} : { name: params.new_name }), ...(params.color === undefined ? {} : { color: params.color }), ...(params.description === undefined ? {} : { description: params.description }) });
    if (patch.isErr()) return err(patch.error);
    const saved = await store.transaction(async (tx) => {
      const row = Object.keys(patch.value).length === 0 ? o.value.label : await tx.labels.update(o.value.label.id, patch.value, clock.now());
      if (row !== null && priority.value !== undefined && o.value.owner.kind === "project") await tx.labels.setPriority(o.value.owner.project.id, row.id, priority.value);
      return row;
    });
    if (saved === null) return err(errors.validation({ title: ["has already been taken"] }));
    return ok(await one(o.value.user, o.value.owner, saved));
  };

  const remove = async (user: User | null, id: number | string, labelRef: string): Promise<Result<RouteResult, ForgekitError>> => {
    const o = await labelFor(user, id, labelRef, true);
    if (o.isErr()) return err(o.error);
    await store.labels.remove(o.value.label.id);
    return ok({ status: 204 });
  };

  /** Exactly one of `label_id` / `name` (Grape `exactly_one_of`). */
  const eitherRef = (params: { label_id?: number | undefined; name?: string | undefined }): Result<string, ForgekitError> => {
    if (params.label_id !== undefined && params.name !== undefined) return err(errors.invalidParam("label_id, name", "are mutually exclusive"));
    if (params.label_id === undefined && params.name === undefined) return err(errors.invalidParam("label_id, name", "are missing, exactly one parameter must be provided"));
    return ok(params.label_id === undefined ? (params.name ?? "") : String(params.label_id));
  };

  /** Reference `promote_label`: the group label, as the group shows it. */
  const promote = async (user: User | null, id: number | string, labelRef: string): Promise<Result<RouteResult, ForgekitError>> => {
    const o = await projectFor(user, id, false);
    if (o.isErr()) return err(o.error);
    const { owner } = o.value;
    if (owner.kind !== "project") return err(errors.notFound());
    const promoted = await promoteLabel(config, o.value.user, owner, labelRef);
    if (promoted.isErr()) return err(promoted.error);
    return ok(await one(o.value.user, await labelOwner(config, { group: promoted.value.group }), promoted.value.label));
  };
  const promoteRoutes =
    kind === "project"
      ? [
          defineRoute({
            method: "PUT",
            path: `${base}/:label_id/promote`,
            auth: AUTH,
            summary: "Promote a project label to a group label",
            schema: z.object({ id: p.id(), label_id: p.string() }),
            handler: ({ identity, params }) => respond(() => promote(identity.user, params.id, params.label_id)),
          }),
          defineRoute({
            method: "PUT",
            path: `${base}/promote`,
            auth: AUTH,
            summary: "Promote a project label to a group label (deprecated: the label by `name`)",
            schema: z.object({ id: p.id(), name: p.string() }),
            handler: ({ identity, params }) => respond(() => promote(identity.user, params.id, params.name)),
          }),
        ]
      : [];

  const subscription = (action: "subscribe" | "unsubscribe") =>
    defineRoute({
      method: "POST",
      path: `${base}/:label_id/${action}`,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.string() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const o = await labelFor(identity.user, params.id, params.label_id, false);
          if (o.isErr()) return err(o.error);
          const { user, owner, label } = o.value;
          const changed = action === "subscribe" ? await store.labels.subscribe(label.id, user.id) : await store.labels.unsubscribe(label.id, user.id);
          // Reference `not_modified!` when the subscription already was as asked.
          return ok(changed ? await one(user, owner, label, 201) : { status: 304 });
        }),
    });

  return tagRoutes(kind === "project" ? "Labels" : "Group labels", [
    defineRoute({
      method: "GET",
      path: base,
      auth: AUTH,
      schema: z.object({ ...PAGINATION_PARAMS, id: p.id(), with_counts: p.bool().optional(), include_ancestor_groups: p.bool().optional(), search: p.string().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const o = await projectFor(identity.user, params.id, false);
          if (o.isErr()) return err(o.error);
          const search = params.search === undefined || params.search === "" ? {} : { search: params.search };
          const { owner } = o.value;
          const own = owner.kind === "project" ? { projectId: owner.project.id, groupIds: [] as number[] } : { groupIds: [owner.group.id] };
          const groupIds = [...own.groupIds, ...(params.include_ancestor_groups === false ? [] : owner.groupIds)];
          const listed = await store.labels.list({ ...own, groupIds, ...search }, page.value);
          const body = await renderLabels(config, o.value.owner, o.value.user, listed.items, params.with_counts === true);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${base}/:label_id`,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.string(), include_ancestor_groups: p.bool().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const o = await labelFor(identity.user, params.id, params.label_id, false, params.include_ancestor_groups ?? true);
          return o.isErr() ? err(o.error) : ok(await one(o.value.user, o.value.owner, o.value.label));
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      schema: z.object({ id: p.id(), name: p.string(), color: p.string(), description: p.string().optional(), priority: z.unknown().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const priority = kind === "project" ? priorityParam(params.priority) : ok(undefined);
          if (priority.isErr()) return err(priority.error);
          const o = await projectFor(identity.user, params.id, true);
          if (o.isErr()) return err(o.error);
          const checked = checkLabel({ name: params.name, color: params.color, ...(params.description === undefined ? {} : { description: params.description }) });
          if (checked.isErr()) return err(checked.error);
          const { name = "", color = "", description = "" } = checked.value;
          const { owner } = o.value;
          const created = await store.transaction(async (tx) => {
            if (owner.kind === "group") return tx.labels.createGroupLabel({ groupId: owner.group.id, name, color, description }, clock.now());
            const projectId = owner.project.id;
            const label = await tx.imports.labels.create({ projectId, name, color, description }, clock.now());
            if (label !== null && priority.value !== undefined) await tx.labels.setPriority(projectId, label.id, priority.value);
            return label;
          });
          if (created === null) return err(errors.conflict("Label already exists"));
          return ok(await one(o.value.user, o.value.owner, created, 201));
        }),
    }),
    defineRoute({
      method: "PUT",
      path: base,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.recordId().optional(), name: p.string().optional(), ...EDIT }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const ref = eitherRef(params);
          return ref.isErr() ? err(ref.error) : update(identity.user, params.id, ref.value, params);
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: base,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.recordId().optional(), name: p.string().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const ref = eitherRef(params);
          return ref.isErr() ? err(ref.error) : remove(identity.user, params.id, ref.value);
        }),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/:label_id`,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.string(), ...EDIT }),
      handler: ({ identity, params }) => respond(() => update(identity.user, params.id, params.label_id, params)),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/:label_id`,
      auth: AUTH,
      schema: z.object({ id: p.id(), label_id: p.string() }),
      handler: ({ identity, params }) => respond(() => remove(identity.user, params.id, params.label_id)),
    }),
    subscription("subscribe"),
    subscription("unsubscribe"),
    ...promoteRoutes,
  ]);
}
