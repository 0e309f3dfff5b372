/**
 * The packed packages in a fresh host app, installed with plain npm (issue 13 "Packages"): what a
 * user outside the workspace gets. `checkHostApp(tarballs)` creates a temporary app, installs every
 * tarball with the host's own dependencies (express 5, koa 3, and neverthrow 8.1.1 — an older 8.x
 * than the workspace's, so the check proves forgekit uses the host's copy), then:
 * 1. import() and require() of every export (import() only for ESM-only ones behind an `import`
 *    condition; require() through Node's require(esm) for all of `@forgekit/core`, ESM only); `<bin> --help`;
 * 2. an ESM express app and a CommonJS koa app that serve forgekit next to a host route (on
 *    PostgreSQL when FORGEKIT_TEST_POSTGRES_URL is set, else the in-memory store): the CommonJS app
 *    require()s core (ESM only) and the koa adapter's CommonJS build, which require()s it too;
 *    no check may print an ExperimentalWarning;
 * 3. one copy of neverthrow, and `ResultAsync.combine` over forgekit's and the host's results
 *    typechecks (the workspace's tsc against the app's node_modules), in an ES module and in a
 *    CommonJS one (`.cts`, whose imports of core compile to require(): `nodenext` allows it).
 * Returns the names of the checks that failed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { smokeGroups, smokeScript } from "./smoke-script.mjs";
import { binPath } from "./workspace-packages.mjs";

const HOST_DEPENDENCIES = ["express@^5", "koa@^3", "neverthrow@8.1.1", "pg@^8"];


/** The store the host apps use: PostgreSQL in CI, memory otherwise (the same code either way). */
const storeSetup = (moduleSystem) => {
  const imp = moduleSystem === "esm" ? (names, from) => `import { ${names} } from "${from}";` : (names, from) => `const { ${names} } = require("${from}");`;
  return `${imp("memoryStore", "@forgekit/core/memory")}
${imp("kyselyStore, postgres", "@forgekit/store-kysely")}
const url = process.env.FORGEKIT_TEST_POSTGRES_URL;
const schema = "forgekit_host_" + process.pid;
const store = url ? kyselyStore(postgres(url, { schema })) : memoryStore();
async function dropSchema() {
  if (!url) return;
  await store.close();
  const pg = ${moduleSystem === "esm" ? '(await import("pg")).default' : 'require("pg")'};
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  await client.end();
}`;
};

const serveAndProbe = `
async function probe(port) {
  const api = await fetch("http://127.0.0.1:" + port + "/api/v4/user");
  const body = await api.json();
  if (api.status !== 401 || body.message !== "401 Unauthorized") throw new Error("GET /api/v4/user: " + api.status + " " + JSON.stringify(body));
  const host = await fetch("http://127.0.0.1:" + port + "/hello");
  if ((await host.text()) !== "host route") throw new Error("the host route did not run");
}`;

const ESM_APP = `${storeSetup("esm")}
import express from "express";
import { createForgekit } from "@forgekit/core";
import { forgekit } from "@forgekit/adapter-express";
${serveAndProbe}
const fk = createForgekit({ baseUrl: "http://127.0.0.1", store, logger: console });
const migrated = await fk.migrate();
if (migrated.isErr()) throw new Error("migrate: " + migrated.error.code, { cause: migrated.error.cause });
const app = express();
app.use(forgekit(fk));
app.get("/hello", (_req, res) => res.send("host route"));
const server = app.listen(0, "127.0.0.1", async () => {
  try {
    await probe(server.address().port);
    console.log("  host app: ESM express 5 on " + (url ? "PostgreSQL" : "the memory store") + " ok");
  } finally {
    server.close();
    await dropSchema();
  }
});
`;

const CJS_APP = `${storeSetup("cjs")}
const Koa = require("koa");
const { createForgekit } = require("@forgekit/core");
const { forgekit } = require("@forgekit/adapter-koa");
${serveAndProbe}
(async () => {
  const fk = createForgekit({ baseUrl: "http://127.0.0.1", store });
  const migrated = await fk.migrate();
  if (migrated.isErr()) throw new Error("migrate: " + migrated.error.code);
  const app = new Koa();
  app.use(forgekit(fk));
  app.use((ctx) => { if (ctx.path === "/hello") ctx.body = "host route"; });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    await probe(server.address().port);
  } finally {
    server.close();
    await dropSchema();
  }
  const { createRequire } = require("node:module");
  const fromCore = createRequire(require.resolve("@forgekit/core")).resolve("neverthrow");
  if (fromCore !== require.resolve("neverthrow")) throw new Error("two copies of neverthrow: " + fromCore + " and " + require.resolve("neverthrow"));
  if (require("neverthrow/package.json").version !== "8.1.1") throw new Error("the host's neverthrow was replaced");
  console.log("  host app: CommonJS koa 3 on " + (url ? "PostgreSQL" : "the memory store") + " ok; one neverthrow (the host's 8.1.1)");
})().catch((error) => { console.error(error); process.exit(1); });
`;

