import { describe, expect, it } from "vitest";
import { closest, editDistance } from "./suggest.js";

describe("editDistance", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("migrate", "migrate")).toBe(0);
    expect(editDistance("migrat", "migrate")).toBe(1);
    expect(editDistance("usernme", "username")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("closest", () => {
  it("names the nearest candidate when it is a plausible typo", () => {
    expect(closest("pasword", ["password", "name", "email"])).toBe("password");
    expect(closest("EMAIL", ["password", "email"])).toBe("email");
  });

  it("names nothing when every candidate is far away", () => {
    expect(closest("frobnicate", ["migrate", "worker"])).toBeUndefined();
    expect(closest("x", ["json", "help"])).toBeUndefined();
    expect(closest("a", [])).toBeUndefined();
  });
});
