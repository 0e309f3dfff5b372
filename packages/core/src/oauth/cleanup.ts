/**
 * The maintenance task that deletes codes and tokens that can no longer be used (checklist H5):
 * only rows dead for longer than the retention window, so replay and reuse detection keep
 * working for a while and live tokens always survive. Callable now; scheduled once jobs exist.
 */
import { ResultAsync } from "neverthrow";
import { audit } from "./audit.js";
import type { OAuthDeps } from "./deps.js";

/** How many expired or revoked authorization codes, tokens and used consent records a cleanup removed. */
export interface CleanupResult {
  codesDeleted: number;
  tokensDeleted: number;
  /** Records of used consent-form tokens that no longer verify anyway. */
  consentsDeleted: number;
}

/**
 * Deletes codes expired, and pairs dead, before `now - config.retentionSeconds`, and the records of
 * used consent tokens that expired before `now` (an expired token is refused without its record).
 */
export function purgeExpiredOAuthRows(deps: Pick<OAuthDeps, "store" | "clock" | "config" | "logger">): ResultAsync<CleanupResult, never> {
  return ResultAsync.fromSafePromise(purge(deps));
}

async function purge(deps: Pick<OAuthDeps, "store" | "clock" | "config" | "logger">): Promise<CleanupResult> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.config.retentionSeconds * 1000);
  const codesDeleted = await deps.store.oauthCodes.deleteExpired(cutoff);
  const tokensDeleted = await deps.store.oauthTokens.deleteInactive(cutoff);
  const consentsDeleted = await deps.store.oauthConsents.deleteExpired(deps.clock.now());
  audit(deps.logger, "oauth.cleanup", { codesDeleted, tokensDeleted, consentsDeleted, cutoff: cutoff.toISOString() });
  return { codesDeleted, tokensDeleted, consentsDeleted };
}
