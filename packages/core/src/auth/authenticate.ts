/**
 * Who is calling: credentials, their validation, user state, sudo and scopes, in the reference's
 * order (auth-oauth-conventions §2.2–2.5; spec "Authentication"):
 *
 * 1. OAuth token (`access_token` param, `Authorization: Bearer`) — found by the OAuthTokenLookup;
 * 2. else personal/impersonation/project/group token (`private_token` → `PRIVATE-TOKEN` → the
 *    OAuth sources); a token that is neither → 401;
 * 3. else a job token, on routes with `auth.jobToken` only; an unknown one → 401;
 * 4. else the host's session (the `_service_session` cookie by default) through the SessionResolver (unsafe methods need a verified
 *    `X-CSRF-Token`, else the session is ignored). A `Deploy-Token` header is never read (rule 1).
 *
 * Token checks: expired → revoked; then the user's state (blocked/deactivated → 403); then sudo
 * (rules 4–7); then the route's scopes (skipped while sudo is active); then impersonation enabled.
 */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { tokenDigest } from "../accounts/token-string.js";
import type { AccessToken, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordIdFrom } from "../ids.js";
import { isStorableText } from "../storable.js";
import type { HttpRequest, Params, Route } from "../http/types.js";
import { attempt } from "../accounts/service-kit.js";
import { IMPERSONATION_ENABLED } from "../accounts/settings.js";
import { jobTokenFrom, oauthTokenFrom, privateTokenFrom, sudoFrom } from "./credentials.js";
import { resolveSession } from "./session.js";
import type { Credential, Identity } from "./identity.js";
import { isReadMethod, registeredScopes, scopesSufficient } from "./scopes.js";

/** Resolves the caller of a request for a route. */
export type Authenticate = (req: HttpRequest, params: Params, route: Pick<Route, "auth">) => ResultAsync<Identity, ForgekitError>;

interface Found {
  user: User;
  credential: Credential;
  jobProjectId?: number;
  /** What the route's `auth.withToken` read with the token. */
  read?: object;
}

/** The 403 reason for a user who may not use the API, or null (reference `UserAccessDeniedReason`). */
export function accessDeniedReason(user: User, baseUrl: string): string | null {
  switch (user.state) {
    case "active":
      return null;
    case "blocked":
      return "Your account has been blocked.";
    case "deactivated":
      return `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${baseUrl}`;
  }
}

/**
 * `last_used_at` is refreshed at most this often (the reference's interval), so authenticated reads
 * do not each turn into a write.
 */
export const LAST_USED_REFRESH_MS = 10 * 60 * 1000;

/** Whether a token last used at `lastUsedAt` should have it refreshed at `now`. */
export function lastUsedIsStale(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_REFRESH_MS;
}

