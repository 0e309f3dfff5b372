import { expect, it } from "vitest";
import { backoffDelayMs } from "./backoff.js";

it("backoffDelayMs - doubles from the base per attempt and stops at the cap", () => {
  expect([1, 2, 3, 4].map((n) => backoffDelayMs(n))).toEqual([1000, 2000, 4000, 8000]);
  expect(backoffDelayMs(3, { baseMs: 500, factor: 3 })).toBe(4500);
  expect(backoffDelayMs(40)).toBe(60 * 60 * 1000);
  expect(backoffDelayMs(5000, { maxMs: 10 })).toBe(10);
  expect(backoffDelayMs(0)).toBe(1000);
});
