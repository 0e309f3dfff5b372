import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkChallenge, isValidVerifier, s256Challenge, verifyCodeVerifier } from "./pkce.js";

const VERIFIER = "ks02i3jdikdo2k0dkfodf3m39rjfjsdk0wk349rj3jrhf";
const CHALLENGE = "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U";

describe("S256", () => {
  it("matches the documented test vector", () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
  });

  it("agrees with node:crypto on random verifiers", () => {
    for (let i = 0; i < 20; i++) {
      const verifier = randomBytes(48).toString("base64url");
      expect(s256Challenge(verifier)).toBe(createHash("sha256").update(verifier).digest("base64url"));
    }
  });
});

describe("isValidVerifier", () => {
  it.each([
    ["43 characters", "a".repeat(43)],
    ["128 characters", "Z".repeat(128)],
    ["every allowed class", "AZaz09-._~".repeat(5)],
  ])("accepts %s", (_label, v) => {
    expect(isValidVerifier(v)).toBe(true);
  });

  it.each([
    ["42 characters", "a".repeat(42)],
    ["129 characters", "a".repeat(129)],
    ["a plus", "a".repeat(42) + "+"],
    ["a slash", "a".repeat(42) + "/"],
    ["a space", "a".repeat(42) + " "],
    ["a percent", "a".repeat(42) + "%"],
    ["non-ASCII", "a".repeat(42) + "é"],
    ["empty", ""],
  ])("refuses %s", (_label, v) => {
    expect(isValidVerifier(v)).toBe(false);
  });
});

describe("checkChallenge (checklist A7)", () => {
  it("accepts an S256 challenge of 43 base64url characters", () => {
    expect(checkChallenge(CHALLENGE, "S256")._unsafeUnwrap()).toBe(CHALLENGE);
  });

  it("returns null when neither is sent", () => {
    expect(checkChallenge(undefined, undefined)._unsafeUnwrap()).toBeNull();
  });

  it("refuses plain and a missing method (which means plain)", () => {
    for (const method of ["plain", undefined, "s256", "S512"]) {
      expect(checkChallenge(CHALLENGE, method)._unsafeUnwrapErr()).toEqual({
        code: "invalid_request",
        description: "The code_challenge_method must be one of S256.",
      });
    }
  });

  it("refuses a challenge of the wrong length or alphabet", () => {
    for (const challenge of [CHALLENGE.slice(1), CHALLENGE + "A", CHALLENGE.slice(1) + "=", CHALLENGE.slice(1) + "+", VERIFIER]) {
      expect(checkChallenge(challenge, "S256")._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
    }
  });

  it("refuses a method without a challenge", () => {
    expect(checkChallenge(undefined, "S256")._unsafeUnwrapErr()).toEqual({
      code: "invalid_request",
      description: "Missing required parameter: code_challenge.",
    });
  });
});

describe("verifyCodeVerifier (checklist C5)", () => {
  it("accepts the verifier of the challenge", () => {
    expect(verifyCodeVerifier(VERIFIER, CHALLENGE)).toBe(true);
  });

  it("refuses another verifier, the challenge itself, and a malformed verifier", () => {
    expect(verifyCodeVerifier(VERIFIER.replace("k", "K"), CHALLENGE)).toBe(false);
    expect(verifyCodeVerifier(CHALLENGE, CHALLENGE)).toBe(false);
    expect(verifyCodeVerifier("short", s256Challenge("short"))).toBe(false);
  });
});
