#!/usr/bin/env node
/**
 * Root `forgekit` script (`npx -y pnpm@10.34.8 forgekit <command>`): runs the built CLI, so a
 * command takes a fraction of a second instead of transpiling the sources on every call. Before
 * that it rebuilds (tsup) whichever of the CLI's workspace packages has sources newer than its
 * build — on a fresh clone all of them, once (about a minute). Build output goes to stderr, so
 * `--json` output on stdout stays clean.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "./stale-build.mjs";
import { root } from "./workspace-packages.mjs";

/**
 * The CLI and the workspace packages it runs on, dependencies first; with FORGEKIT_REDIS_URL also
 * `@forgekit/jobs-bullmq`, which the CLI then loads (a fresh clone has no build of it).
 */
const redis = (process.env.FORGEKIT_REDIS_URL ?? "") !== "";
const PACKAGES = ["core", "store-kysely", ...(redis ? ["jobs-bullmq"] : []), "cli"];

const failure = ensureBuilt(PACKAGES);
if (failure !== undefined) {
  process.stderr.write(`forgekit: ${failure}\n`);
  process.exit(1);
}

// The built binary reads process.argv.slice(2): the same arguments this script got.
await import(pathToFileURL(join(root, "packages", "cli", "bin", "forgekit.mjs")).href);
