/**
 * Client credentials of a token or revocation request (RFC 6749 §2.3): HTTP Basic with id and
 * secret form-url-encoded before base64 (§2.3.1; client-compatibility 9), or `client_id` /
 * `client_secret` in the body. Using both at once is `invalid_request` (§2.3, checklist B4).
 */
import { decodeBase64IgnorePadding } from "@oslojs/encoding";
import { err, ok, type Result } from "neverthrow";
import { oauthErrors, type OAuthError } from "./errors.js";
import { formParam, formUrlDecode, OAUTH_PARAM_MAX_LENGTHS, paramTooLong } from "./form.js";

/** What the client presented; `clientId: null` means no client at all. */
export interface ClientCredentials {
  clientId: string | null;
  /** Null when no secret was sent (public clients identify themselves by id only). */
  clientSecret: string | null;
  /** Whether the credentials came in an `Authorization: Basic` header. */
  basic: boolean;
}

/** No client credentials. */
export const NO_CLIENT: ClientCredentials = { clientId: null, clientSecret: null, basic: false };

/** Decodes `Authorization: Basic …` into id and secret; `null` for any other scheme or none. */
export function parseBasicAuthorization(header: string | undefined): Result<{ clientId: string; clientSecret: string } | null, OAuthError> {
  if (header === undefined) return ok(null);
  const m = /^basic[ ]+([A-Za-z0-9+/]+=*)[ ]*$/i.exec(header);
  if (m === null) return /^basic(\s|$)/i.test(header) ? err(oauthErrors.invalidClient(true)) : ok(null);
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64IgnorePadding(m[1]!));
  } catch {
    return err(oauthErrors.invalidClient(true));
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return err(oauthErrors.invalidClient(true));
  const id = formUrlDecode(decoded.slice(0, colon));
  const secret = formUrlDecode(decoded.slice(colon + 1));
  if (id.isErr() || secret.isErr() || id.value === "") return err(oauthErrors.invalidClient(true));
  return ok({ clientId: id.value, clientSecret: secret.value });
}

/**
 * The client credentials of a request from its `Authorization` header and form body. A Basic
 * header with a `client_secret` in the body, or with a different body `client_id`, is
 * `invalid_request`; an empty secret counts as none.
 */
export function readClientCredentials(authorization: string | undefined, form: URLSearchParams): Result<ClientCredentials, OAuthError> {
  const basic = parseBasicAuthorization(authorization);
  if (basic.isErr()) return err(basic.error);
  const bodyId = formParam(form, "client_id");
  if (bodyId.isErr()) return err(bodyId.error);
  const bodySecret = formParam(form, "client_secret");
  if (bodySecret.isErr()) return err(bodySecret.error);
  if (basic.value !== null) {
    const { clientId, clientSecret } = basic.value;
    // The same limits as in the body, so the header is no way around them.
    for (const [name, value] of [["client_id", clientId], ["client_secret", clientSecret]] as const) {
      const max = OAUTH_PARAM_MAX_LENGTHS[name]!;
      if (value.length > max) return err(paramTooLong(name, max));
    }
    if (bodySecret.value !== undefined) return err(oauthErrors.invalidRequest("Only one client authentication method may be used."));
    if (bodyId.value !== undefined && bodyId.value !== clientId) return err(oauthErrors.invalidRequest("The client_id does not match the authenticated client."));
    return ok({ clientId, clientSecret: clientSecret === "" ? null : clientSecret, basic: true });
  }
  if (bodyId.value === undefined) {
    return bodySecret.value === undefined ? ok(NO_CLIENT) : err(oauthErrors.invalidClient(false));
  }
  return ok({ clientId: bodyId.value, clientSecret: bodySecret.value ?? null, basic: false });
}
