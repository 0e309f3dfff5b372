/**
 * `/projects/:id/protected_branches` and `/projects/:id/protected_tags` (reference
 * `lib/api/protected_branches.rb`, `protected_tags.rb`): list, show, protect, update (branches) and
 * unprotect, for Maintainers and administrators. `:name` may be a wildcard (`release/*`, sent as
 * `release%2F*`). `allowed_to_*` and `code_owner_approval_required` are premium (access/tier.ts).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { requireFeature } from "../../access/tier.js";
import type { ForgekitConfig } from "../../config.js";
import { pagedList } from "../../http/paged-list.js";
import { p } from "../../http/params.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { Params, RouteResult } from "../../http/types.js";
import type { User } from "../../accounts/types.js";
import type { ForgekitError } from "../../errors.js";
import type { NewProtectedRefAccess } from "../../ports/protected-refs-store.js";
import { protectedBranchEntity, protectedTagEntity } from "../entities.js";
import type { ProtectedRefsService } from "../service.js";
import type { ProtectedRef, ProtectedRefKind } from "../types.js";
import { allowedTo, roleLevel } from "./allowed-to.js";
import { accessNames, managedProject } from "./kit.js";

/** What the protected refs routes are built from. */
export interface ProtectedRefRouteDeps {
  config: ForgekitConfig;
  protectedRefs: ProtectedRefsService;
}

const pageParams = { page: z.unknown().optional(), per_page: z.unknown().optional() };
const AUTH = { mode: "required" } as const;

