import { describe, expect, it } from "vitest";
import { oauthErrors, type OAuthError } from "./errors.js";
import { OAUTH_ERROR_STATUS, oauthJson, renderOAuthError } from "./render.js";

const NO_STORE = { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" };
const body = (r: { body?: string | Uint8Array }) => JSON.parse(String(r.body)) as Record<string, unknown>;

describe("oauthJson", () => {
  it("sets exactly application/json and the no-store headers", () => {
    expect(oauthJson(200, {})).toEqual({ status: 200, headers: NO_STORE, body: "{}" });
  });
});

describe("renderOAuthError (RFC 6749 §5.2, checklist B2/B3)", () => {
  it.each([
    [oauthErrors.invalidRequest(), 400, "invalid_request"],
    [oauthErrors.invalidGrant(), 400, "invalid_grant"],
    [oauthErrors.unauthorizedClient(), 400, "unauthorized_client"],
    [oauthErrors.unsupportedGrantType(), 400, "unsupported_grant_type"],
    [oauthErrors.invalidScope(), 400, "invalid_scope"],
    [oauthErrors.accessDenied(), 400, "access_denied"],
    [oauthErrors.unsupportedResponseType(), 400, "unsupported_response_type"],
    [oauthErrors.serverError(), 500, "server_error"],
    [oauthErrors.temporarilyUnavailable(), 503, "temporarily_unavailable"],
    [oauthErrors.revokeForbidden(), 403, "unauthorized_client"],
    [oauthErrors.invalidRedirectUri(), 400, "invalid_request"],
  ] as [OAuthError, number, string][])("renders %j as %i %s with no-store headers", (error, status, name) => {
    const r = renderOAuthError(error);
    expect(r.status).toBe(status);
    expect(r.headers).toEqual(NO_STORE);
    expect(body(r)).toEqual({ error: name, error_description: error.description });
  });

  it("invalid_client is 401 with a Basic challenge", () => {
    for (const viaBasic of [true, false]) {
      const r = renderOAuthError(oauthErrors.invalidClient(viaBasic));
      expect(r.status).toBe(401);
      expect(r.headers["WWW-Authenticate"]).toBe('Basic realm="forgekit", charset="UTF-8"');
      expect(body(r)).toEqual({
        error: "invalid_client",
        error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
      });
    }
  });

  it("invalid_token is 401 with a Bearer challenge and the reference body", () => {
    const r = renderOAuthError(oauthErrors.invalidToken());
    expect(r.status).toBe(401);
    expect(r.headers["WWW-Authenticate"]).toBe('Bearer realm="forgekit", error="invalid_token", error_description="The access token is invalid"');
    expect(body(r)).toEqual({ error: "invalid_token", error_description: "The access token is invalid", state: "unauthorized" });
  });

  it("insufficient_scope is 403; quotes in the challenge are replaced", () => {
    const r = renderOAuthError(oauthErrors.insufficientScope("openid"));
    expect(r.status).toBe(403);
    expect(r.headers["WWW-Authenticate"]).toBe(
      'Bearer realm="forgekit", error="insufficient_scope", error_description="Access to this resource requires scope _openid_.", scope="openid"',
    );
    expect(body(r)).toEqual({ error: "insufficient_scope", error_description: 'Access to this resource requires scope "openid".', scope: "openid" });
  });

  it("rate_limited is 429 with an integer Retry-After", () => {
    const r = renderOAuthError(oauthErrors.rateLimited(12.2));
    expect(r.status).toBe(429);
    expect(r.headers["Retry-After"]).toBe("13");
    expect(body(r)).toMatchObject({ error: "rate_limited" });
    expect(oauthErrors.rateLimited(0)).toMatchObject({ retryAfterSeconds: 1 });
  });

  it("has a status for every kind", () => {
    expect(Object.keys(OAUTH_ERROR_STATUS).sort()).toEqual(
      [
        "access_denied", "insufficient_scope", "invalid_client", "invalid_grant", "invalid_redirect_uri", "invalid_request", "invalid_scope",
        "invalid_token", "rate_limited", "revoke_forbidden", "server_error", "temporarily_unavailable", "unauthorized_client",
        "unsupported_grant_type", "unsupported_response_type",
      ],
    );
  });
});

describe("reference descriptions", () => {
  it("uses the reference texts", () => {
    expect(oauthErrors.missingParam("grant_type").description).toBe("Missing required parameter: grant_type.");
    expect(oauthErrors.invalidGrant().description).toBe(
      "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
    );
    expect(oauthErrors.unsupportedGrantType().description).toBe("The authorization grant type is not supported by the authorization server.");
    expect(oauthErrors.accessDenied().description).toBe("The resource owner or authorization server denied the request.");
    expect(oauthErrors.invalidRedirectUri().description).toBe("The redirect URI included is not valid.");
    expect(oauthErrors.revokeForbidden().description).toBe("You are not authorized to revoke this token");
  });
});
