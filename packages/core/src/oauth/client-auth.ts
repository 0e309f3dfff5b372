/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3; checklist B4, B5):
 * secrets are compared as constant-time digests, confidential clients must present theirs even
 * when they send a `code_verifier`, public clients are identified by id, and failures are
 * throttled per address and per client.
 *
 * Lockout by strangers: the per-address key blocks an attacker before anything is checked, but
 * the per-client key only answers failed attempts. A request that presents the client's correct
 * secret (or, for a public client, just its id) is served however many wrong secrets others sent
 * for that id: client secrets are 256-bit random values nobody can guess, so letting the right
 * one through costs no protection, while refusing it would let anyone lock a client out.
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
 * confidential client without its secret; `rate_limited` while the address is throttled, or for a
 * failed attempt on a client id that has had too many (see the module comment).
 */
export async function authenticateClient(
  deps: Pick<OAuthDeps, "store" | "clock" | "rateLimiter" | "logger" | "config">,
  credentials: ClientCredentials,
  remoteAddress?: string,
): Promise<Result<OAuthApplication | null, OAuthError>> {
  const { clientId, clientSecret, basic } = credentials;
  if (clientId === null) return ok(null);
  const now = deps.clock.now();
  const addressKey = remoteAddress === undefined ? null : rateLimitKeys.address(remoteAddress);
  if (addressKey !== null) {
    const wait = await deps.rateLimiter.retryAfter(addressKey, now, deps.config.rateLimit.maxFailuresPerAddress);
    if (wait > 0) {
      audit(deps.logger, "oauth.rate_limited", { kind: "address", clientId });
      return err(oauthErrors.rateLimited(wait));
    }
  }

  const application = await deps.store.oauthApplications.findByUid(clientId);
  const secretOk = clientSecret !== null && secretMatchesDigest(clientSecret, application?.secretDigest ?? DUMMY_DIGEST);
  const authenticated = application !== null && (secretOk || (clientSecret === null && !application.confidential));
  if (authenticated) return ok(application);

  const clientKey = rateLimitKeys.client(clientId);
  const clientWait = await deps.rateLimiter.retryAfter(clientKey, now);
  await Promise.all([clientKey, ...(addressKey === null ? [] : [addressKey])].map((k) => deps.rateLimiter.recordFailure(k, now)));
  if (clientWait > 0) {
    audit(deps.logger, "oauth.rate_limited", { kind: "client", clientId });
    return err(oauthErrors.rateLimited(clientWait));
  }
  audit(deps.logger, "oauth.client_authentication_failed", { clientId, known: application !== null, method: basic ? "basic" : "post" });
  return err(oauthErrors.invalidClient(basic));
}
