#!/usr/bin/env node
/** The `forgekit` executable (linked through bin/forgekit.mjs). */
import { processIo } from "./io.js";
import { runCli } from "./run-cli.js";

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
