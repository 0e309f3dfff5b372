/**
 * The OAuth capability of one instance, assembled from its configuration: the services behind
 * `fk.oauth`, `fk.git` and `fk.registry`, the admin REST routes for applications, and the raw
 * handler for `/oauth/*` and discovery that `fk.handle` tries before the REST API.
 */
import { err, ok, type ResultAsync } from "neverthrow";
import { fromStore } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { ForgekitConfigError } from "../domain/config-error.js";
import { errors, type ForgekitError } from "../errors.js";
import { audit } from "./audit.js";
import type { OAuthDeps } from "./deps.js";
import { plainKeyVault } from "./key-envelope.js";
import { prepareStoredKeys } from "./stored-keys.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { HttpRequest, HttpResponse } from "../http/types.js";
import { gitCredentialsService, registryCredentialsService, type GitCredentialsService, type RegistryCredentialsService } from "./git-credentials.js";
import { oauthDepsFrom } from "./instance-deps.js";
import { applicationRoutes } from "./routes/applications-api.js";
import { createOAuthHandler, type OAuthHandler } from "./routes/index.js";
import { oauthService, type OAuthService } from "./service.js";

export interface OAuthCapability {
  service: OAuthService;
  git: GitCredentialsService;
  registry: RegistryCredentialsService;
  /** `/api/v4/applications…` (administrators). */
  routes: AnyRoute[];
  handler: OAuthHandler;
  /**
   * The start-up step `fk.migrate()` runs after the schema: checks that the stored keys open with
   * the configured key-encryption keys and re-seals plain-text or retired-key ones. A key that does
   * not open is `internal` with a `ForgekitConfigError` cause that says which and why.
   */
  prepareKeys(): ResultAsync<void, ForgekitError>;
}

/** Builds the capability; a bad `oauth.signingKeyPem` throws `ForgekitConfigError`. */
export function oauthCapability(config: ForgekitConfig): OAuthCapability {
  const deps = oauthDepsFrom(config);
  const service = oauthService(deps);
  return {
    service,
    // Password logins for git share the password grant's verifier and failure counter.
    git: gitCredentialsService(config, {
      enabled: config.passwordAuthenticationForGit,
      verifyPassword: (login, password) => deps.verifyPassword(login, password),
      rateLimiter: deps.rateLimiter,
      maxFailuresPerAddress: config.oauth.rateLimit.maxFailuresPerAddress,
    }),
    registry: registryCredentialsService(config),
    routes: tagRoutes("OAuth applications", applicationRoutes(service)),
    handler: createOAuthHandler({ config, deps }),
    prepareKeys: () => prepareKeys(deps),
  };
}

function prepareKeys(deps: OAuthDeps): ResultAsync<void, ForgekitError> {
  return fromStore(prepareStoredKeys(deps.store.oauthKeys, deps.keyVault ?? plainKeyVault)).andThen((result) => {
    if (result.isErr()) return err(errors.internal(new ForgekitConfigError([{ path: "oauth.keyEncryption", message: result.error }])));
    if (result.value.resealed.length > 0) audit(deps.logger, "oauth.keys_resealed", { kinds: result.value.resealed, keyId: deps.keyVault?.currentKeyId ?? null });
    return ok(undefined);
  });
}

/** `fk.handle`: the OAuth endpoints first, then the REST API for every other path. */
export function withOAuth(oauth: OAuthHandler, api: (req: HttpRequest) => Promise<HttpResponse>): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => (await oauth(req)) ?? api(req);
}

export type { GitCredentialsService, OAuthService, RegistryCredentialsService };
