/**
 * The dist smoke test both package checks run in a plain `node` child process (argv[1]: JSON
 * `[dualSpecifiers, esmOnlySpecifiers]`, resolved from the working directory): `import()` of
 * every entry, and `require()` of the dual ones with the same export names as ESM.
 */
export const smokeScript = `
const { createRequire } = require("node:module");
const [dual, esmOnly] = JSON.parse(process.argv[1]);
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
  }
})().catch((error) => { console.error(error); process.exit(1); });
`;
