/**
 * Audit events of the OAuth provider, sent to the host's `Logger` (issue 3 "Around the
 * endpoints"). Fields name rows and clients by id, never a token, code, secret or password.
 */
import type { Logger, LogLevel } from "../ports/runtime.js";

export type OAuthAuditEvent =
  | "oauth.application_created"
  | "oauth.application_secret_rotated"
  | "oauth.application_deleted"
  | "oauth.authorization_granted"
  | "oauth.authorization_denied"
  | "oauth.token_issued"
  | "oauth.token_revoked"
  | "oauth.code_replayed"
  | "oauth.code_refused"
  | "oauth.refresh_reuse_detected"
  | "oauth.client_authentication_failed"
  | "oauth.password_grant_failed"
  | "oauth.rate_limited"
  | "oauth.cleanup"
  | "oauth.consent_replayed"
  | "oauth.keys_resealed";

/** Audit fields: identifiers and counts only. */
export type OAuthAuditFields = Record<string, string | number | boolean | null | readonly string[]>;

const WARN: ReadonlySet<OAuthAuditEvent> = new Set([
  "oauth.code_replayed",
  "oauth.code_refused",
  "oauth.refresh_reuse_detected",
  "oauth.client_authentication_failed",
  "oauth.password_grant_failed",
  "oauth.rate_limited",
  "oauth.consent_replayed",
]);

/** Logs one audit event: `warn` for attacks and failures, `info` otherwise. */
export function audit(logger: Logger, event: OAuthAuditEvent, fields: OAuthAuditFields): void {
  const level: LogLevel = WARN.has(event) ? "warn" : "info";
  logger.log(level, event, fields);
}