const TYPES = `import { okAsync, ResultAsync } from "neverthrow";
import { createForgekit } from "@forgekit/core";
import { memoryStore } from "@forgekit/core/memory";

const fk = createForgekit({ baseUrl: "http://127.0.0.1", store: memoryStore() });
// forgekit's ResultAsync and the host's are one type: combining them typechecks.
const both: ResultAsync<[unknown, number], unknown> = ResultAsync.combine([fk.users.findByUsername("root"), okAsync(1)] as const);
void both;
`;


/**
 * Runs `command`; false (and its output printed) when it exits non-zero or, unless `npm`, when Node
 * printed an ExperimentalWarning: a CommonJS host that require()s core (ESM only) must see none on a
 * supported Node (from 20.19 and 22.13, require(esm) warns only under --trace-require-module).
 */
function run(command, args, cwd, label, { quiet = false, npm = false } = {}) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
  const warned = !npm && /ExperimentalWarning/.test(result.stderr);
  if (result.status !== 0 || warned) {
    console.error(`  ${label} failed (${warned ? "an ExperimentalWarning" : `exit ${result.status}`})\n${result.stdout}${result.stderr}`);
    return false;
  }
  if (!quiet && result.stdout.trim() !== "") console.log(result.stdout.trimEnd());
  return true;
}

/**
 * @param {{ name: string, tarball: string, manifest: Record<string, any> }[]} packed
 * @returns {string[]} failed checks
 */
export function checkHostApp(packed) {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-host-"));
  const failures = [];
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "forgekit-host-check", private: true, version: "0.0.0" }, null, 2));
    console.log(`\n── host app: npm install of ${packed.length} packed packages into ${dir}`);
    // --ignore-scripts: the CLI's better-sqlite3 would compile for minutes; nothing here opens SQLite.
    const installed = run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", ...packed.map((p) => p.tarball), ...HOST_DEPENDENCIES], dir, "npm install", { npm: true });
    if (!installed) return ["host app: npm install"];

    for (const pkg of packed) {
      // `/testing` needs Vitest, a host's dev dependency; the in-repo smoke test covers it.
      const groups = smokeGroups(pkg.name, pkg.manifest.exports, (subpath) => subpath.includes("testing"));
      if (!run(process.execPath, ["-e", smokeScript, JSON.stringify(groups)], dir, `${pkg.name} smoke`)) failures.push(`${pkg.name}: smoke in host app`);
      const bins = typeof pkg.manifest.bin === "string" ? [pkg.name.split("/").pop()] : Object.keys(pkg.manifest.bin ?? {});
      for (const bin of bins) {
        if (run(join(dir, "node_modules", ".bin", bin), ["--help"], dir, `${bin} --help`, { quiet: true })) console.log(`  smoke bin ${bin} --help: ok`);
        else failures.push(`${pkg.name}: bin ${bin}`);
      }
    }

    writeFileSync(join(dir, "host-esm.mjs"), ESM_APP);
    writeFileSync(join(dir, "host-cjs.cjs"), CJS_APP);
    if (!run(process.execPath, ["host-esm.mjs"], dir, "ESM express host app")) failures.push("host app: ESM express");
    if (!run(process.execPath, ["host-cjs.cjs"], dir, "CommonJS koa host app")) failures.push("host app: CommonJS koa");

    writeFileSync(join(dir, "host-types.mts"), TYPES);
    // The same source as a CommonJS module: its imports compile to require() of core (ESM only).
    writeFileSync(join(dir, "host-types.cts"), TYPES);
    const tsc = binPath("typescript", "tsc");
    const typed = run(process.execPath, [tsc, "--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "host-types.mts", "host-types.cts"], dir, "host types");
    if (typed) console.log("  host types: ResultAsync.combine over forgekit's and the host's results typechecks, from ESM and from CommonJS (require of core)");
    else failures.push("host app: types");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}
