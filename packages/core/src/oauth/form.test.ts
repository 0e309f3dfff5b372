import { describe, expect, it } from "vitest";
import { formParam, formParams, formUrlDecode, OAUTH_PARAM_MAX_LENGTHS, readOAuthForm } from "./form.js";

const FORM = "application/x-www-form-urlencoded";
const bytes = (s: string) => new TextEncoder().encode(s);

describe("formParam", () => {
  it("returns the single value, undefined for absent or empty, invalid_request when repeated", () => {
    const form = new URLSearchParams("a=1&b=&c=x&c=y");
    expect(formParam(form, "a")._unsafeUnwrap()).toBe("1");
    expect(formParam(form, "b")._unsafeUnwrap()).toBeUndefined();
    expect(formParam(form, "z")._unsafeUnwrap()).toBeUndefined();
    expect(formParam(form, "c")._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
  });

  it("refuses a value longer than its parameter's limit with invalid_request (issue 8)", () => {
    for (const [name, max] of Object.entries(OAUTH_PARAM_MAX_LENGTHS)) {
      expect(formParam(new URLSearchParams({ [name]: "a".repeat(max) }), name)._unsafeUnwrap()).toHaveLength(max);
      expect(formParam(new URLSearchParams({ [name]: "a".repeat(max + 1) }), name)._unsafeUnwrapErr()).toEqual({
        code: "invalid_request",
        description: `Parameter too long: ${name} (at most ${max} characters).`,
      });
    }
    expect(OAUTH_PARAM_MAX_LENGTHS).toMatchObject({ username: 255, client_id: 255, scope: 1024, redirect_uri: 2000 });
    // Unlisted parameters (state may carry a client's JWT) are bounded only by the body limit.
    expect(formParam(new URLSearchParams({ state: "s".repeat(5000) }), "state")._unsafeUnwrap()).toHaveLength(5000);
  });

  it("reads several names, stopping at a repeated one", () => {
    expect(formParams(new URLSearchParams("a=1&b=2"), ["a", "b", "c"])._unsafeUnwrap()).toEqual({ a: "1", b: "2" });
    expect(formParams(new URLSearchParams("a=1&a=2"), ["a"]).isErr()).toBe(true);
  });
});

describe("formUrlDecode", () => {
  it("decodes + and percent escapes, refusing malformed escapes", () => {
    expect(formUrlDecode("a+b%2Bc%C3%A9")._unsafeUnwrap()).toBe("a b+cé");
    expect(formUrlDecode("%E0%A4%A")._unsafeUnwrapErr()).toBe("malformed");
  });
});

describe("readOAuthForm (checklist B1)", () => {
  it("decodes a form body, with or without a charset parameter", () => {
    const form = readOAuthForm({ headers: { "content-type": `${FORM}; charset=UTF-8` }, body: bytes("grant_type=password&scope=api+read_user") });
    expect(form._unsafeUnwrap().get("scope")).toBe("api read_user");
  });

  it("accepts a body the host already parsed", () => {
    const form = readOAuthForm({ headers: { "content-type": FORM }, parsedBody: { code: "c", n: 1, list: ["a", "b"] } })._unsafeUnwrap();
    expect(form.get("code")).toBe("c");
    expect(form.get("n")).toBe("1");
    expect(form.getAll("list")).toEqual(["a", "b"]);
  });

  it("gives an empty form when there is no body", () => {
    expect([...readOAuthForm({ headers: { "content-type": FORM } })._unsafeUnwrap()]).toEqual([]);
  });

  it.each([
    ["JSON", { "content-type": "application/json" }],
    ["no content type", {}],
    ["multipart", { "content-type": "multipart/form-data; boundary=x" }],
  ])("refuses %s with invalid_request", (_label, headers) => {
    expect(readOAuthForm({ headers, body: bytes("a=1") })._unsafeUnwrapErr()).toMatchObject({ code: "invalid_request" });
  });

  it("refuses invalid UTF-8 and nested parsed values", () => {
    expect(readOAuthForm({ headers: { "content-type": FORM }, body: new Uint8Array([0x61, 0x3d, 0xff]) }).isErr()).toBe(true);
    expect(readOAuthForm({ headers: { "content-type": FORM }, parsedBody: { a: { b: "c" } } }).isErr()).toBe(true);
  });
});
