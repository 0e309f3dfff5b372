import * as z from "zod";
import { describe, expect, it } from "vitest";
import { deepStrict, schemaIssues } from "./schema-check.js";

describe("deepStrict / schemaIssues", () => {
  const inner = z.object({ a: z.number() });
  const schema = z.object({ one: inner.nullable().optional(), many: z.array(inner), either: z.union([z.string(), inner]), byKey: z.record(z.string(), inner) }).meta({ description: "x" });
  const good = { one: { a: 1 }, many: [{ a: 2 }], either: { a: 3 }, byKey: { k: { a: 4 } } };

  it("accepts a value with exactly the fields", () => {
    expect(schemaIssues(schema, good)).toEqual([]);
    expect(schemaIssues(schema, { ...good, one: null })).toEqual([]);
  });

  it("reports unknown keys at every depth and missing ones", () => {
    expect(schemaIssues(schema, { ...good, extra: 1 })).toHaveLength(1);
    expect(schemaIssues(schema, { ...good, one: { a: 1, b: 2 } })[0]).toMatch(/^one: .*\["b"\]/);
    expect(schemaIssues(schema, { ...good, many: [{ a: 1, b: 2 }] })[0]).toMatch(/^many\.0:/);
    expect(schemaIssues(schema, { ...good, either: { a: 1, b: 2 } })).not.toEqual([]);
    expect(schemaIssues(schema, { ...good, byKey: { k: { a: 1, b: 2 } } })).not.toEqual([]);
    expect(schemaIssues(schema, { one: { a: 1 }, many: [], either: "x" })[0]).toMatch(/^byKey:/);
  });

  it("leaves the schema it was given as it was", () => {
    deepStrict(schema);
    expect(schema.safeParse({ ...good, extra: 1 }).success).toBe(true);
  });
});
