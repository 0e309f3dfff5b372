/**
 * Project and group access tokens (reference `lib/api/resource_access_tokens.rb`): list, show,
 * create (a bot user with a membership at `access_level`, default Maintainer), revoke, rotate, and
 * self-rotation. Managing them needs Maintainer on the project or Owner of the group (or an
 * administrator); an invisible project or group is 404, a visible one without that role 403.
 * Bot users cannot manage tokens, and nobody creates a token above their own level.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { canReadGroup, canReadProject, groupAccess, projectAccess } from "../../access/permissions.js";
import type { Identity } from "../../auth/identity.js";
import { TOKEN_SCOPES } from "../../auth/scopes.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { isGroup } from "../groups.js";
import { resourceAccessTokenEntity, resourceAccessTokenWithToken } from "../entities/tokens.js";
import { AccessLevel, type AccessToken, type User } from "../types.js";
import { isMemberLevel } from "../validation.js";
import { readScopes } from "./impersonation-tokens.js";
import { defineRoute, respond, type AccountsRouteDeps } from "./kit.js";
import { matchesFilters, pageOfTokens, TOKEN_FILTER_PARAMS } from "./token-lists.js";

/** Scopes a bot token may carry (reference `resource_bot_scopes`: no sudo, admin_mode or read_user). */
export const RESOURCE_TOKEN_SCOPES: readonly string[] = TOKEN_SCOPES.filter((s) => s !== "sudo" && s !== "admin_mode" && s !== "read_user");

type Kind = "project" | "group";

interface Resource {
  kind: Kind;
  id: number;
}

const AUTH = { mode: "required" as const };
const idParam = { id: p.id() };
const tokenParams = { ...idParam, token_id: p.recordId() };

