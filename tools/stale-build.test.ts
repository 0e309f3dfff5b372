import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stale } from "./stale-build.mjs";

const dir = mkdtempSync(join(tmpdir(), "forgekit-stale-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A package whose files all have the time `t` (seconds), and a build at `built` (or none). */
function pkg(name: string, t: number, built?: number) {
  const p = join(dir, name);
  mkdirSync(join(p, "src", "deep"), { recursive: true });
  const files = [join(p, "package.json"), join(p, "tsup.config.ts"), join(p, "src", "index.ts"), join(p, "src", "deep", "a.ts")];
  for (const f of files) {
    writeFileSync(f, "x");
    utimesSync(f, t, t);
  }
  if (built !== undefined) {
    mkdirSync(join(p, "dist"), { recursive: true });
    writeFileSync(join(p, "dist", "index.js"), "x");
    utimesSync(join(p, "dist", "index.js"), built, built);
  }
  return p;
}

describe("stale", () => {
  it("is stale without a build", () => {
    expect(stale(pkg("never-built", 1000))).toBe(true);
  });

  it("is fresh when the build is newer than every source", () => {
    expect(stale(pkg("fresh", 1000, 2000))).toBe(false);
  });

  it("is stale when a nested source, the manifest or the build config changed after the build", () => {
    for (const file of [["src", "deep", "a.ts"], ["package.json"], ["tsup.config.ts"]]) {
      const p = pkg(`changed-${file.join("-")}`, 1000, 2000);
      utimesSync(join(p, ...file), 3000, 3000);
      expect(stale(p)).toBe(true);
    }
  });

  it("ignores test files", () => {
    const p = pkg("test-only", 1000, 2000);
    writeFileSync(join(p, "src", "x.test.ts"), "x");
    utimesSync(join(p, "src", "x.test.ts"), 3000, 3000);
    expect(stale(p)).toBe(false);
  });
});
