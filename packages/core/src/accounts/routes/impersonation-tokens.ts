/**
 * Administrator-only impersonation tokens (reference `lib/api/users.rb`, resource
 * `:user_id/impersonation_tokens`, served as `/users/:id/impersonation_tokens`): anonymous → 401, non-admin → 403 `{"message":"403 Forbidden"}`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { ParamValue } from "../../http/types.js";
import type { Identity } from "../../auth/identity.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import { impersonationTokenEntity, impersonationTokenWithToken } from "../entities/tokens.js";
import type { AccessToken, User } from "../types.js";
import { defineRoute, listHeaders, PAGINATION_PARAMS, READ_USER, readPage, respond, type AccountsRouteDeps } from "./kit.js";

/** These routes belong to the reference's Users API, which also registers `read_user` for reads. */
const ADMIN_AUTH = { mode: "required" as const, extraScopes: READ_USER };

/** Reference `authenticated_as_admin!`. */
export function requireAdmin(identity: Identity): Result<User, ForgekitError> {
  if (identity.user === null) return err(errors.unauthorized());
  return identity.user.admin ? ok(identity.user) : err(errors.forbidden());
}

/** `scopes[]=a&scopes[]=b`, a JSON array, or `a,b` (reference `CommaSeparatedToArray`). */
export function readScopes(raw: ParamValue | undefined): Result<string[], ForgekitError> {
  if (raw === undefined || raw === null || raw === "") return ok([]);
  if (typeof raw === "string") return ok(raw.split(",").map((s) => s.trim()).filter((s) => s !== ""));
  if (Array.isArray(raw) && raw.every((s) => typeof s === "string")) return ok(raw.flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== ""));
  return err(errors.invalidParam("scopes"));
}

// The router shares one placeholder name per position, and `/users/:id` owns it: the user id is `id`.
const userParam = { id: p.recordId() };
const tokenParams = { ...userParam, impersonation_token_id: p.recordId() };

/** Builds the impersonation token routes. */
export function impersonationTokenRoutes({ config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, clock, baseUrl } = config;
  const BASE = "/users/:id/impersonation_tokens";

  /** Admin check, then the target user (404 `User Not Found`). */
  const target = async (identity: Identity, userId: number): Promise<Result<{ admin: User; user: User }, ForgekitError>> => {
    const admin = requireAdmin(identity);
    if (admin.isErr()) return err(admin.error);
    const user = await store.users.findById(userId);
    return user ? ok({ admin: admin.value, user }) : err(errors.notFound("User"));
  };

  /** The user's impersonation token, else 404 `Impersonation Token Not Found`. */
  const tokenOf = async (user: User, id: number): Promise<Result<AccessToken, ForgekitError>> => {
    const token = await store.accessTokens.findById(id);
    return token && token.userId === user.id && token.kind === "impersonation" ? ok(token) : err(errors.notFound("Impersonation Token"));
  };

  return [
    defineRoute({
      method: "GET",
      path: BASE,
      auth: ADMIN_AUTH,
      schema: z.object({ ...PAGINATION_PARAMS, ...userParam, state: p.enum(["all", "active", "inactive"]).optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          const page = readPage(params, null);
          if (page.isErr()) return err(page.error);
          if (page.value.kind !== "offset") return err(errors.internal(new Error("keyset page without keyset support")));
          const now = clock.now();
          const state = params.state === undefined || params.state === "all" ? {} : { state: params.state };
          const all = await store.accessTokens.list({ userId: who.value.user.id, kind: "impersonation", now, ...state });
          const { page: n, perPage } = page.value;
          const items = all.slice((n - 1) * perPage, n * perPage);
          const result = { items, total: all.length > TOTAL_COUNT_LIMIT ? null : all.length, hasNext: all.length > n * perPage };
          return ok({ body: items.map((t) => impersonationTokenEntity(t, now)), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: BASE,
      auth: ADMIN_AUTH,
      schema: z.object({
        ...userParam,
        name: p.string(),
        expires_at: p.date().optional(),
        scopes: p.raw().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          const scopes = readScopes(params.scopes);
          if (scopes.isErr()) return err(scopes.error);
          const created = await services.tokens.createImpersonation(who.value.admin, who.value.user.id, {
            name: params.name,
            scopes: scopes.value,
            expiresAt: params.expires_at ?? null,
          });
          if (created.isErr()) return err(created.error);
          return ok({ status: 201, body: impersonationTokenWithToken(created.value.token, created.value.plaintext, clock.now()) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${BASE}/:impersonation_token_id`,
      auth: ADMIN_AUTH,
      schema: z.object(tokenParams),
      handler: ({ identity, params }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          const token = await tokenOf(who.value.user, params.impersonation_token_id);
          return token.map((t) => ({ body: impersonationTokenEntity(t, clock.now()) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${BASE}/:impersonation_token_id`,
      auth: ADMIN_AUTH,
      schema: z.object(tokenParams),
      handler: ({ identity, params }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          const token = await tokenOf(who.value.user, params.impersonation_token_id);
          if (token.isErr()) return err(token.error);
          const revoked = await services.tokens.revoke(token.value.id);
          return revoked.map(() => ({ status: 204 }));
        }),
    }),
  ];
}