/** Builds the authenticator of an instance. */
export function createAuthenticator(config: ForgekitConfig): Authenticate {
  const { store, clock, oauthTokens } = config;

  const userById = async (id: number): Promise<Result<User, ForgekitError>> => {
    const user = await store.users.findById(id);
    return user ? ok(user) : err(errors.unauthorized());
  };

  /** Steps 1–2: OAuth, then access tokens. `ok(null)` when no token was sent. */
  async function fromTokens(req: HttpRequest, params: Params, route: Pick<Route, "auth">, now: Date): Promise<Result<Found | null, ForgekitError>> {
    const oauthRaw = oauthTokenFrom(req, params);
    if (oauthRaw !== undefined) {
      const record = await oauthTokens.find(oauthRaw);
      if (record) {
        if (record.expiresAt !== null && record.expiresAt.getTime() <= now.getTime()) return err(errors.invalidToken("expired"));
        if (record.revokedAt !== null) return err(errors.invalidToken("revoked"));
        return (await userById(record.userId)).map((user) => ({ user, credential: { kind: "oauth", scopes: record.scopes, id: record.id } }));
      }
    }
    const raw = privateTokenFrom(req, params);
    if (raw === undefined) return ok(null);
    // The token and its user in one lookup (with the route's own reads when it has some), on every
    // request: a revocation, expiry or block made by any process is seen by the very next request
    // (nothing is cached between requests).
    const digest = tokenDigest(raw);
    const withRoute = route.auth.withToken?.(digest, params, now) ?? null;
    const found: { token: AccessToken; user: User | null; read?: object } | null = withRoute === null ? await store.accessTokens.findByDigestWithUser(digest) : await withRoute;
    if (!found) return err(errors.unauthorized());
    const { token, user } = found;
    if (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime()) return err(errors.invalidToken("expired"));
    if (token.revoked) return err(errors.invalidToken("revoked"));
    if (user === null) return err(errors.unauthorized());
    const credential: Credential = { kind: token.kind, scopes: token.scopes, accessToken: token, id: token.id };
    return ok(found.read === undefined ? { user, credential } : { user, credential, read: found.read });
  }

  /** Step 3: job token, only where the route allows it. */
  async function fromJobToken(req: HttpRequest, params: Params, route: Pick<Route, "auth">): Promise<Result<Found | null, ForgekitError>> {
    if (route.auth.jobToken !== true) return ok(null);
    const raw = jobTokenFrom(req, params);
    if (raw === undefined) return ok(null);
    const job = config.jobTokens ? await config.jobTokens.resolve(raw) : null;
    if (!job) return err(errors.unauthorized());
    return (await userById(job.userId)).map((user) => ({ user, credential: { kind: "job", scopes: null }, jobProjectId: job.projectId }));
  }

  /** Step 4: the host's session; an unknown or signed-out session is simply anonymous. */
  async function fromSession(req: HttpRequest): Promise<Found | null> {
    const session = await resolveSession(config.session, req);
    if (session === null) return null;
    if (!isReadMethod(req.method) && !(await session.csrfVerified())) return null;
    const user = await store.users.findById(session.userId);
    return user ? { user, credential: { kind: "session", scopes: null } } : null;
  }

  /**
   * Digits are an id (none beyond the id range exists), anything else a case-insensitive username
   * (none holds a character no store can hold, such as NUL): a target that can name nobody is
   * answered like any unknown user, without asking the store.
   */
  async function findSudoTarget(target: string): Promise<User | null> {
    if (!isStorableText(target)) return null;
    if (!/^\d+$/.test(target)) return store.users.findByUsername(target);
    const id = recordIdFrom(target);
    return id === null ? null : store.users.findById(id);
  }

  /** Rules 4–7. Returns the user the request runs as. */
  async function applySudo(found: Found, target: string): Promise<Result<User, ForgekitError>> {
    const { user, credential } = found;
    if (!user.admin) return err(errors.forbidden("Must be admin to use sudo"));
    if (credential.kind !== "oauth" && credential.kind !== "personal" && credential.kind !== "impersonation") {
      return err(errors.forbidden("Must be authenticated using an OAuth or personal access token to use sudo"));
    }
    if (!(credential.scopes ?? []).includes("sudo")) return err(errors.insufficientScope(["sudo"]));
    const sudoed = await findSudoTarget(target);
    // A blocked or deactivated user cannot use the API, so nobody may act as them either: such a
    // target is answered like an unknown one (rule 7), as the reference finds only active users.
    const usable = sudoed !== null && accessDeniedReason(sudoed, config.baseUrl) === null;
    return usable ? ok(sudoed) : err(errors.notFound(`User with ID or username '${target}'`));
  }

  async function resolve(req: HttpRequest, params: Params, route: Pick<Route, "auth">): Promise<Result<Identity, ForgekitError>> {
    const now = clock.now();
    let found: Found | null = null;
    for (const step of [() => fromTokens(req, params, route, now), () => fromJobToken(req, params, route)]) {
      const result = await step();
      if (result.isErr()) return err(result.error);
      found = result.value;
      if (found) break;
    }
    found ??= await fromSession(req);

    const sudoTarget = sudoFrom(req, params);
    if (!found) {
      if (sudoTarget !== undefined || route.auth.mode === "required") return err(errors.unauthorized());
      return ok({ user: null, credential: null });
    }

    const denied = accessDeniedReason(found.user, config.baseUrl);
    if (denied !== null) return err(errors.forbidden(denied));

    let actingUser = found.user;
    if (sudoTarget !== undefined) {
      const sudoed = await applySudo(found, sudoTarget);
      if (sudoed.isErr()) return err(sudoed.error);
      actingUser = sudoed.value;
    }
    const sudoActive = actingUser.id !== found.user.id;

    const { credential } = found;
    if (!sudoActive && credential.scopes !== null && !scopesSufficient(credential.scopes, route, req.method)) {
      return err(errors.insufficientScope(registeredScopes(route)));
    }
    if (credential.kind === "impersonation" && !(await impersonationEnabled())) return err(errors.invalidToken("impersonation_disabled"));

    if (credential.accessToken && lastUsedIsStale(credential.accessToken.lastUsedAt, now)) {
      await store.accessTokens.touchLastUsed(credential.accessToken.id, now);
    }

    const identity: Identity = { user: actingUser, credential };
    if (sudoActive) identity.sudoFrom = found.user;
    if (found.jobProjectId !== undefined) identity.jobProjectId = found.jobProjectId;
    if (found.read !== undefined && !sudoActive) identity.preread = found.read;
    return ok(identity);
  }

  async function impersonationEnabled(): Promise<boolean> {
    const value = await store.settings.get(IMPERSONATION_ENABLED);
    return value === null ? config.impersonationEnabled : value !== "false";
  }

  return (req, params, route) => attempt(() => resolve(req, params, route));
}
