/**
 * `GET` / `POST /oauth/userinfo` (OpenID Connect Core §5.3): the bearer token from the
 * `Authorization` header (RFC 6750 §2.1) or, on POST, from a form body; claims from the accounts
 * store — profile, primary email, and the full paths of the groups the user belongs to.
 */
import { AccessLevel, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import type { HttpRequest } from "../../http/types.js";
import { readOAuthForm } from "../form.js";
import { authorizeUserinfo } from "../introspect.js";
import { oauthJson, renderOAuthError } from "../render.js";
import { buildUserinfoClaims, type UserinfoProfile } from "../userinfo.js";
import { oauthErrors } from "../errors.js";
import type { OAuthEndpoint, OAuthRouteContext } from "./context.js";

/** At most this many groups are listed in `groups` (pages of 100). */
export const MAX_USERINFO_GROUPS = 1000;

/** Full paths of the groups the user is a direct or inherited member of, sorted by full path. */
async function memberGroups(config: Pick<ForgekitConfig, "store">, user: User, now: Date): Promise<string[]> {
  const paths: string[] = [];
  // A plain viewer: administrators' lists include every group, membership is what counts here.
  const filter = { viewer: { userId: user.id, admin: false }, now, minAccessLevel: AccessLevel.Guest, orderBy: "path" as const };
  for (let page = 1; paths.length < MAX_USERINFO_GROUPS; page += 1) {
    const result = await config.store.namespaces.listGroups(filter, { kind: "offset", page, perPage: 100 });
    paths.push(...result.items.map((g) => g.fullPath));
    if (!("hasNext" in result) || !result.hasNext) break;
  }
  return paths.slice(0, MAX_USERINFO_GROUPS).sort();
}

/** The claims source for one user. */
export async function userinfoProfile(config: Pick<ForgekitConfig, "store" | "baseUrl">, user: User, now: Date): Promise<UserinfoProfile> {
  const primary = await config.store.emails.primaryFor(user.id);
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    profileUrl: `${config.baseUrl}/${encodeURIComponent(user.username)}`,
    avatarUrl: user.avatarUrl,
    groups: await memberGroups(config, user, now),
    primaryEmail: primary === null ? null : { address: primary.email, verified: primary.confirmedAt !== null },
    // Users have no public email address in forgekit: without the `email` scope no address is disclosed.
    publicEmail: null,
  };
}

/** The bearer token: the `Authorization` header, or on POST an `access_token` form field. */
function bearerOf(req: HttpRequest): string | undefined {
  const m = /^bearer[ ]+(\S+)[ ]*$/i.exec(req.headers.authorization ?? "");
  if (m !== null) return m[1];
  if (req.method.toUpperCase() !== "POST" || req.body === undefined || req.body.length === 0) return undefined;
  const form = readOAuthForm(req);
  return form.isOk() ? (form.value.get("access_token") ?? undefined) : undefined;
}

/** `GET` / `POST /oauth/userinfo`: 200 claims; 401 `invalid_token`, 403 `insufficient_scope` with `WWW-Authenticate`. */
export function userinfoEndpoint(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const grant = await authorizeUserinfo(ctx.deps, bearerOf(req));
    if (grant.isErr()) return renderOAuthError(grant.error);
    const user = await ctx.config.store.users.findById(grant.value.token.userId);
    if (user === null) return renderOAuthError(oauthErrors.invalidToken());
    const profile = await userinfoProfile(ctx.config, user, ctx.deps.clock.now());
    return oauthJson(200, buildUserinfoClaims(profile, grant.value.token.scopes));
  };
}
