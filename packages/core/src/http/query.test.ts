import { describe, expect, it } from "vitest";
import { decodeComponent, parseQuery } from "./query.js";

describe("parseQuery", () => {
  it("+ is a space, %2B is a plus", () => {
    expect(parseQuery("a=x+y&b=x%2By")).toEqual({ a: "x y", b: "x+y" });
  });
  it("a key without = is present with a null value; empty pairs are skipped", () => {
    expect(parseQuery("flag&&a=")).toEqual({ flag: null, a: "" });
  });
  it("the last of repeated scalar keys wins", () => {
    expect(parseQuery("a=1&a=2")).toEqual({ a: "2" });
  });
  it("name[]= arrays, name[key]= hashes, nested hashes", () => {
    expect(parseQuery("a[]=1&a[]=2&h[k]=v&h[n][m]=w")).toEqual({ a: ["1", "2"], h: { k: "v", n: { m: "w" } } });
  });
  it("name[0][key]= arrays of hashes in index order, sparse indices compacted", () => {
    expect(parseQuery("r[2][k]=c&r[0][k]=a&r[0][j]=b")).toEqual({ r: [{ k: "a", j: "b" }, { k: "c" }] });
  });
  it("name[][key]= arrays of hashes: a repeated key starts a new hash", () => {
    expect(parseQuery("s[][k]=1&s[][j]=2&s[][k]=3")).toEqual({ s: [{ k: "1", j: "2" }, { k: "3" }] });
  });
  it("encoded brackets are brackets", () => {
    expect(parseQuery("a%5B%5D=1&a%5B%5D=2")).toEqual({ a: ["1", "2"] });
  });
  it("unbalanced brackets are a literal name", () => {
    expect(parseQuery("a[b=1&[c]=2")).toEqual({ "a[b": "1", "[c]": "2" });
  });
  it("__proto__ keys are dropped and nothing reaches Object.prototype", () => {
    const out = parseQuery("__proto__[x]=1&a[__proto__][y]=2&ok=1");
    expect(out).toEqual({ ok: "1" });
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
  it("malformed escapes stay literal, valid ones around them decode", () => {
    expect(decodeComponent("%zz%20x%E2%82%AC%E2")).toBe("%zz x€%E2");
  });
  it("a scalar then a nested key replaces the scalar", () => {
    expect(parseQuery("a=1&a[b]=2")).toEqual({ a: { b: "2" } });
  });
  it("too deep nesting is ignored", () => {
    expect(parseQuery(`a${"[x]".repeat(20)}=1&b=2`)).toEqual({ b: "2" });
  });
});
