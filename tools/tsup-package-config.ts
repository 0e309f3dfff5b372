/**
 * The one tsup configuration every publishable package builds with (`packages/<name>/tsup.config.ts`
 * is `export default packageConfig(import.meta.dirname)`):
 * - entries from the package's exports map (tsup-entries.ts), ESM and CJS, declarations for both;
 * - no source maps: the packages ship neither `src/` nor a second copy of it inside maps, and maps
 *   that point at sources not shipped only carried the build folder's absolute path (issue 24);
 *   the bundles are not minified, so stack traces stay readable;
 * - exports without a `require` condition (ESM only, such as `@forgekit/core/testing`, which needs
 *   Vitest) get no CJS bundle: nothing could load it. A package whose exports are all ESM only
 *   (`@forgekit/core`: CommonJS hosts and the other packages' CJS builds load it with Node's
 *   `require(esm)`) is built as ESM alone, with `.d.ts` declarations and no `.d.cts`.
 * `FORGEKIT_BUILD_JS_ONLY=1` skips declarations (`pnpm forgekit` only runs the code).
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Options } from "tsup";
import { entries, entryName } from "./tsup-entries.js";

interface Manifest {
  exports?: Record<string, unknown>;
}

/** Entry names (`testing/index`) of exports that have no `require` condition. */
export function esmOnlyEntries(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;
  const names: string[] = [];
  for (const target of Object.values(manifest.exports ?? {})) {
    if (typeof target !== "object" || target === null || "require" in target) continue;
    const source = (target as Record<string, unknown>)["@forgekit/source"];
    if (typeof source === "string") names.push(entryName(source));
  }
  return names;
}

export function packageConfig(packageDir: string): Options {
  const jsOnly = process.env["FORGEKIT_BUILD_JS_ONLY"] === "1";
  const entry = entries(packageDir);
  const esmOnly = esmOnlyEntries(packageDir);
  // `bin` (not an export) runs through the package's ESM shim (`bin/<name>.mjs` imports dist/bin.js).
  const dual = Object.keys(entry).some((name) => name !== "bin" && !esmOnly.includes(name));
  return {
    entry,
    format: dual ? ["esm", "cjs"] : ["esm"],
    dts: !jsOnly,
    // A JS-only build keeps the declarations a full build left (it must not strip a package that
    // check:packages is about to pack); a full build starts from an empty dist.
    clean: !jsOnly,
    target: "node20",
    sourcemap: false,
    splitting: true,
    onSuccess: () => {
      for (const name of esmOnly) {
        for (const suffix of [".cjs"]) rmSync(join(packageDir, "dist", `${name}${suffix}`), { force: true });
      }
      return Promise.resolve();
    },
  };
}
