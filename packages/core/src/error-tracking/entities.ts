/**
 * Error-tracking response entities (spec "Error-tracking settings" and "Error-tracking client key")
 * and the Sentry DSN of a client key (reference §5.2).
 */
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { ErrorTrackingClientKey, ErrorTrackingSettings } from "../ports/error-tracking-store.js";
import type { Random } from "../ports/runtime.js";

/**
 * The fixed service prefix of public keys. Word characters only: Sentry SDKs parse the DSN's user
 * part with `\w+` and drop every event of a key that does not match (client-compatibility §6.21).
 */
export const CLIENT_KEY_PREFIX = "fket_";

/** Random bytes behind a public key: 16 → 32 hex digits, as the reference's `SecureRandom.hex`. */
const KEY_BYTES = 16;

/** A new public key: the prefix and 32 lower-case hex digits from the Random port. */
export function generatePublicKey(random: Random): string {
  const bytes = new Uint8Array(KEY_BYTES);
  random.read(bytes);
  return `${CLIENT_KEY_PREFIX}${encodeHexLowerCase(bytes)}`;
}


/** The path below the base URL that a project's DSN points at; SDKs append `/api/<id>/envelope/`. */
export const COLLECTOR_PATH = "/api/v4/error_tracking/collector";

/**
 * `<scheme>://<public_key>@<host>[:port]<root>/api/v4/error_tracking/collector/<project_id>`: host,
 * port and path prefix come from the configured base URL (the port only when not the scheme's
 * default; any user info of the base URL is left out).
 */
export function sentryDsn(baseUrl: string, publicKey: string, projectId: number): string {
  const url = new URL(baseUrl);
  const root = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${publicKey}@${url.host}${root}${COLLECTOR_PATH}/${projectId}`;
}

/** The settings entity; the external Sentry fields are always null (only the integrated backend exists). */
export function settingsEntity(settings: ErrorTrackingSettings): Record<string, unknown> {
  return {
    active: settings.active,
    project_name: null,
    sentry_external_url: null,
    api_url: null,
    integrated: settings.integrated,
  };
}

/** The client-key entity: exactly `id`, `active`, `public_key`, `sentry_dsn`. */
export function clientKeyEntity(key: ErrorTrackingClientKey, baseUrl: string): Record<string, unknown> {
  return { id: key.id, active: key.active, public_key: key.publicKey, sentry_dsn: sentryDsn(baseUrl, key.publicKey, key.projectId) };
}
