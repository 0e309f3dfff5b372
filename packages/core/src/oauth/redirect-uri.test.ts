import { describe, expect, it } from "vitest";
import { redirectUriMatches, resolveRedirectUri, validateRedirectUri } from "./redirect-uri.js";

describe("validateRedirectUri", () => {
  it.each([
    "https://a.example/cb",
    "http://localhost:3000/callback",
    "http://127.0.0.1/cb",
    "http://[::1]:8080/cb",
    "https://a.example/cb?tenant=1",
    "com.example.app:/oauth2redirect",
  ])("accepts %s", (uri) => {
    expect(validateRedirectUri(uri)._unsafeUnwrap()).toBe(uri);
  });

  it.each([
    ["https://a.example/cb#f", "fragment"],
    ["https://a.example/cb#", "fragment"],
    ["javascript:alert(1)", "forbidden_scheme"],
    ["JavaScript:alert(1)", "forbidden_scheme"],
    ["data:text/html,<script>alert(1)</script>", "forbidden_scheme"],
    ["vbscript:msgbox", "forbidden_scheme"],
    ["https://user:pw@a.example/cb", "credentials"],
    ["https://a.example@evil.example/cb", "credentials"],
    ["/cb", "malformed"],
    ["", "malformed"],
    ["https://a.example/c b", "malformed"],
    ["https://a.example/cb\n", "malformed"],
    ["https://a.example/ça", "malformed"],
    ["https://", "malformed"],
    ["https:///cb", "missing_host"],
    ["http:a.example/cb", "missing_host"],
  ] as const)("refuses %j (%s)", (uri, problem) => {
    expect(validateRedirectUri(uri)._unsafeUnwrapErr()).toBe(problem);
  });
});

describe("redirectUriMatches (checklist A1)", () => {
  const registered = "https://a.example/cb";
  it("matches the exact string", () => {
    expect(redirectUriMatches(registered, "https://a.example/cb")).toBe(true);
  });

  it.each([
    "https://a.example/cb/",
    "https://a.example/cb?x=1",
    "https://a.example:8443/cb",
    "https://a.example@evil.example/cb",
    "https://a.example/cb#f",
    "https://A.example/cb",
    "http://a.example/cb",
    "https://a.example/CB",
    "https://a.example/cb%2F",
    "https://a.example:443/cb",
  ])("refuses %s", (requested) => {
    expect(redirectUriMatches(registered, requested)).toBe(false);
  });

  it.each([
    ["http://127.0.0.1/cb", "http://127.0.0.1:51234/cb"],
    ["http://127.0.0.1:8000/cb", "http://127.0.0.1:9/cb"],
    ["http://127.0.0.1:8000/cb", "http://127.0.0.1/cb"],
    ["http://[::1]/cb", "http://[::1]:60000/cb"],
    ["http://127.0.0.1:8000/cb?x=1", "http://127.0.0.1:1/cb?x=1"],
  ])("loopback %s matches %s on any port (RFC 8252 §7.3)", (reg, requested) => {
    expect(redirectUriMatches(reg, requested)).toBe(true);
  });

  it.each([
    ["http://localhost/cb", "http://localhost:5000/cb"],
    ["http://127.0.0.1/cb", "http://127.0.0.1:5000/cb/"],
    ["http://127.0.0.1/cb", "http://127.0.0.2:5000/cb"],
    ["http://127.0.0.1/cb", "https://127.0.0.1:5000/cb"],
    ["https://127.0.0.1/cb", "https://127.0.0.1:5000/cb"],
    ["http://127.0.0.1/cb", "http://127.0.0.1:99999/cb"],
    ["http://127.0.0.1/cb", "http://127.0.0.1.evil.example/cb"],
    ["http://127.0.0.1/cb", "http://127.0.0.1:80@evil.example/cb"],
    ["http://[::1]/cb", "http://127.0.0.1/cb"],
  ])("%s does not match %s", (reg, requested) => {
    expect(redirectUriMatches(reg, requested)).toBe(false);
  });
});

describe("resolveRedirectUri", () => {
  const one = ["https://a.example/cb"];
  const two = ["https://a.example/cb", "https://b.example/cb"];

  it("returns the requested URI exactly when it matches", () => {
    expect(resolveRedirectUri(two, "https://b.example/cb")._unsafeUnwrap()).toBe("https://b.example/cb");
    expect(resolveRedirectUri(["http://127.0.0.1/cb"], "http://127.0.0.1:4321/cb")._unsafeUnwrap()).toBe("http://127.0.0.1:4321/cb");
  });

  it("never falls back to a registered URI when none is sent (A3)", () => {
    expect(resolveRedirectUri(two, undefined)._unsafeUnwrapErr()).toBe("missing");
    expect(resolveRedirectUri(one, undefined)._unsafeUnwrapErr()).toBe("missing");
    expect(resolveRedirectUri(one, "")._unsafeUnwrapErr()).toBe("missing");
  });

  it("refuses a fragment even when the rest matches (A4)", () => {
    expect(resolveRedirectUri(one, "https://a.example/cb#x")._unsafeUnwrapErr()).toBe("fragment");
  });

  it("refuses an unregistered URI", () => {
    expect(resolveRedirectUri(one, "https://evil.example/cb")._unsafeUnwrapErr()).toBe("mismatch");
    expect(resolveRedirectUri([], "https://a.example/cb")._unsafeUnwrapErr()).toBe("mismatch");
  });

  it("refuses a forbidden scheme even if it was somehow registered", () => {
    expect(resolveRedirectUri(["javascript:alert(1)"], "javascript:alert(1)")._unsafeUnwrapErr()).toBe("forbidden_scheme");
  });
});
