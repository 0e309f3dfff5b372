#!/usr/bin/env node
/**
 * What a packed package's manifest says instead of the workspace's (pnpm applies `publishConfig`
 * when it packs or publishes): the `exports` map without the `@forgekit/source` condition, which
 * points into `src/` — the workspace's way to run and test from source, and not shipped.
 * Exports listed in {@link WORKSPACE_ONLY_EXPORTS} are left out of the packed map (and their dist
 * folder out of `files`): `@forgekit/core/testing` (the conformance and HTTP suites, fixtures and
 * import stand-ins, 1.5 MB) is for the workspace's own tests until it becomes a package of its own.
 * `node tools/publish-config.mjs --write` brings every package's `publishConfig.exports` in line
 * with its `exports`; tools/publish-config.test.ts fails when one is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { workspacePackages } from "./workspace-packages.mjs";

export const SOURCE_CONDITION = "@forgekit/source";

/** Per package, the export subpaths that stay in the workspace (not packed, not published). */
export const WORKSPACE_ONLY_EXPORTS = { "@forgekit/core": ["./testing"] };

/** `exports` with the source condition removed from every entry, less `workspaceOnly` subpaths. */
export function publishedExports(exports, workspaceOnly = []) {
  return Object.fromEntries(
    Object.entries(exports ?? {}).filter(([subpath]) => !workspaceOnly.includes(subpath)).map(([subpath, target]) => {
      if (typeof target !== "object" || target === null) return [subpath, target];
      const { [SOURCE_CONDITION]: _source, ...rest } = target;
      return [subpath, rest];
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv.includes("--write")) {
  for (const pkg of workspacePackages()) {
    const path = join(pkg.dir, "package.json");
    const manifest = JSON.parse(readFileSync(path, "utf8"));
    manifest.publishConfig = { ...manifest.publishConfig, exports: publishedExports(manifest.exports, WORKSPACE_ONLY_EXPORTS[pkg.name]) };
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(`publishConfig.exports written: ${pkg.name}`);
  }
}
