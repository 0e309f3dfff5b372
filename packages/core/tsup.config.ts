import { defineConfig } from "tsup";
import { packageConfig } from "../../tools/tsup-package-config.js";

export default defineConfig(packageConfig(import.meta.dirname));
