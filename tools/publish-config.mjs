#!/usr/bin/env node
/**
 * What a packed package's manifest says instead of the workspace's (pnpm applies `publishConfig`
 * when it packs or publishes): the `exports` map without the `@forgekit/source` condition, which
 * points into `src/` — the workspace's way to run and test from source, and not shipped.
 * `node tools/publish-config.mjs --write` brings every package's `publishConfig.exports` in line
 * with its `exports`; tools/publish-config.test.ts fails when one is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { workspacePackages } from "./workspace-packages.mjs";

export const SOURCE_CONDITION = "@forgekit/source";

/** `exports` with the source condition removed from every entry. */
export function publishedExports(exports) {
  return Object.fromEntries(
    Object.entries(exports ?? {}).map(([subpath, target]) => {
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
    manifest.publishConfig = { ...manifest.publishConfig, exports: publishedExports(manifest.exports) };
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(`publishConfig.exports written: ${pkg.name}`);
  }
}