/** Builds the routes of one resource kind. */
function routesOf(kind: Kind, { config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, clock } = config;
  const base = kind === "project" ? "/projects/:id/access_tokens" : "/groups/:id/access_tokens";
  const thing = kind === "project" ? "Project" : "Group";
  const managerLevel = kind === "project" ? AccessLevel.Maintainer : AccessLevel.Owner;

  /** The resource the caller sees, and the caller's level in it (administrators: Owner). */
  const resolve = async (user: User, ref: number | string): Promise<Result<{ resource: Resource; level: number }, ForgekitError>> => {
    const now = clock.now();
    if (kind === "project") {
      const project = typeof ref === "number" ? await store.projects.findById(ref) : ref.includes("/") ? await store.projects.findByFullPath(ref) : null;
      if (!project || !(await canReadProject(store, user, project, now))) return err(errors.notFound(thing));
      return ok({ resource: { kind, id: project.id }, level: user.admin ? AccessLevel.Owner : await projectAccess(store, user, project, now) });
    }
    const namespace = typeof ref === "number" ? await store.namespaces.findById(ref) : await store.namespaces.findByFullPath(ref);
    if (!isGroup(namespace) || !(await canReadGroup(store, user, namespace, now))) return err(errors.notFound(thing));
    return ok({ resource: { kind, id: namespace.id }, level: user.admin ? AccessLevel.Owner : await groupAccess(store, user, namespace, now) });
  };

  /** The resource when the caller may manage its tokens. */
  const managed = async (identity: Identity, ref: number | string): Promise<Result<{ resource: Resource; level: number; user: User }, ForgekitError>> => {
    const user = identity.user;
    if (!user) return err(errors.unauthorized());
    const found = await resolve(user, ref);
    if (found.isErr()) return err(found.error);
    if (user.bot !== null || found.value.level < managerLevel) return err(errors.forbidden());
    return ok({ ...found.value, user });
  };

  /** The resource's token, else 404 `<kind> Access Token Not Found` (reference wording, lower-case kind). */
  const tokenOf = async (resource: Resource, id: number): Promise<Result<AccessToken, ForgekitError>> => {
    const token = await store.accessTokens.findById(id);
    return token && token.kind === kind && token.resourceId === resource.id ? ok(token) : err(errors.notFound(`${kind} Access Token`));
  };

  /** The bot's level in the resource (0 when its membership is gone). */
  const botLevel = async (token: AccessToken): Promise<number> =>
    (await store.members.find(kind === "project" ? "project" : "namespace", token.resourceId ?? 0, token.userId))?.accessLevel ?? AccessLevel.NoAccess;

  const rotated = async (token: AccessToken, expiresAt: string | undefined) => {
    const level = await botLevel(token);
    const done = await services.tokens.rotate(token.id, expiresAt === undefined ? {} : { expiresAt });
    return done.map((created) => ({ status: 200, body: resourceAccessTokenWithToken(created.token, level, created.plaintext, clock.now()) }));
  };

  return [
    defineRoute({
      method: "GET",
      path: base,
      auth: AUTH,
      schema: z.object({ ...idParam, ...TOKEN_FILTER_PARAMS }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const found = await managed(identity, params.id);
          if (found.isErr()) return err(found.error);
          const now = clock.now();
          const tokens = (await store.accessTokens.list({ kind, resourceId: found.value.resource.id })).filter((t) => matchesFilters(t, params, now));
          const page = pageOfTokens(tokens, params, config.baseUrl, request);
          if (page.isErr()) return err(page.error);
          const body = [];
          for (const token of page.value.items) body.push(resourceAccessTokenEntity(token, await botLevel(token), now));
          return ok({ body, headers: page.value.headers });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${base}/:token_id`,
      auth: AUTH,
      schema: z.object(tokenParams),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await managed(identity, params.id);
          if (found.isErr()) return err(found.error);
          const token = await tokenOf(found.value.resource, params.token_id);
          if (token.isErr()) return err(token.error);
          return ok({ body: resourceAccessTokenEntity(token.value, await botLevel(token.value), clock.now()) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      schema: z.object({ ...idParam, name: p.string(), scopes: p.raw(), expires_at: p.date().optional(), access_level: p.int().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await managed(identity, params.id);
          if (found.isErr()) return err(found.error);
          const scopes = readScopes(params.scopes);
          if (scopes.isErr()) return err(scopes.error);
          if (scopes.value.length === 0) return err(errors.missingParam("scopes"));
          if (!scopes.value.every((s) => RESOURCE_TOKEN_SCOPES.includes(s))) return err(errors.invalidParam("scopes", "does not have a valid value"));
          const accessLevel = params.access_level ?? AccessLevel.Maintainer;
          if (!isMemberLevel(accessLevel)) return err(errors.invalidParam("access_level", "does not have a valid value"));
          if (accessLevel > found.value.level) {
            return err(errors.badRequest("The access level of the token cannot be greater than the access level of the user who creates it"));
          }
          const input = { name: params.name, scopes: scopes.value, expiresAt: params.expires_at ?? null, accessLevel };
          const resourceId = found.value.resource.id;
          const created = kind === "project" ? await services.tokens.createProjectToken(resourceId, input) : await services.tokens.createGroupToken(resourceId, input);
          return created.map(({ token, plaintext }) => ({ status: 201, body: resourceAccessTokenWithToken(token, accessLevel, plaintext, clock.now()) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/:token_id`,
      auth: AUTH,
      schema: z.object(tokenParams),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await managed(identity, params.id);
          if (found.isErr()) return err(found.error);
          const token = await tokenOf(found.value.resource, params.token_id);
          if (token.isErr()) return err(token.error);
          return (await services.tokens.revoke(token.value.id)).map(() => ({ status: 204 }));
        }),
    }),
    defineRoute({
      method: "POST",
      path: `${base}/self/rotate`,
      summary: "Rotate the token in use",
      auth: { mode: "required", extraScopes: [{ scope: "self_rotate" }] },
      schema: z.object({ ...idParam, expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          const token = identity.credential?.accessToken;
          if (!user) return err(errors.unauthorized());
          // Only a token of this very resource rotates itself here.
          const found = await resolve(user, params.id);
          if (found.isErr()) return err(found.error);
          if (!token || identity.sudoFrom !== undefined || token.kind !== kind || token.resourceId !== found.value.resource.id) return err(errors.notFound(`${kind} Access Token`));
          return rotated(token, params.expires_at);
        }),
    }),
    defineRoute({
      method: "POST",
      path: `${base}/:token_id/rotate`,
      auth: AUTH,
      schema: z.object({ ...tokenParams, expires_at: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await managed(identity, params.id);
          if (found.isErr()) return err(found.error);
          const token = await tokenOf(found.value.resource, params.token_id);
          if (token.isErr()) return err(token.error);
          if ((await botLevel(token.value)) > found.value.level) return err(errors.badRequest("Not eligible to rotate token with access level higher than the user"));
          return rotated(token.value, params.expires_at);
        }),
    }),
  ];
}

/** The project and group access token routes. */
export function resourceAccessTokenRoutes(deps: AccountsRouteDeps): AnyRoute[] {
  return [...routesOf("project", deps), ...routesOf("group", deps)];
}
