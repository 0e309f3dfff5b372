/**
 * Personal access tokens (reference `lib/api/personal_access_tokens.rb` and its `self_*` classes,
 * `lib/api/users.rb` for creation): administrators see and manage every token, other users their
 * own personal tokens; someone else's token is answered 404, like any record the caller may not see.
 * A created or rotated token carries its plaintext in `token` in that response only.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import type { Identity } from "../../auth/identity.js";
import { TOKEN_SCOPES } from "../../auth/scopes.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { ParamValue } from "../../http/types.js";
import { personalAccessTokenEntity, personalAccessTokenWithToken } from "../entities/tokens.js";
import type { AccessToken, User } from "../types.js";
import { readScopes, requireAdmin } from "./impersonation-tokens.js";
import { defineRoute, READ_USER, respond, type AccountsRouteDeps } from "./kit.js";
import { matchesFilters, pageOfTokens, TOKEN_FILTER_PARAMS } from "./token-lists.js";

/** The `self` routes accept a token of any scope: every token may see and revoke itself (reference). */
const ANY_SCOPE = { mode: "required" as const, extraScopes: TOKEN_SCOPES.map((scope) => ({ scope })) };
/** Self-rotation: `api` or `self_rotate`. */
const SELF_ROTATE = { mode: "required" as const, extraScopes: [{ scope: "self_rotate" }] };
const AUTH = { mode: "required" as const };

/** Scopes a user may give the tokens they create for themselves through the API (reference: Kubernetes agent access only). */
export const SELF_SERVICE_SCOPES = ["k8s_proxy"] as const;

const rawScopes = p.raw();

/** Builds the personal access token routes. */
export function personalAccessTokenRoutes({ config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, clock, baseUrl } = config;

  const signedIn = (identity: Identity): Result<User, ForgekitError> => (identity.user ? ok(identity.user) : err(errors.unauthorized()));

  /** The token when the caller may manage it (administrators: any; others: their own personal tokens), else 404. */
  const manageable = async (identity: Identity, id: number): Promise<Result<AccessToken, ForgekitError>> => {
    const user = signedIn(identity);
    if (user.isErr()) return err(user.error);
    const token = await store.accessTokens.findById(id);
    if (!token) return err(errors.notFound());
    if (user.value.admin) return ok(token);
    return token.userId === user.value.id && token.kind === "personal" ? ok(token) : err(errors.notFound());
  };

  /** The access token the request authenticated with, else 404 (an OAuth token or a session is no access token). */
  const current = (identity: Identity): Result<AccessToken, ForgekitError> => {
    if (!identity.user) return err(errors.unauthorized());
    const token = identity.credential?.accessToken;
    // Under sudo the token is the administrator's, not the target's: `self` means the caller's own token.
    return token && identity.sudoFrom === undefined ? ok(token) : err(errors.notFound());
  };

  const rotate = async (token: AccessToken, expiresAt: string | undefined) => {
    const rotated = await services.tokens.rotate(token.id, expiresAt === undefined ? {} : { expiresAt });
    return rotated.map((created) => ({ status: 200, body: personalAccessTokenWithToken(created.token, created.plaintext, clock.now()) }));
  };

  const createFor = async (userId: number, params: { name: string; scopes?: ParamValue; expires_at?: string | undefined }, allowed: readonly string[] | null, defaultExpiry: string | null) => {
    const scopes = readScopes(params.scopes);
    if (scopes.isErr()) return err(scopes.error);
    if (scopes.value.length === 0) return err(errors.missingParam("scopes"));
    if (allowed !== null && !scopes.value.every((s) => allowed.includes(s))) return err(errors.invalidParam("scopes", "does not have a valid value"));
    const created = await services.tokens.createPersonal(userId, { name: params.name, scopes: scopes.value, expiresAt: params.expires_at ?? defaultExpiry });
    return created.map(({ token, plaintext }) => ({ status: 201, body: personalAccessTokenWithToken(token, plaintext, clock.now()) }));
  };

  return [
    defineRoute({
      method: "GET",
      path: "/personal_access_tokens",
      auth: AUTH,
      schema: z.object({ ...TOKEN_FILTER_PARAMS, user_id: p.recordId().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const user = signedIn(identity);
          if (user.isErr()) return err(user.error);
          const now = clock.now();
          let tokens: AccessToken[];
          if (user.value.admin) {
            if (params.user_id !== undefined && !(await store.users.findById(params.user_id))) return err(errors.notFound());
            tokens = await store.accessTokens.list(params.user_id === undefined ? {} : { userId: params.user_id });
          } else {
            // Reference `restrict_non_admins!`: another user's id is 401.
            if (params.user_id !== undefined && params.user_id !== user.value.id) return err(errors.unauthorized());
            tokens = await store.accessTokens.list({ userId: user.value.id, kind: "personal" });
          }
          const page = pageOfTokens(
            tokens.filter((t) => matchesFilters(t, params, now)),
            params,
            baseUrl,
            request,
          );
          return page.map(({ items, headers }) => ({ body: items.map((t) => personalAccessTokenEntity(t, now)), headers }));
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/personal_access_tokens/self",
      summary: "Get the token in use",
      auth: ANY_SCOPE,
      handler: ({ identity }) => respond(async () => current(identity).map((token) => ({ body: personalAccessTokenEntity(token, clock.now()) }))),
    }),
    defineRoute({
      method: "DELETE",
      path: "/personal_access_tokens/self",
      summary: "Revoke the token in use",
      auth: ANY_SCOPE,
      handler: ({ identity }) =>
        respond(async () => {
          const token = current(identity);
          if (token.isErr()) return err(token.error);
          return (await services.tokens.revoke(token.value.id)).map(() => ({ status: 204 }));
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/personal_access_tokens/self/rotate",
      summary: "Rotate the token in use",
      auth: SELF_ROTATE,
      schema: z.object({ expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const token = current(identity);
          if (token.isErr()) return err(token.error);
          return rotate(token.value, params.expires_at);
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/personal_access_tokens/:id",
      auth: AUTH,
      schema: z.object({ id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => (await manageable(identity, params.id)).map((token) => ({ body: personalAccessTokenEntity(token, clock.now()) }))),
    }),
    defineRoute({
      method: "DELETE",
      path: "/personal_access_tokens/:id",
      auth: AUTH,
      schema: z.object({ id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const token = await manageable(identity, params.id);
          if (token.isErr()) return err(token.error);
          return (await services.tokens.revoke(token.value.id)).map(() => ({ status: 204 }));
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/personal_access_tokens/:id/rotate",
      auth: AUTH,
      schema: z.object({ id: p.recordId(), expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const token = await manageable(identity, params.id);
          if (token.isErr()) return err(token.error);
          return rotate(token.value, params.expires_at);
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/users/:id/personal_access_tokens",
      auth: { mode: "required", extraScopes: READ_USER },
      schema: z.object({ id: p.recordId(), name: p.string(), scopes: rawScopes, expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          if (!(await store.users.findById(params.id))) return err(errors.notFound("User"));
          return createFor(params.id, params, null, null);
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/user/personal_access_tokens",
      auth: { mode: "required", extraScopes: READ_USER },
      schema: z.object({ name: p.string(), scopes: rawScopes, expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = signedIn(identity);
          if (user.isErr()) return err(user.error);
          // Reference: such a token expires at the end of the day it was created on unless told otherwise.
          return createFor(user.value.id, params, SELF_SERVICE_SCOPES, clock.now().toISOString().slice(0, 10));
        }),
    }),
  ];
}
