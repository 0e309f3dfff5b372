/**
 * The OAuth capability of one instance, assembled from its configuration: the services behind
 * `fk.oauth`, `fk.git` and `fk.registry`, the admin REST routes for applications, and the raw
 * handler for `/oauth/*` and discovery that `fk.handle` tries before the REST API.
 */
import type { ForgekitConfig } from "../config.js";
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
}

/** Builds the capability; a bad `oauth.signingKeyPem` throws `ForgekitConfigError`. */
export function oauthCapability(config: ForgekitConfig): OAuthCapability {
  const deps = oauthDepsFrom(config);
  const service = oauthService(deps);
  return {
    service,
    git: gitCredentialsService(config),
    registry: registryCredentialsService(config),
    routes: applicationRoutes(service),
    handler: createOAuthHandler({ config, deps }),
  };
}

/** `fk.handle`: the OAuth endpoints first, then the REST API for every other path. */
export function withOAuth(oauth: OAuthHandler, api: (req: HttpRequest) => Promise<HttpResponse>): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => (await oauth(req)) ?? api(req);
}

export type { GitCredentialsService, OAuthService, RegistryCredentialsService };
