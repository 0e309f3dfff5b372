import { defineConfig } from "tsup";
import { entries } from "../../tools/tsup-entries.js";

export default defineConfig({
  entry: entries(import.meta.dirname),
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "node20",
  sourcemap: true,
  splitting: true,
});
