import { describe, expect, it } from "vitest";
import { describeScope, formatScopes, OAUTH_SCOPES, parseScopeParam, resolveScopes, SCOPE_DESCRIPTIONS, validateApplicationScopes } from "./scopes.js";

describe("parseScopeParam", () => {
  it("splits on spaces, drops empty pieces and duplicates, keeps order", () => {
    expect(parseScopeParam("api read_user")._unsafeUnwrap()).toEqual(["api", "read_user"]);
    expect(parseScopeParam("  read_user  api read_user ")._unsafeUnwrap()).toEqual(["read_user", "api"]);
  });

  it("treats absent and blank as no scope", () => {
    expect(parseScopeParam(undefined)._unsafeUnwrap()).toBeNull();
    expect(parseScopeParam("")._unsafeUnwrap()).toBeNull();
    expect(parseScopeParam("   ")._unsafeUnwrap()).toBeNull();
  });

  it.each(["api\tread_user", "api\nread_user", 'api "x"', "api\\x", "apí"])("refuses %j", (value) => {
    expect(parseScopeParam(value).isErr()).toBe(true);
  });
});

describe("resolveScopes", () => {
  const app = ["api", "read_user", "openid"];

  it("grants requested scopes that the application allows", () => {
    expect(resolveScopes("read_user openid", app)._unsafeUnwrap()).toEqual(["read_user", "openid"]);
  });

  it("defaults to api intersected with the application's scopes", () => {
    expect(resolveScopes(undefined, app)._unsafeUnwrap()).toEqual(["api"]);
    expect(resolveScopes("", app)._unsafeUnwrap()).toEqual(["api"]);
  });

  it("gives invalid_scope when the default does not intersect", () => {
    expect(resolveScopes(undefined, ["read_user"])._unsafeUnwrapErr()).toMatchObject({ code: "invalid_scope" });
  });

  it.each(["write_repository", "api sudo", "unknown_scope", "api\tread_user"])("gives invalid_scope for %j", (requested) => {
    expect(resolveScopes(requested, app)._unsafeUnwrapErr()).toEqual({
      code: "invalid_scope",
      description: "The requested scope is invalid, unknown, or malformed.",
    });
  });

  it("refuses names the application lists but the provider does not know", () => {
    expect(resolveScopes("made_up", ["made_up"]).isErr()).toBe(true);
  });
});

describe("application scopes and descriptions", () => {
  it("accepts known scopes and removes duplicates", () => {
    expect(validateApplicationScopes(["api", "openid", "api"])._unsafeUnwrap()).toEqual(["api", "openid"]);
  });

  it("names the unknown scopes, and refuses an empty list", () => {
    expect(validateApplicationScopes(["api", "nope", "also_no"])._unsafeUnwrapErr()).toEqual(["nope", "also_no"]);
    expect(validateApplicationScopes([])._unsafeUnwrapErr()).toEqual([]);
  });

  it("describes every known scope in words", () => {
    for (const scope of OAUTH_SCOPES) expect(SCOPE_DESCRIPTIONS[scope].length).toBeGreaterThan(10);
    expect(describeScope("read_repository")).toBe("Read (pull and clone) the repositories you can reach.");
    expect(describeScope("x_custom")).toBe("x_custom");
  });

  it("formats scopes as one space-separated string", () => {
    expect(formatScopes(["api", "read_user"])).toBe("api read_user");
  });
});
