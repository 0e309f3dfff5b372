/**
 * Holds an entity to its table in docs/entities.md (issue 19 §1): every rendered key is listed with
 * the kind of its source, and every field whose kind is not `fixed` differs between two
 * differently-made records of the entity while the `fixed` ones are equal — so a listed fact that
 * is really a constant, or a constant that is really a fact, fails the test. Test support only
 * (reads the repository's docs folder), not exported from `@forgekit/core/testing`.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import type { TestForgekit } from "./fixtures.js";

type Json = Record<string, unknown>;

/** The kinds of source a field may have (the first word of its row's second cell). */
export const SOURCE_KINDS = ["stored", "computed", "counted", "derived", "caller", "fixed"] as const;

/** One documented field (or `prefix_*` pattern) and the kind of its source. */
export interface DocumentedField {
  field: string;
  source: string;
}

/** The rows of the table under `## <heading>` (up to the next `## `) in docs/entities.md. */
export function documentedFields(heading: string): DocumentedField[] {
  const text = readFileSync(new URL("../../../../docs/entities.md", import.meta.url), "utf8");
  const start = text.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/entities.md has no section "## ${heading}"`);
  const rest = text.slice(start + 3);
  const end = rest.indexOf("\n## ");
  const section = end < 0 ? rest : rest.slice(0, end);
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => {
    const [fields = "", source = ""] = row.split("|").slice(1, 3);
    const kind = source.trim().split(/[\s:(]/)[0] ?? "";
    return [...fields.matchAll(/`([a-z_.*]+)`/g)].map((m) => ({ field: (m[1] ?? "").split(".")[0] ?? "", source: kind }));
  });
}

const matches = (pattern: string, key: string) => (pattern.endsWith("*") ? key.startsWith(pattern.slice(0, -1)) : pattern === key);

/** Every key of the records is listed under `heading`, with a known kind of source. */
export function expectEveryKeyDocumented(heading: string, ...records: Json[]): void {
  const documented = documentedFields(heading);
  const missing = [...new Set(records.flatMap((r) => Object.keys(r)))].filter((key) => !documented.some((d) => matches(d.field, key)));
  expect(missing).toEqual([]);
  for (const { field, source } of documented) expect([field, source, (SOURCE_KINDS as readonly string[]).includes(source)]).toEqual([field, source, true]);
}

/**
 * Every field listed under `heading` is rendered by one of the records; the ones not `fixed` differ
 * between some two of them, the `fixed` ones are the same in all.
 */
export function expectOnlyFixedFieldsEqual(heading: string, ...records: Json[]): void {
  const same = (key: string) => new Set(records.map((r) => JSON.stringify(r[key]))).size === 1;
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  for (const { field, source } of documentedFields(heading)) {
    const rendered = keys.filter((key) => matches(field, key));
    expect([field, rendered.length > 0]).toEqual([field, true]);
    for (const key of rendered) expect([key, source, same(key)]).toEqual([key, source, source === "fixed"]);
  }
}

/**
 * The two cases every entity's table test has, inside its `describe`: `records()` gives the
 * differently-made records (two or more, read after the describe's `beforeAll`), `noun` names them
 * in the titles. Where one pair cannot differ in every field (a merge request is merged, closed or
 * open, and its fields follow), a third record covers the rest.
 */
export function itHoldsTheEntityToItsTable(heading: string, noun: string, records: () => Json[]): void {
  it(`every key of a rendered ${noun} is listed with its source`, () => {
    expectEveryKeyDocumented(heading, ...records());
  });
  it(`no field listed as stored, computed, counted, derived or the caller's is the same for every ${noun}; fixed ones are`, () => {
    expectOnlyFixedFieldsEqual(heading, ...records());
  });
}

/** One `/api/v4` request through `t.fk.handle` as `token` (anonymous when undefined; a JSON body when given): its status and parsed JSON. */
export async function callApi(t: TestForgekit, method: string, path: string, token: string | undefined, json?: Json): Promise<{ status: number; json: Json }> {
  const r = await t.fk.handle({
    method,
    path: `/api/v4${path}`,
    rawQuery: "",
    headers: { ...(token === undefined ? {} : { "private-token": token }), ...(json === undefined ? {} : { "content-type": "application/json" }) },
    ...(json === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(json)) }),
  });
  return { status: r.status, json: JSON.parse(String(r.body)) as Json };
}
