/**
 * The one tsup configuration every publishable package builds with (`packages/<name>/tsup.config.ts`
 * is `export default packageConfig(import.meta.dirname)`):
 * - entries from the package's exports map (tsup-entries.ts), ESM and CJS, declarations for both;
 * - source maps without `sourcesContent`: stack traces still map to the TypeScript file and line,
 *   without shipping a second copy of every source (the packages do not ship `src/` either);
 * - exports without a `require` condition (ESM only, such as `@forgekit/core/testing`, which needs
 *   Vitest) get no CJS bundle: nothing could load it.
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
  return {
    entry: entries(packageDir),
    format: ["esm", "cjs"],
    dts: !jsOnly,
    // A JS-only build keeps the declarations a full build left (it must not strip a package that
    // check:packages is about to pack); a full build starts from an empty dist.
    clean: !jsOnly,
    target: "node20",
    sourcemap: true,
    splitting: true,
    esbuildOptions(options) {
      options.sourcesContent = false;
    },
    onSuccess: () => {
      for (const name of esmOnlyEntries(packageDir)) {
        for (const suffix of [".cjs", ".cjs.map"]) rmSync(join(packageDir, "dist", `${name}${suffix}`), { force: true });
      }
      return Promise.resolve();
    },
  };
}
