/** Release webhook payload pieces that the delivery suite does not reach (reference `Commit#title`). */
import { describe, expect, it } from "vitest";
import { commitTitle } from "./hook.js";

describe("commitTitle (the commit block of a Release Hook)", () => {
  it("is the first line of the message", () => {
    expect(commitTitle("Release v1.1\n\nWith notes")).toBe("Release v1.1");
    expect(commitTitle("One\r\nTwo")).toBe("One");
  });

  it("a blank message reads 'No commit message'", () => {
    expect(commitTitle("  \n")).toBe("No commit message");
  });

  it("a first line of 100 characters or more is cut at a word to 80 characters plus …", () => {
    const line = `${"word ".repeat(19)}tail${"x".repeat(30)}`;
    expect(line.length).toBeGreaterThanOrEqual(100);
    expect(commitTitle(line)).toBe(`${"word ".repeat(16).trimEnd()}…`);
    expect(commitTitle("x".repeat(120))).toBe(`${"x".repeat(80)}…`);
    expect(commitTitle("y".repeat(99))).toBe("y".repeat(99));
  });
});
