import { describe, expect, it } from "vitest";
import { resolveOAuthConfig } from "./config.js";

describe("resolveOAuthConfig", () => {
  it("fills the production defaults and strips the base URL's trailing slash", () => {
    expect(resolveOAuthConfig("https://code.example.com/")._unsafeUnwrap()).toEqual({
      issuer: "https://code.example.com",
      accessTokenLifetimeSeconds: 7200,
      authorizationCodeLifetimeSeconds: 600,
      refreshTokenIdleSeconds: 90 * 86400,
      refreshTokenAbsoluteSeconds: 365 * 86400,
      idTokenLifetimeSeconds: 3600,
      consentLifetimeSeconds: 3600,
      passwordGrantWithoutClient: true,
      loginUrl: "/users/sign_in",
      returnToParam: "return_to",
      rateLimit: { maxFailures: 10, maxFailuresPerAddress: 30, windowSeconds: 300, maxKeys: 100_000 },
      retentionSeconds: 7 * 86400,
    });
  });

  it("keeps given values and freezes the result", () => {
    const config = resolveOAuthConfig("https://x.example/forge", { accessTokenLifetimeSeconds: 60, refreshTokenIdleSeconds: null })._unsafeUnwrap();
    expect(config).toMatchObject({ issuer: "https://x.example/forge", accessTokenLifetimeSeconds: 60, refreshTokenIdleSeconds: null });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("refuses a code lifetime above 10 minutes and unknown keys", () => {
    expect(resolveOAuthConfig("https://x.example", { authorizationCodeLifetimeSeconds: 601 })._unsafeUnwrapErr()[0]).toMatchObject({
      path: "authorizationCodeLifetimeSeconds",
    });
    expect(resolveOAuthConfig("https://x.example", { nope: 1 } as never).isErr()).toBe(true);
  });
});