/** Builds the protected branch and tag routes. */
export function protectedRefRoutes({ config, protectedRefs }: ProtectedRefRouteDeps): AnyRoute[] {
  const { baseUrl, tier } = config;
  const render = async (kind: ProtectedRefKind, rules: ProtectedRef[]) => {
    const names = await accessNames(config, rules);
    return (rule: ProtectedRef) => (kind === "branch" ? protectedBranchEntity(rule, names) : protectedTagEntity(rule, names));
  };
  const one = async (kind: ProtectedRefKind, rule: ProtectedRef) => (await render(kind, [rule]))(rule);
  /** Runs `fn` on the id of the project of `:id` once the caller may manage its rules. */
  const onRule = (user: User | null, params: { id: number | string }, fn: (projectId: number) => Promise<Result<RouteResult, ForgekitError>>) =>
    respond(async () => {
      const project = await managedProject(config, user, params.id);
      return project.isErr() ? err(project.error) : fn(project.value.id);
    });

  /** List, show and unprotect: the same for both kinds. */
  const common = (kind: ProtectedRefKind, collection: string): AnyRoute[] => [
    defineRoute({
      method: "GET",
      path: `/projects/:id/${collection}`,
      auth: AUTH,
      schema: z.object({ id: p.id(), search: p.string().optional(), ...pageParams }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const project = await managedProject(config, identity.user, params.id);
          if (project.isErr()) return err(project.error);
          const listed = await protectedRefs.list(project.value.id, kind);
          if (listed.isErr()) return err(listed.error);
          const search = params.search?.toLowerCase();
          const rules = search === undefined ? listed.value : listed.value.filter((rule) => rule.name.toLowerCase().includes(search));
          return pagedList(baseUrl, request, params as Params, rules, await render(kind, rules));
        }),
    }),
    defineRoute({
      method: "GET",
      path: `/projects/:id/${collection}/:name`,
      auth: AUTH,
      schema: z.object({ id: p.id(), name: p.string() }),
      handler: ({ identity, params }) =>
        onRule(identity.user, params, async (projectId) => {
          const found = await protectedRefs.find(projectId, kind, params.name);
          return found.isErr() ? err(found.error) : ok({ body: await one(kind, found.value) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `/projects/:id/${collection}/:name`,
      auth: AUTH,
      schema: z.object({ id: p.id(), name: p.string() }),
      handler: ({ identity, params }) =>
        onRule(identity.user, params, async (projectId) => {
          const removed = await protectedRefs.unprotect(projectId, kind, params.name);
          return removed.isErr() ? err(removed.error) : ok({ status: 204 });
        }),
    }),
  ];

  return [
    ...common("branch", "protected_branches"),
    defineRoute({
      method: "POST",
      path: "/projects/:id/protected_branches",
      auth: AUTH,
      schema: z.object({
        id: p.id(),
        name: p.string(),
        push_access_level: p.int().optional(),
        merge_access_level: p.int().optional(),
        unprotect_access_level: p.int().optional(),
        allow_force_push: p.bool().optional(),
        code_owner_approval_required: p.bool().optional(),
        allowed_to_push: p.raw().optional(),
        allowed_to_merge: p.raw().optional(),
        allowed_to_unprotect: p.raw().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const project = await managedProject(config, identity.user, params.id);
          if (project.isErr()) return err(project.error);
          if (params.allowed_to_push !== undefined || params.allowed_to_merge !== undefined || params.allowed_to_unprotect !== undefined) {
            const gate = requireFeature(tier, "protectedBranchAllowedTo");
            if (gate.isErr()) return err(gate.error);
          }
          if (params.code_owner_approval_required === true) {
            const gate = requireFeature(tier, "codeOwnerApproval");
            if (gate.isErr()) return err(gate.error);
          }
          const rows: NewProtectedRefAccess[] = [];
          for (const [action, level, allowed] of [
            ["push", params.push_access_level, params.allowed_to_push],
            ["merge", params.merge_access_level, params.allowed_to_merge],
            ["unprotect", params.unprotect_access_level, params.allowed_to_unprotect],
          ] as const) {
            const role = roleLevel(`${action}_access_level`, level, 40);
            if (role.isErr()) return err(role.error);
            const extra = await allowedTo(config, `allowed_to_${action}`, action, allowed);
            if (extra.isErr()) return err(extra.error);
            // Reference: the role row is kept unless allowed_to_* replaces it and no level was sent.
            if (level !== undefined || extra.value.length === 0) rows.push({ action, accessLevel: role.value });
            rows.push(...extra.value);
          }
          const created = await protectedRefs.protect({
            projectId: project.value.id,
            kind: "branch",
            name: params.name,
            allowForcePush: params.allow_force_push ?? false,
            codeOwnerApprovalRequired: params.code_owner_approval_required ?? false,
            accessLevels: rows,
          });
          return created.isErr() ? err(created.error) : ok({ status: 201, body: await one("branch", created.value) });
        }),
    }),
    defineRoute({
      method: "PATCH",
      path: "/projects/:id/protected_branches/:name",
      auth: AUTH,
      schema: z.object({ id: p.id(), name: p.string(), allow_force_push: p.bool().optional(), code_owner_approval_required: p.bool().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const project = await managedProject(config, identity.user, params.id);
          if (project.isErr()) return err(project.error);
          if (params.code_owner_approval_required !== undefined) {
            const gate = requireFeature(tier, "codeOwnerApproval");
            if (gate.isErr()) return err(gate.error);
          }
          const patch = {
            ...(params.allow_force_push === undefined ? {} : { allowForcePush: params.allow_force_push }),
            ...(params.code_owner_approval_required === undefined ? {} : { codeOwnerApprovalRequired: params.code_owner_approval_required }),
          };
          const updated = await protectedRefs.update(project.value.id, "branch", params.name, patch);
          return updated.isErr() ? err(updated.error) : ok({ body: await one("branch", updated.value) });
        }),
    }),
    ...common("tag", "protected_tags"),
    defineRoute({
      method: "POST",
      path: "/projects/:id/protected_tags",
      auth: AUTH,
      schema: z.object({ id: p.id(), name: p.string(), create_access_level: p.int().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const project = await managedProject(config, identity.user, params.id);
          if (project.isErr()) return err(project.error);
          const role = roleLevel("create_access_level", params.create_access_level, 40);
          if (role.isErr()) return err(role.error);
          const created = await protectedRefs.protect({ projectId: project.value.id, kind: "tag", name: params.name, accessLevels: [{ action: "create", accessLevel: role.value }] });
          return created.isErr() ? err(created.error) : ok({ status: 201, body: await one("tag", created.value) });
        }),
    }),
  ];
}
