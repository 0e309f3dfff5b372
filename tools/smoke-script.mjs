/**
 * The dist smoke test both package checks run in a plain `node` child process (argv[1]: JSON
 * `[dualSpecifiers, esmOnlySpecifiers, requireEsmSpecifiers]` from {@link smokeGroups}, resolved
 * from the working directory): `import()` of every entry; `require()` of the dual ones with the same
 * export names as ESM; and `require()` of the ESM-only entries that a `default` condition opens to
 * CommonJS (`@forgekit/core`), which Node loads with `require(esm)` and must give the very module
 * `import()` gave (one instance, no second copy). For `@forgekit/core`, every build also copies and
 * verifies a repository with a git binary that does not exist: only the file workers, which run
 * code from its source text (repositories/file-work.ts), can pass that, so a build that breaks their
 * code fails here.
 */

/**
 * The smoke test's three lists of specifiers for the package `name` with the exports map `exports`
 * (`./package.json` and subpaths `skip` names left out): dual (a `require` condition), ESM-only
 * import() alone (`import` conditions only), ESM-only reachable by require() (a `default` condition).
 * @param {string} name
 * @param {Record<string, unknown>} exports
 * @param {(subpath: string) => boolean} [skip]
 * @returns {[string[], string[], string[]]}
 */
export function smokeGroups(name, exports, skip = () => false) {
  const groups = /** @type {[string[], string[], string[]]} */ ([[], [], []]);
  for (const [subpath, target] of Object.entries(exports ?? {})) {
    if (typeof target !== "object" || target === null || subpath.endsWith(".json") || skip(subpath)) continue;
    const specifier = subpath === "." ? name : `${name}/${subpath.slice(2)}`;
    groups["require" in target ? 0 : "default" in target ? 2 : 1].push(specifier);
  }
  return groups;
}

export const smokeScript = `
const { createRequire } = require("node:module");
const [dual, esmOnly, requireEsm = []] = JSON.parse(process.argv[1]);
const load = createRequire(process.cwd() + "/package.json");
(async () => {
  for (const specifier of esmOnly) {
    const esm = await import(specifier);
    console.log("  smoke " + specifier + ": import() ok (ESM only, " + Object.keys(esm).length + " exports)");
  }
  for (const specifier of dual) {
    const esm = await import(specifier);
    const cjs = load(specifier);
    const esmKeys = Object.keys(esm).filter((k) => k !== "default" && k !== "module.exports").sort();
    const cjsKeys = Object.keys(cjs).sort();
    if (esmKeys.join() !== cjsKeys.join()) {
      throw new Error(specifier + ": ESM exports [" + esmKeys + "] differ from CJS exports [" + cjsKeys + "]");
    }
    console.log("  smoke " + specifier + ": import() and require() ok (" + esmKeys.length + " exports)");
    if (specifier === "@forgekit/core") {
      for (const [build, core] of [["ESM", esm], ["CJS", cjs]]) await fileWorkers(build, core);
    }
  }
  for (const specifier of requireEsm) {
    const esm = await import(specifier);
    const required = load(specifier);
    if (required !== esm) throw new Error(specifier + ": require() did not return the module import() loaded (require(esm) on Node " + process.versions.node + ")");
    console.log("  smoke " + specifier + ": import() and require() ok (ESM only, require(esm); one module, " + Object.keys(esm).length + " exports)");
    if (specifier === "@forgekit/core") await fileWorkers("ESM", esm);
  }
})().catch((error) => { console.error(error); process.exit(1); });

async function fileWorkers(build, core) {
  const { mkdtempSync, rmSync } = require("node:fs");
  const { join } = require("node:path");
  const dir = mkdtempSync(join(require("node:os").tmpdir(), "forgekit-smoke-"));
  try {
    const shards = { a: join(dir, "a"), b: join(dir, "b") };
    const ref = { kind: "project", id: 1 };
    const commit = { message: "smoke", author: { name: "Smoke", email: "smoke@example.com" }, date: new Date(), files: [{ path: "README.md", content: "smoke" }] };
    await core.gitRepositoryStorage({ shards }).create("a", ref, { commit });
    const withoutGit = core.gitRepositoryStorage({ shards, git: join(dir, "no-git") });
    await withoutGit.replicate(ref, "a", "b");
    await withoutGit.verify("b", ref);
    if (!(await withoutGit.delete("a", ref))) throw new Error("the source copy was not deleted");
    console.log("  smoke @forgekit/core " + build + ": file workers copy, verify and delete a repository");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
`;
