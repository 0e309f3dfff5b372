import { defineConfig } from "tsup";
import { entries } from "../../tools/tsup-entries.js";

export default defineConfig({
  entry: entries(import.meta.dirname),
  format: ["esm", "cjs"],
  // `pnpm forgekit` (tools/forgekit.mjs) builds without declarations: it only runs the code.
  dts: process.env["FORGEKIT_BUILD_JS_ONLY"] !== "1",
  clean: true,
  target: "node20",
  sourcemap: true,
  splitting: true,
});
