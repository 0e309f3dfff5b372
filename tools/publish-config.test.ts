/** The packed manifests (issue 13 "Packages"): publishConfig.exports in line with exports, no sources shipped. */
import { describe, expect, it } from "vitest";
import { publishedExports, SOURCE_CONDITION, WORKSPACE_ONLY_EXPORTS } from "./publish-config.mjs";
import { workspacePackages } from "./workspace-packages.mjs";

describe("publishedExports", () => {
  it("drops the source condition and keeps everything else", () => {
    const exports = { ".": { [SOURCE_CONDITION]: "./src/index.ts", import: { types: "./dist/index.d.ts", default: "./dist/index.js" } }, "./package.json": "./package.json" };
    expect(publishedExports(exports)).toEqual({ ".": { import: { types: "./dist/index.d.ts", default: "./dist/index.js" } }, "./package.json": "./package.json" });
  });

  it("leaves workspace-only subpaths out", () => {
    const exports = { ".": { import: "./dist/index.js" }, "./testing": { [SOURCE_CONDITION]: "./src/testing/index.ts", import: "./dist/testing/index.js" } };
    expect(publishedExports(exports, ["./testing"])).toEqual({ ".": { import: "./dist/index.js" } });
  });
});

describe.each(workspacePackages().map((pkg) => [pkg.name, pkg] as const))("%s", (_name, pkg) => {
  it("packs an exports map without the source condition (run `node tools/publish-config.mjs --write` after changing exports)", () => {
    const publishConfig = pkg.manifest["publishConfig"] as { exports?: unknown } | undefined;
    expect(publishConfig?.exports).toEqual(publishedExports(pkg.manifest["exports"] as Record<string, unknown>, WORKSPACE_ONLY_EXPORTS[pkg.name]));
  });

  it("leaves the build of its workspace-only exports out of `files`", () => {
    const files = pkg.manifest["files"] as string[];
    for (const subpath of WORKSPACE_ONLY_EXPORTS[pkg.name] ?? []) expect(files).toContain(`!dist/${subpath.slice(2)}`);
  });

  it("ships its build, not its sources", () => {
    const files = pkg.manifest["files"] as string[];
    expect(files).toContain("dist");
    expect(files.filter((f) => f.startsWith("src") || f.startsWith("!src"))).toEqual([]);
  });
});
