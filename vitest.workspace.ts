/**
 * The test projects. The root vitest.config.ts passes this list as `test.projects` (Vitest ≥ 3
 * no longer reads workspace files by itself). Every project resolves workspace packages from
 * source through the `@forgekit/source` export condition, so tests need no build.
 */
import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

/** Records each test file's CPU (tools/test-costs/record.ts); the root test script prints the slowest files. */
const setupFiles = [fileURLToPath(new URL("./tools/test-costs/record.ts", import.meta.url))];

const conditions = ["@forgekit/source", "import", "module", "node", "default"];
/**
 * Vitest hands `ssr.resolve.conditions` to Node as `--conditions` for externalised dependencies.
 * `import` there makes Node's `require()` pick ESM entries of dual packages (is-promise inside
 * express's router then is a namespace object, not a function), so only these go to Node.
 */
const nodeConditions = ["@forgekit/source", "node", "development|production"];

// Generous limits: CI runs on a loaded 2-core machine, where a test that takes 1 s quietly can take 40 s; a limit only
// decides how long a hung test takes to fail, never whether a slow one passes (issue #23).
const project = (name: string, dir: string, extra: { testTimeout?: number; fileParallelism?: boolean; include?: string[]; exclude?: string[] } = {}) =>
  defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions: nodeConditions, externalConditions: ["@forgekit/source"] } },
    test: {
      name,
      root: dir,
      include: extra.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      ...(extra.exclude === undefined ? {} : { exclude: ["**/node_modules/**", ...extra.exclude] }),
      environment: "node",
      setupFiles,
      testTimeout: extra.testTimeout ?? 120_000,
      hookTimeout: 180_000,
      ...(extra.fileParallelism === undefined ? {} : { fileParallelism: extra.fileParallelism }),
    },
  });

export default [
  project("core", "packages/core"),
  // Side by side like every project: each fault test breaks only its own database's connections, and
  // no test measures a wait. (One at a time, these 40 files ran last, on one core: 235 s of a 1,245 s run.)
  project("store-kysely", "packages/store-kysely", { exclude: ["src/http-suites/**"] }),
  // The HTTP suites on SQLite, PostgreSQL and MySQL: own schemas / databases, so they run in parallel.
  project("store-kysely-http", "packages/store-kysely", { include: ["src/http-suites/*.test.ts"] }),
  project("adapter-express", "packages/adapter-express"),
  project("adapter-koa", "packages/adapter-koa"),
  project("cli", "packages/cli"),
  project("jobs-bullmq", "packages/jobs-bullmq", { fileParallelism: false }),
  project("example-express-sqlite", "examples/express-sqlite"),
  project("example-koa-postgres", "examples/koa-postgres"),
  project("example-own-users", "examples/own-users"),
  project("example-cluster", "examples/cluster"),
  defineProject({ test: { name: "tools", root: "tools", include: ["**/*.test.ts"], environment: "node", setupFiles, testTimeout: 60_000 } }),
];
