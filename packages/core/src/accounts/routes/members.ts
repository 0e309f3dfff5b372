/**
 * Members of projects and groups (reference `lib/api/members.rb`, `Members::*Service`, the member
 * policies): list, `all` (with members inherited from ancestor groups, each user once at their
 * highest level), show, add, edit, remove. Every route needs a signed-in caller; an invisible
 * project or group is 404. Managing members needs Maintainer on a project or Owner of a group;
 * only an Owner (or administrator) grants, changes or removes Owner access, and a group always
 * keeps an Owner. Anyone may leave (remove their own membership) unless they are its last Owner.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { errors, type ForgekitError } from "../../errors.js";
import { offsetHeaders } from "../../http/pagination-offset.js";
import { p } from "../../http/params.js";
import { parseQuery } from "../../http/query.js";
import { noneGiven } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { HttpRequest, RouteResult } from "../../http/types.js";
import type { OffsetPageRequest } from "../../ports/pagination.js";
import { memberEntity, type MemberView } from "../entities/members.js";
import { isUnexpired, type MemberTarget } from "../members.js";
import { AccessLevel, type Membership, type User } from "../types.js";
import { seenGroup, seenProject } from "./containers.js";
import { defineRoute, offsetOnly, PAGINATION_PARAMS, readPage, respond, type AccountsRouteDeps } from "./kit.js";

type Kind = "project" | "group";

const AUTH = { mode: "required" as const };

/** Reference `expires_at` validation: a membership cannot expire on a past day. */
const PAST = "cannot be a date in the past";

/** `user_ids=1,2` or `user_ids[]=1&user_ids[]=2`. */
const userIds = p.raw().optional();

function readUserIds(value: unknown): Result<number[] | undefined, ForgekitError> {
  if (value === undefined) return ok(undefined);
  const parts: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
  const out: number[] = [];
  for (const part of parts) {
    const text = typeof part === "string" ? part.trim() : "";
    if (!/^\d{1,15}$/.test(text)) return err(errors.invalidParam("user_ids"));
    out.push(Number(text));
  }
  return ok(out);
}

/** Builds the member routes of projects and groups. */
export function memberRoutes(deps: AccountsRouteDeps): AnyRoute[] {
  return [...routesOf("project", deps), ...routesOf("group", deps)];
}

