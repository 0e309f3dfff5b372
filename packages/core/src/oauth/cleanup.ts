/**
 * The maintenance task that deletes codes and tokens that can no longer be used (checklist H5):
 * only rows dead for longer than the retention window, so replay and reuse detection keep
 * working for a while and live tokens always survive. Callable now; scheduled once jobs exist.
 */
import { ResultAsync } from "neverthrow";
import { audit } from "./audit.js";
import type { OAuthDeps } from "./deps.js";

export interface CleanupResult {
  codesDeleted: number;
  tokensDeleted: number;
}

/** Deletes codes expired, and pairs dead, before `now - config.retentionSeconds`. */
export function purgeExpiredOAuthRows(deps: Pick<OAuthDeps, "store" | "clock" | "config" | "logger">): ResultAsync<CleanupResult, never> {
  return ResultAsync.fromSafePromise(purge(deps));
}

async function purge(deps: Pick<OAuthDeps, "store" | "clock" | "config" | "logger">): Promise<CleanupResult> {
  const cutoff = new Date(deps.clock.now().getTime() - deps.config.retentionSeconds * 1000);
  const codesDeleted = await deps.store.oauthCodes.deleteExpired(cutoff);
  const tokensDeleted = await deps.store.oauthTokens.deleteInactive(cutoff);
  audit(deps.logger, "oauth.cleanup", { codesDeleted, tokensDeleted, cutoff: cutoff.toISOString() });
  return { codesDeleted, tokensDeleted };
}
