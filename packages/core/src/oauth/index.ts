/**
 * The OAuth 2.0 provider capability: protocol rules, renderers and grant services over the
 * `OAuthStore` port. HTTP routes wire these to `/oauth/*` (see the capability's report).
 */
export * from "./applications.js";
export * from "./audit.js";
export * from "./authorize.js";
export * from "./authorize-request.js";
export * from "./cleanup.js";
export * from "./client-auth.js";
export * from "./client-credentials.js";
export * from "./config.js";
export * from "./consent-csrf.js";
export * from "./consent-page.js";
export * from "./cors.js";
export * from "./deps.js";
export * from "./digest.js";
export * from "./discovery.js";
export * from "./error-page.js";
export * from "./errors.js";
export * from "./form.js";
export * from "./grants/authorization-code.js";
export * from "./grants/password.js";
export * from "./grants/refresh-token.js";
export * from "./html.js";
export * from "./id-token.js";
export * from "./introspect.js";
export * from "./issue.js";
export * from "./pkce.js";
export * from "./rate-limiter.js";
export * from "./redirect.js";
export * from "./redirect-uri.js";
export * from "./render.js";
export * from "./revoke.js";
export * from "./scopes.js";
export * from "./secrets.js";
export * from "./signing-key.js";
export * from "./store-adapter.js";
export * from "./token-endpoint.js";
export * from "./token-info.js";
export * from "./token-response.js";
export * from "./userinfo.js";
