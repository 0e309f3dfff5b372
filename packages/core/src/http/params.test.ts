import { describe, expect, it } from "vitest";
import * as z from "zod";
import { NO_RECORD_ID } from "../ids.js";
import { idOrPath, MAX_RECORD_ID, p, paramError, parseBoolean, parseParams, recordIdFrom } from "./params.js";
import { renderError } from "./render-error.js";

const body = (e: Parameters<typeof renderError>[0]) => JSON.parse(renderError(e).body as string) as unknown;

describe("param types", () => {
  it("p.bool accepts the reference's spellings and real booleans; null and others are invalid", () => {
    for (const v of ["1", "on", "On", "ON", "t", "true", "True", "TRUE", "T", "y", "yes", "Yes", "YES", "Y", true, 1]) expect(parseBoolean(v)).toBe(true);
    for (const v of ["0", "off", "Off", "OFF", "f", "false", "False", "FALSE", "F", "n", "no", "No", "NO", "N", false, 0]) expect(parseBoolean(v)).toBe(false);
    for (const v of [null, "", "tRuE", "2", 2, [], {}]) expect(parseBoolean(v)).toBeNull();
  });

  it("p.int takes integers and decimal strings; decimals, blanks and huge values are invalid", () => {
    const s = p.int();
    expect(s.parse("42")).toBe(42);
    expect(s.parse(-3)).toBe(-3);
    for (const v of ["1.5", "", "1e3", 1.5, "99999999999999999", null]) expect(s.safeParse(v).success).toBe(false);
  });

  it("p.string converts JSON numbers and booleans, refuses objects; allowBlank:false → is empty; pattern → is invalid", () => {
    expect(p.string().parse(5)).toBe("5");
    expect(p.string().safeParse({}).success).toBe(false);
    const schema = z.object({ title: p.string({ allowBlank: false }), ref: p.string({ pattern: /^[a-z]+$/ }).optional() });
    expect(body(parseParams(schema)({ title: " " })._unsafeUnwrapErr())).toEqual({ error: "title is empty" });
    expect(body(parseParams(schema)({ title: "t", ref: "A1" })._unsafeUnwrapErr())).toEqual({ error: "ref is invalid" });
  });

  it("p.date takes real calendar dates only", () => {
    expect(p.date().parse("2024-02-29")).toBe("2024-02-29");
    for (const v of ["2023-02-29", "2024-13-01", "2024-1-01", "20240101"]) expect(p.date().safeParse(v).success).toBe(false);
  });

  it("p.datetime takes ISO 8601 and normalises to UTC", () => {
    expect(p.datetime().parse("2024-01-01T10:00:00+02:00")).toBe("2024-01-01T08:00:00.000Z");
    expect(p.datetime().parse("2024-01-01T10:00:00.5Z")).toBe("2024-01-01T10:00:00.500Z");
    expect(p.datetime().parse("2024-01-01")).toBe("2024-01-01T00:00:00.000Z");
    for (const v of ["2024-01-01T10:00:00 02:00", "yesterday", "2024-02-30T00:00:00Z", 5]) expect(p.datetime().safeParse(v).success).toBe(false);
  });

  it("p.id: digits → number, a full path → string, empty → invalid", () => {
    expect(p.id().parse("12")).toBe(12);
    expect(p.id().parse("grp/proj")).toBe("grp/proj");
    expect(p.id().safeParse("").success).toBe(false);
  });

  it("p.enum → does not have a valid value", () => {
    const schema = z.object({ level: p.enum(["watch", "global"]) });
    expect(parseParams(schema)({ level: "global" })._unsafeUnwrap()).toEqual({ level: "global" });
    expect(body(parseParams(schema)({ level: "loud" })._unsafeUnwrapErr())).toEqual({ error: "level does not have a valid value" });
  });
});

describe("parseParams", () => {
  const schema = z.object({
    title: p.string(),
    count: p.int().optional(),
    labels: p.array(p.string()).default([]),
    nested: z.object({ a: p.int() }).optional(),
  });

  it("valid params are coerced, defaults applied, unknown keys dropped", () => {
    expect(parseParams(schema)({ title: "t", count: "3", extra: "x" })._unsafeUnwrap()).toEqual({ title: "t", count: 3, labels: [] });
  });

  it("a missing required parameter → missing_param (400 (Bad request) \"title\" not given)", () => {
    const e = parseParams(schema)({ count: "x" })._unsafeUnwrapErr();
    expect(e).toEqual({ code: "missing_param", param: "title" });
    expect(body(e)).toEqual({ message: '400 (Bad request) "title" not given' });
  });

  it("type errors → invalid_param, several joined with \", \", nested names in brackets", () => {
    const e = parseParams(schema)({ title: "t", count: "x", labels: "y", nested: { a: "z" } })._unsafeUnwrapErr();
    expect(body(e)).toEqual({ error: "count is invalid, labels is invalid, nested[a] is invalid" });
  });

  it("paramError with no issues is a plain 400", () => {
    expect(body(paramError([]))).toEqual({ message: "400 Bad request" });
  });
});

describe("record ids (32-bit in every store)", () => {
  const id = parseParams(z.object({ id: p.id() }));
  const rid = parseParams(z.object({ id: p.recordId() }));
  it("p.id keeps ids within the range as numbers and turns what can name nothing into NO_RECORD_ID", () => {
    expect(id({ id: String(MAX_RECORD_ID) })._unsafeUnwrap()).toEqual({ id: MAX_RECORD_ID });
    for (const v of [String(MAX_RECORD_ID + 1), "-2147483649", "4294967296", 2 ** 31, "\u0000", "grp/\u0000", "a\u0000b"]) {
      expect(id({ id: v })._unsafeUnwrap()).toEqual({ id: NO_RECORD_ID });
    }
    // Digits past a safe integer are not an integer: text, looked up as a path (compared, never stored).
    expect(id({ id: "99999999999999999999" })._unsafeUnwrap()).toEqual({ id: "99999999999999999999" });
    expect(idOrPath("")).toBeNull();
    expect(idOrPath({})).toBeNull();
  });
  it("p.string refuses text no store can hold (NUL) as invalid, wherever it sits", () => {
    const schema = parseParams(z.object({ search: p.string().optional(), tags: p.array(p.string()).optional() }));
    expect(schema({ search: "a\u0000" })._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "search", reason: "is invalid" });
    expect(schema({ tags: ["ok", "\u0000"] })._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "tags", reason: "is invalid" });
    expect(schema({ search: "\ud800 é 😀" })._unsafeUnwrap()).toEqual({ search: "\ud800 é 😀" });
  });
  it("p.recordId refuses ids beyond the range as invalid", () => {
    expect(rid({ id: "7" })._unsafeUnwrap()).toEqual({ id: 7 });
    expect(rid({ id: String(MAX_RECORD_ID + 1) })._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "id", reason: "is invalid" });
  });
  it("recordIdFrom reads only digit strings within the range", () => {
    expect(recordIdFrom("42")).toBe(42);
    expect(recordIdFrom(String(MAX_RECORD_ID + 1))).toBeNull();
    expect(recordIdFrom("99999999999999999999")).toBeNull();
    expect(recordIdFrom("4x")).toBeNull();
  });
});
