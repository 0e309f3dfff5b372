/**
 * TSDoc on every public export (issue 13): each entry of each package's exports map is walked with
 * the TypeScript compiler API, and every exported name must carry a `/** … *\/` comment with text.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publicEntries, publicExports, publicMembers } from "./public-docs.js";

describe("public exports", () => {
  it("the entries are every package's exports map, including @forgekit/core/internal", () => {
    const entries = [...publicEntries().keys()];
    expect(entries).toEqual(
      expect.arrayContaining(["@forgekit/core", "@forgekit/core/internal", "@forgekit/core/testing", "@forgekit/core/node", "@forgekit/core/memory", "@forgekit/store-kysely", "@forgekit/cli"]),
    );
  });

  it("every export of every public entry carries TSDoc", () => {
    const all = publicExports();
    const missing = all.filter((e) => !e.documented).map((e) => `${e.entry} ${e.name} (${e.declaredAt})`);
    console.log(`public-docs: ${all.length - missing.length} of ${all.length} exports documented`);
    expect(all.length).toBeGreaterThan(500);
    expect(missing).toEqual([]);
  });

  it("reports how many members of the host-facing interfaces are documented", () => {
    const members = publicMembers();
    console.log(`public-docs: members of exported interfaces: ${members.filter((m) => m.documented).length} of ${members.length} documented`);
    expect(members.find((m) => m.name === "Clock.now")?.documented).toBe(true);
  });
});

describe("publicExports", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-public-docs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("tells documented exports from undocumented ones, through re-exports, and does not count a file header", () => {
    writeFileSync(
      join(dir, "things.ts"),
      [
        "/** The file's header. */",
        "",
        "export type Bare = string;",
        "/** A documented constant. */",
        "export const documented = 1;",
        "// a line comment is not TSDoc",
        "export function commented(): void {}",
        "/** */",
        "export interface Empty {}",
        "/** Members: one documented, one not. */",
        "export interface Pair {",
        "  /** The left one. */",
        "  left: number;",
        "  right: number;",
        "}",
      ].join("\n"),
    );
    writeFileSync(join(dir, "entry.ts"), 'export * from "./things.js";\nexport { documented as alias } from "./things.js";\n');
    const found = publicExports(new Map([["fixture", join(dir, "entry.ts")]]));
    expect(Object.fromEntries(found.map((e) => [e.name, e.documented]))).toEqual({
      alias: true,
      Bare: false,
      commented: false,
      documented: true,
      Empty: false,
      Pair: true,
    });
    const members = publicMembers(new Map([["fixture", join(dir, "entry.ts")]]));
    expect(members).toEqual([
      { name: "Pair.left", documented: true },
      { name: "Pair.right", documented: false },
    ]);
  });
});
