/**
 * The hook routes of one scope (reference `lib/api/project_hooks.rb`, `group_hooks.rb` via
 * `Hooks::*` shared helpers, `system_hooks.rb`): list, show, add, edit, delete, the delivery log
 * (`…/events`, the last 7 days) and the test call. Who owns the hooks and who may manage them is
 * decided by `owner` (Maintainer+ for projects, Owner for groups on premium, administrators for
 * system hooks).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { pagedList } from "../../http/paged-list.js";
import { offsetPage } from "../../http/pagination-offset.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, PAGINATION_PARAMS, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { Params, RouteContext, RouteResult } from "../../http/types.js";
import type { HookOwner } from "../../ports/webhooks-store.js";
import { hookEntity, hookLogEntity } from "../entities.js";
import { DELIVERY_LOG_DAYS, type WebHooksService } from "../service.js";
import type { HookTester } from "../test-hook.js";
import { hookAttributes, hookInput, systemHookAttributes } from "./params.js";

/** Resolves the owner of `:id` for the caller, with the permission checked. */
export type OwnerResolver = (ctx: Pick<RouteContext, "identity">, params: { id?: number | string }) => Promise<Result<HookOwner, ForgekitError>>;

/** What one scope's routes are built from. */
export interface HookRouteDeps {
  config: ForgekitConfig;
  webHooks: WebHooksService;
  tester: HookTester;
  /** `/projects/:id/hooks`, `/groups/:id/hooks` or `/hooks`. */
  base: string;
  owner: OwnerResolver;
}

const AUTH = { mode: "required" } as const;
const STATUS_RANGES: Record<string, { from: number; to: number }> = {
  successful: { from: 200, to: 299 },
  client_failure: { from: 400, to: 499 },
  server_failure: { from: 500, to: 599 },
};

/** Builds the routes of one scope. */
export function hookRoutes(deps: HookRouteDeps): AnyRoute[] {
  const { config, webHooks, tester, base, owner } = deps;
  const system = base === "/hooks";
  const idParam = system ? {} : { id: p.id() };
  const hookIdName = system ? "id" : "hook_id";
  const hookPath = system ? `${base}/:id` : `${base}/:hook_id`;
  const attributes = system ? systemHookAttributes : hookAttributes;
  const hookIdOf = (params: Record<string, unknown>) => params[hookIdName] as number;
  const now = () => config.clock.now();
  /** Runs `fn` with the owner once the caller may manage its hooks. */
  const withOwner = (ctx: Pick<RouteContext, "identity">, params: { id?: unknown }, fn: (owner: HookOwner) => Promise<Result<RouteResult, ForgekitError>>) =>
    respond(async () => {
      const resolved = await owner(ctx, params as { id?: number | string });
      return resolved.isErr() ? err(resolved.error) : fn(resolved.value);
    });
  const hookIdSchema = { ...idParam, [hookIdName]: p.recordId() };

  const testRoute = () =>
    defineRoute({
        method: "POST",
        path: `${hookPath}/test/:trigger`,
        auth: AUTH,
        schema: z.object({ ...hookIdSchema, trigger: p.string() }),
        handler: (ctx) =>
          withOwner(ctx, ctx.params, async (o) => {
            const hook = await webHooks.find(o, hookIdOf(ctx.params));
            if (hook.isErr()) return err(hook.error);
            const trigger = ctx.params.trigger;
            return tester.test(hook.value, trigger, ctx.identity.user);
          }),
      });

  const systemTestRoute = () =>
    defineRoute({
      method: "POST",
      path: hookPath,
      auth: AUTH,
      schema: z.object(hookIdSchema),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const hook = await webHooks.find(o, hookIdOf(ctx.params));
          return hook.isErr() ? err(hook.error) : tester.testSystem(hook.value);
        }),
    });

  return [
    defineRoute({
      method: "GET",
      path: base,
      auth: AUTH,
      schema: z.object({ ...idParam, ...PAGINATION_PARAMS }),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const hooks = await webHooks.list(o);
          if (hooks.isErr()) return err(hooks.error);
          const at = now();
          return pagedList(config.baseUrl, ctx.request, ctx.params as Params, hooks.value, (hook) => hookEntity(hook, at));
        }),
    }),
    defineRoute({
      method: "GET",
      path: hookPath,
      auth: AUTH,
      schema: z.object(hookIdSchema),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const hook = await webHooks.find(o, hookIdOf(ctx.params));
          return hook.isErr() ? err(hook.error) : ok({ body: hookEntity(hook.value, now()) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      schema: z.object({ ...idParam, ...attributes }),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          if (ctx.params.url === undefined) return err(errors.missingParam("url"));
          const hook = await webHooks.add(o, hookInput(ctx.params));
          return hook.isErr() ? err(hook.error) : ok({ status: 201, body: hookEntity(hook.value, now()) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: hookPath,
      auth: AUTH,
      schema: z.object({ ...hookIdSchema, ...attributes }),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const hook = await webHooks.edit(o, hookIdOf(ctx.params), hookInput(ctx.params));
          return hook.isErr() ? err(hook.error) : ok({ body: hookEntity(hook.value, now()) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: hookPath,
      auth: AUTH,
      schema: z.object(hookIdSchema),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const removed = await webHooks.remove(o, hookIdOf(ctx.params));
          return removed.isErr() ? err(removed.error) : ok({ status: 204 });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${hookPath}/events`,
      auth: AUTH,
      schema: z.object({ ...hookIdSchema, status: p.string().optional(), ...PAGINATION_PARAMS }),
      handler: (ctx) =>
        withOwner(ctx, ctx.params, async (o) => {
          const hook = await webHooks.find(o, hookIdOf(ctx.params));
          if (hook.isErr()) return err(hook.error);
          const status = ctx.params.status;
          let range: { from: number; to: number } | undefined;
          if (status !== undefined) {
            range = STATUS_RANGES[status] ?? (/^[1-5]\d\d$/.test(status) ? { from: Number(status), to: Number(status) } : undefined);
            if (range === undefined) return err(errors.invalidParam("status", "does not have a valid value"));
          }
          const page = offsetPage(ctx.params as Params);
          if (page.isErr()) return err(page.error);
          const since = new Date(now().getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60_000);
          const logs = await config.store.webHooks.listLogs(hook.value.id, { since, ...(range === undefined ? {} : { status: range }) }, page.value);
          return ok({ body: logs.items.map(hookLogEntity), headers: listHeaders(config.baseUrl, ctx.request, page.value, logs) });
        }),
    }),
    // System hooks: `POST /hooks/:id` sends the reference's fixed sample (test-hook.ts).
    system ? systemTestRoute() : testRoute(),
  ];
}
