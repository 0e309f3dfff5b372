/**
 * ESLint flat config: @eslint/js recommended + typescript-eslint's type-checked recommended rules,
 * a few strict ones the code base meets, and the local rules (tools/eslint-rules):
 * `forgekit/must-use-result` against dropped neverthrow Results, `forgekit/floors` (core's imports
 * never go from a lower floor to a higher one) and `forgekit/no-import-cycle` (no import circles in
 * any package; docs/architecture.md). Type information comes from the root
 * tsconfig.json, which includes every linted TypeScript file.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import mustUseResult from "./tools/eslint-rules/must-use-result.js";
import floors from "./tools/eslint-rules/floors.js";

const forgekit = { ...mustUseResult, rules: { ...mustUseResult.rules, ...floors.rules } };

export default tseslint.config(
  // docs/.vitepress/code-blocks.d.ts declares the docs' fragment globals: tools/doc-code-blocks.ts typechecks it with the blocks, never with the workspace.
  { ignores: ["**/dist/**", "**/node_modules/**", "**/data/**", "**/coverage/**", "tools/eslint-rules/fixtures/**", "docs/.vitepress/cache/**", "docs/.vitepress/code-blocks.d.ts", ".ci/node-versions/build/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ["./tsconfig.json"], tsconfigRootDir: import.meta.dirname },
    },
    plugins: { forgekit },
    rules: {
      "forgekit/must-use-result": "error",
      "forgekit/floors": "error",
      "forgekit/no-import-cycle": "error",
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "@typescript-eslint/no-import-type-side-effects": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/prefer-promise-reject-errors": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/no-non-null-asserted-optional-chain": "error",
      "@typescript-eslint/no-extraneous-class": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true }],
      // Async functions that implement Promise-returning ports need no await; floating promises and
      // dropped Results are what matters, and the two rules above catch those.
      "@typescript-eslint/require-await": "off",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-console": "off",
    },
  },
  {
    // Tests and test kits: Vitest's asymmetric matchers (expect.any, expect.stringMatching, …) are
    // typed `any`.
    files: ["**/*.test.ts", "**/src/testing/**/*.ts", "**/test-support.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    // Plain JS (tools, this file): no type information.
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: "readonly", console: "readonly", URL: "readonly" },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, "forgekit/must-use-result": "off", "forgekit/floors": "off", "forgekit/no-import-cycle": "off" },
  },
);