function routesOf(kind: Kind, { config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;
  const base = kind === "project" ? "/projects/:id/members" : "/groups/:id/members";
  const sourceType: MemberTarget["sourceType"] = kind === "project" ? "project" : "namespace";
  const managerLevel = kind === "project" ? AccessLevel.Maintainer : AccessLevel.Owner;

  /** The source the caller sees (404 otherwise), with the caller's level and the namespaces whose members it inherits. */
  const source = async (user: User | null, ref: number | string, atLeast = 0) => {
    const now = clock.now();
    if (kind === "project") {
      const seen = await seenProject(store, user, ref, now, atLeast);
      return seen.map(({ project, level }) => ({ target: { sourceType, sourceId: project.id }, level, namespaceId: project.namespaceId }));
    }
    const seen = await seenGroup(store, user, ref, now, atLeast);
    return seen.map(({ group, level }) => ({ target: { sourceType, sourceId: group.id }, level, namespaceId: group.parentId }));
  };

  /** Unexpired direct members of the source, with their users, in membership order. */
  const direct = async (target: MemberTarget): Promise<{ membership: Membership; view: MemberView }[]> => {
    const now = clock.now();
    const rows = await store.members.listBySource(target.sourceType, target.sourceId, now);
    const users = new Map((await store.users.findByIds(rows.map((m) => m.userId))).map((u) => [u.id, u]));
    return rows.flatMap((membership) => {
      const user = users.get(membership.userId);
      return user === undefined ? [] : [{ membership, view: { user, accessLevel: membership.accessLevel, createdAt: membership.createdAt, expiresAt: membership.expiresAt } }];
    });
  };

  /**
   * Direct and inherited members (reference `members/all`): the source's own, then each ancestor
   * group's; a personal project's namespace owner counts as its Owner. Each user once, at their
   * highest level.
   */
  const all = async (target: MemberTarget, namespaceId: number | null): Promise<MemberView[]> => {
    const best = new Map<number, MemberView>();
    const offer = (view: MemberView) => {
      const seen = best.get(view.user.id);
      if (seen === undefined || view.accessLevel > seen.accessLevel) best.set(view.user.id, view);
    };
    for (const { view } of await direct(target)) offer(view);
    if (namespaceId !== null) {
      const namespace = await store.namespaces.findById(namespaceId);
      if (namespace?.kind === "user" && namespace.ownerId !== null) {
        const owner = await store.users.findById(namespace.ownerId);
        if (owner !== null) offer({ user: owner, accessLevel: AccessLevel.Owner, createdAt: namespace.createdAt, expiresAt: null });
      } else if (namespace !== null) {
        const chain = [namespace, ...(await store.namespaces.ancestors(namespace.id))];
        for (const group of chain) for (const { view } of await direct({ sourceType: "namespace", sourceId: group.id })) offer(view);
      }
    }
    return [...best.values()].sort((a, b) => a.user.id - b.user.id);
  };

  /** Whether `userId` is the group's only unexpired Owner, counting Owners inherited from ancestors (reference `last_owner?`). */
  const lastOwner = async (target: MemberTarget, userId: number, parentId: number | null): Promise<boolean> => {
    if (kind !== "group") return false;
    const owners = (await all(target, parentId)).filter((m) => m.accessLevel === AccessLevel.Owner);
    return owners.length === 1 && owners[0]?.user.id === userId;
  };

  const page = (views: MemberView[], pageRequest: OffsetPageRequest, request: HttpRequest): RouteResult => {
    const start = (pageRequest.page - 1) * pageRequest.perPage;
    const items = views.slice(start, start + pageRequest.perPage);
    const result = { items, total: views.length, hasNext: start + pageRequest.perPage < views.length };
    return { body: items.map((m) => memberEntity(m, baseUrl)), headers: offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), pageRequest, result) };
  };

  const filtered = (views: MemberView[], query: string | undefined, ids: number[] | undefined) => {
    const needle = query?.toLowerCase();
    return views.filter(
      (m) => (needle === undefined || m.user.username.toLowerCase().includes(needle) || m.user.name.toLowerCase().includes(needle)) && (ids === undefined || ids.includes(m.user.id)),
    );
  };

  const expiry = (value: string | undefined): Result<Date | null | undefined, ForgekitError> => {
    if (value === undefined) return ok(undefined);
    if (value === "") return ok(null);
    const date = new Date(`${value.slice(0, 10)}T00:00:00.000Z`);
    const today = clock.now().toISOString().slice(0, 10);
    return value.slice(0, 10) <= today ? err(errors.validation({ expires_at: [PAST] })) : ok(date);
  };

  const listSchema = z.object({ ...PAGINATION_PARAMS, id: p.id(), query: p.string().optional(), user_ids: userIds });
  const list = (path: string, inherited: boolean) =>
    defineRoute({
      method: "GET",
      path,
      ...(inherited ? { summary: "List direct and inherited members" } : {}),
      auth: AUTH,
      schema: listSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const found = await source(identity.user, params.id);
          if (found.isErr()) return err(found.error);
          const ids = readUserIds(params.user_ids);
          if (ids.isErr()) return err(ids.error);
          const pageRequest = offsetOnly(readPage(params, null));
          if (pageRequest.isErr()) return err(pageRequest.error);
          const views = inherited ? await all(found.value.target, found.value.namespaceId) : (await direct(found.value.target)).map((m) => m.view);
          return ok(page(filtered(views, params.query, ids.value), pageRequest.value, request));
        }),
    });

  const show = (path: string, inherited: boolean) =>
    defineRoute({
      method: "GET",
      path,
      ...(inherited ? { summary: "Get a direct or inherited member" } : {}),
      auth: AUTH,
      schema: z.object({ id: p.id(), user_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await source(identity.user, params.id);
          if (found.isErr()) return err(found.error);
          const views = inherited ? await all(found.value.target, found.value.namespaceId) : (await direct(found.value.target)).map((m) => m.view);
          const member = views.find((m) => m.user.id === params.user_id);
          return member === undefined ? err(errors.recordNotFound()) : ok({ body: memberEntity(member, baseUrl) });
        }),
    });

  return [
    list(base, false),
    list(`${base}/all`, true),
    show(`${base}/all/:user_id`, true),
    show(`${base}/:user_id`, false),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      // The new member by `user_id` or by `username` (reference: `mutually_exclusive`, `at_least_one_of`).
      schema: z.object({ id: p.id(), user_id: p.recordId().optional(), username: p.string().optional(), access_level: p.int(), expires_at: p.string().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const missing = noneGiven(params, ["user_id", "username"]);
          if (missing !== null) return err(missing);
          if (params.user_id !== undefined && params.username !== undefined) return err(errors.invalidParam("user_id, username", "are mutually exclusive"));
          const user = identity.user;
          const found = await source(user, params.id, managerLevel);
          if (found.isErr()) return err(found.error);
          const { target, level } = found.value;
          const member = params.user_id !== undefined ? await store.users.findById(params.user_id) : await store.users.findByUsername(params.username ?? "");
          if (member === null) return err(errors.notFound("User"));
          const existing = await store.members.find(target.sourceType, target.sourceId, member.id);
          if (existing !== null && isUnexpired(existing, clock.now())) return err(errors.conflict("Member already exists"));
          // Nobody grants more than they hold: Owner access only by an Owner (reference `Members::CreateService`).
          if (params.access_level > level) return err(errors.forbidden());
          const expiresAt = expiry(params.expires_at);
          if (expiresAt.isErr()) return err(expiresAt.error);
          const added = await services.members.add({ ...target, userId: member.id, accessLevel: params.access_level, expiresAt: expiresAt.value ?? null });
          if (added.isErr()) return err(added.error);
          const m = added.value;
          return ok({ status: 201, body: memberEntity({ user: member, accessLevel: m.accessLevel, createdAt: m.createdAt, expiresAt: m.expiresAt }, baseUrl) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/:user_id`,
      auth: AUTH,
      schema: z.object({ id: p.id(), user_id: p.recordId(), access_level: p.int(), expires_at: p.string().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await source(identity.user, params.id, managerLevel);
          if (found.isErr()) return err(found.error);
          const { target, level, namespaceId } = found.value;
          const current = await store.members.find(target.sourceType, target.sourceId, params.user_id);
          if (current === null) return err(errors.recordNotFound());
          // Owner access is granted, changed and taken away by Owners only; a group keeps an Owner.
          if ((params.access_level > level || current.accessLevel > level) && level < AccessLevel.Owner) return err(errors.forbidden());
          if (current.accessLevel === AccessLevel.Owner && params.access_level < AccessLevel.Owner && (await lastOwner(target, current.userId, namespaceId))) return err(errors.forbidden());
          const expiresAt = expiry(params.expires_at);
          if (expiresAt.isErr()) return err(expiresAt.error);
          const updated = await services.members.update(target, current.userId, params.access_level, expiresAt.value);
          if (updated.isErr()) return err(updated.error);
          const row = updated.value;
          const member = await store.users.findById(row.userId);
          if (member === null) return err(errors.recordNotFound());
          return ok({ body: memberEntity({ user: member, accessLevel: row.accessLevel, createdAt: row.createdAt, expiresAt: row.expiresAt }, baseUrl) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/:user_id`,
      auth: AUTH,
      schema: z.object({ id: p.id(), user_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          const found = await source(user, params.id);
          if (found.isErr()) return err(found.error);
          const { target, level, namespaceId } = found.value;
          const current = await store.members.find(target.sourceType, target.sourceId, params.user_id);
          if (current === null) return err(errors.recordNotFound());
          const leaving = user !== null && current.userId === user.id;
          if (!leaving && (level < managerLevel || (current.accessLevel === AccessLevel.Owner && level < AccessLevel.Owner))) return err(errors.forbidden());
          if (current.accessLevel === AccessLevel.Owner && (await lastOwner(target, current.userId, namespaceId))) return err(errors.forbidden());
          return (await services.members.remove(target, current.userId)).map(() => ({ status: 204 }));
        }),
    }),
  ];
}
