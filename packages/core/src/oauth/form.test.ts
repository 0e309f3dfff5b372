import { describe, expect, it } from "vitest";
import { formParam, formParams, formUrlDecode, readOAuthForm } from "./form.js";

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
