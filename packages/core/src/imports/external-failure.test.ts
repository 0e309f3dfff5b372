import { describe, expect, it } from "vitest";
import { basicAuthorization, externalFailure, externalFailureOf, gitRemoteAccess, rateLimitResetOf } from "./external-failure.js";

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
const now = new Date("2025-03-01T12:00:00Z");

describe("rateLimitResetOf", () => {
  it("reads X-RateLimit-Reset as Unix seconds", () => {
    expect(rateLimitResetOf(headers({ "x-ratelimit-reset": "1740830400" }), now)).toEqual(new Date(1_740_830_400_000));
  });

  it("prefers Retry-After seconds, counted from now", () => {
    expect(rateLimitResetOf(headers({ "retry-after": "90", "x-ratelimit-reset": "1" }), now)).toEqual(new Date(now.getTime() + 90_000));
  });

  it("takes Retry-After as an HTTP date", () => {
    expect(rateLimitResetOf(headers({ "retry-after": "Sat, 01 Mar 2025 12:05:00 GMT" }), now)).toEqual(new Date("2025-03-01T12:05:00Z"));
  });

  it("is undefined without usable headers", () => {
    expect(rateLimitResetOf(headers({}), now)).toBeUndefined();
    expect(rateLimitResetOf(headers({ "retry-after": "soon", "x-ratelimit-reset": "later" }), now)).toBeUndefined();
  });
});

describe("externalFailureOf", () => {
  it("recognises failures, and nothing else", () => {
    const failure = externalFailure("extforge", "rate_limited", "limited", { status: 403, resetAt: now });
    expect(externalFailureOf(failure)).toBe(failure);
    expect(failure).toMatchObject({ name: "ExternalFailure", reason: "rate_limited", service: "extforge", status: 403, resetAt: now, message: "limited" });
    expect(externalFailureOf(new Error("x"))).toBeUndefined();
    expect(externalFailureOf({ reason: "rate_limited" })).toBeUndefined();
    expect(externalFailureOf(null)).toBeUndefined();
  });
});

describe("gitRemoteAccess", () => {
  it("passes the Authorization header through GIT_CONFIG_* variables and turns redirects off", () => {
    const access = gitRemoteAccess("https://forge.test/o/r.git", basicAuthorization("x-access-token", "tok"));
    expect(access).toEqual({
      url: "https://forge.test/o/r.git",
      env: {
        GIT_CONFIG_COUNT: "3",
        GIT_CONFIG_KEY_0: "http.extraHeader",
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from("x-access-token:tok").toString("base64")}`,
        GIT_CONFIG_KEY_1: "http.followRedirects",
        GIT_CONFIG_VALUE_1: "false",
        GIT_CONFIG_KEY_2: "credential.helper",
        GIT_CONFIG_VALUE_2: "",
        GIT_TERMINAL_PROMPT: "0",
      },
    });
  });
});
