#!/usr/bin/env node
// The `forgekit` command: a committed shim (so package managers can link the bin before a build)
// that runs the built CLI.
import "../dist/bin.js";
