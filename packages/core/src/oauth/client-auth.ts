/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3; checklist B4, B5):
 * secrets are compared as constant-time digests, confidential clients must present theirs even
 * when they send a `code_verifier`, public clients are identified by id, and failures are
 * throttled per client and per address.
 */
import { err, ok, type Result } from "neverthrow";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import type { ClientCredentials } from "./client-credentials.js";
import type { OAuthDeps } from "./deps.js";
import { secretMatchesDigest } from "./digest.js";
import { oauthErrors, type OAuthError } from "./errors.js";
import { rateLimitKeys } from "./rate-limiter.js";

/** Compared against when the client is unknown, so unknown and known clients cost the same. */
const DUMMY_DIGEST = "0".repeat(64);

/**
 * Authenticates the presented client. `null` when no client was presented (the grant decides
 * whether that is allowed); `invalid_client` for an unknown client, a wrong secret, or a
 * confidential client without its secret; `rate_limited` while throttled.
 */
export async function authenticateClient(
  deps: Pick<OAuthDeps, "store" | "clock" | "rateLimiter" | "logger">,
  credentials: ClientCredentials,
  remoteAddress?: string,
): Promise<Result<OAuthApplication | null, OAuthError>> {
  const { clientId, clientSecret, basic } = credentials;
  if (clientId === null) return ok(null);
  const now = deps.clock.now();
  const keys = [rateLimitKeys.client(clientId), ...(remoteAddress === undefined ? [] : [rateLimitKeys.clientAddress(remoteAddress)])];
  const waits = await Promise.all(keys.map((k) => deps.rateLimiter.retryAfter(k, now)));
  const wait = Math.max(...waits);
  if (wait > 0) {
    audit(deps.logger, "oauth.rate_limited", { kind: "client", clientId });
    return err(oauthErrors.rateLimited(wait));
  }

  const application = await deps.store.oauthApplications.findByUid(clientId);
  const secretOk = clientSecret !== null && secretMatchesDigest(clientSecret, application?.secretDigest ?? DUMMY_DIGEST);
  const authenticated = application !== null && (secretOk || (clientSecret === null && !application.confidential));
  if (!authenticated) {
    await Promise.all(keys.map((k) => deps.rateLimiter.recordFailure(k, now)));
    audit(deps.logger, "oauth.client_authentication_failed", { clientId, known: application !== null, method: basic ? "basic" : "post" });
    return err(oauthErrors.invalidClient(basic));
  }
  if (secretOk) await deps.rateLimiter.reset(rateLimitKeys.client(clientId));
  return ok(application);
}
