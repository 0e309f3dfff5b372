import { describe, expect, it } from "vitest";
import { checkUnmodifiedSince } from "./conditional.js";
import type { HttpRequest } from "./types.js";

const req = (value?: string): HttpRequest => ({ method: "DELETE", path: "/", rawQuery: "", headers: value === undefined ? {} : { "if-unmodified-since": value } });
const updatedAt = new Date("2024-05-01T12:00:00.750Z");

describe("checkUnmodifiedSince", () => {
  it("changed after the header → 412 precondition_failed", () => {
    expect(checkUnmodifiedSince(req("Wed, 01 May 2024 11:59:59 GMT"), updatedAt)._unsafeUnwrapErr()).toEqual({ code: "precondition_failed" });
  });
  it("compared at second precision: a change within the header's second passes", () => {
    expect(checkUnmodifiedSince(req("Wed, 01 May 2024 12:00:00 GMT"), updatedAt).isOk()).toBe(true);
  });
  it("absent, blank or unparseable header is ignored", () => {
    for (const v of [undefined, "", "  ", "garbage"]) expect(checkUnmodifiedSince(req(v), updatedAt).isOk()).toBe(true);
  });
});
