/**
 * tsup entry points of one workspace package, read from its package.json so the exports map is the
 * single source of truth: every export's `@forgekit/source` target (`./src/<x>.ts`) becomes the entry
 * `<x>` (built to `dist/<x>.js`, `dist/<x>.cjs` and their `.d.ts` / `.d.cts`), and a package with a
 * `bin` also gets `src/bin.ts`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SOURCE_CONDITION = "@forgekit/source";

interface PackageJson {
  name?: string;
  exports?: Record<string, unknown>;
  bin?: string | Record<string, string>;
}

/** Maps a `./src/<x>.ts` source path to its entry name `<x>`; throws on anything else. */
export function entryName(sourcePath: string): string {
  const match = /^\.\/src\/(.+)\.ts$/.exec(sourcePath);
  if (match?.[1] === undefined) {
    throw new Error(`export source "${sourcePath}" must look like ./src/<name>.ts`);
  }
  return match[1];
}

/** The entry map (`name → ./src/name.ts`) for the package in `packageDir`. */
export function entries(packageDir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as PackageJson;
  const result: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target !== "object" || target === null) continue; // e.g. "./package.json"
    const source = (target as Record<string, unknown>)[SOURCE_CONDITION];
    if (typeof source !== "string") {
      throw new Error(`${pkg.name ?? packageDir}: export "${subpath}" has no "${SOURCE_CONDITION}" condition`);
    }
    result[entryName(source)] = source;
  }
  if (pkg.bin !== undefined) result["bin"] = "./src/bin.ts";
  for (const source of Object.values(result)) {
    if (!existsSync(join(packageDir, source))) {
      throw new Error(`${pkg.name ?? packageDir}: entry ${source} does not exist`);
    }
  }
  return result;
}
