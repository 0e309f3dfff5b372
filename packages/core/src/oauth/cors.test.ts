import { describe, expect, it } from "vitest";
import { answerOAuthPreflight, oauthCorsHeaders } from "./cors.js";

const preflight = (path: string, method: string, requestHeaders?: string) =>
  answerOAuthPreflight(path, {
    origin: "https://spa.example",
    "access-control-request-method": method,
    ...(requestHeaders === undefined ? {} : { "access-control-request-headers": requestHeaders }),
  });

describe("answerOAuthPreflight (checklist G2, client-compatibility 24)", () => {
  it.each([
    ["/oauth/token", "POST", "POST, OPTIONS"],
    ["/oauth/revoke", "POST", "POST, OPTIONS"],
    ["/oauth/userinfo", "GET", "GET, POST, OPTIONS"],
    ["/oauth/userinfo", "POST", "GET, POST, OPTIONS"],
  ])("allows %s %s with Authorization", (path, method, allowed) => {
    const r = preflight(path, method, "Authorization, content-type");
    expect(r).toEqual({
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": allowed,
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Accept-Language, Content-Language",
        "Access-Control-Max-Age": "600",
      },
    });
    expect(r!.headers).not.toHaveProperty("Access-Control-Allow-Credentials");
  });

  it("allows a preflight without requested headers", () => {
    expect(preflight("/oauth/token", "POST")?.status).toBe(204);
  });

  it("refuses X-Requested-With and other non-simple headers without any allow header", () => {
    for (const h of ["Authorization, X-Requested-With", "X-CSRF-Token", "x-custom"]) {
      expect(preflight("/oauth/token", "POST", h)).toEqual({ status: 403, headers: {} });
    }
  });

  it("refuses a method the endpoint does not take", () => {
    expect(preflight("/oauth/token", "GET")).toEqual({ status: 403, headers: {} });
    expect(answerOAuthPreflight("/oauth/token", {})).toEqual({ status: 403, headers: {} });
  });

  it("has no preflight for other paths", () => {
    expect(preflight("/oauth/authorize", "POST")).toBeNull();
    expect(preflight("/oauth/token/info", "GET")).toBeNull();
  });
});

describe("oauthCorsHeaders", () => {
  it("allows any origin without credentials, only on cross-origin requests", () => {
    expect(oauthCorsHeaders("https://spa.example")).toEqual({ "Access-Control-Allow-Origin": "*" });
    expect(oauthCorsHeaders(undefined)).toEqual({});
  });
});
