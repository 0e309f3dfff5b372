/**
 * The test projects. The root vitest.config.ts passes this list as `test.projects` (Vitest ≥ 3
 * no longer reads workspace files by itself). Every project resolves workspace packages from
 * source through the `@forgekit/source` export condition, so tests need no build.
 */
import { defineProject } from "vitest/config";

const conditions = ["@forgekit/source", "import", "module", "node", "default"];
/**
 * Vitest hands `ssr.resolve.conditions` to Node as `--conditions` for externalised dependencies.
 * `import` there makes Node's `require()` pick ESM entries of dual packages (is-promise inside
 * express's router then is a namespace object, not a function), so only these go to Node.
 */
const nodeConditions = ["@forgekit/source", "node", "development|production"];

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
      testTimeout: extra.testTimeout ?? 20_000,
      hookTimeout: 60_000,
      ...(extra.fileParallelism === undefined ? {} : { fileParallelism: extra.fileParallelism }),
    },
  });

export default [
  project("core", "packages/core"),
  // Files one at a time: fault tests break connections on purpose, timing tests measure waits.
  project("store-kysely", "packages/store-kysely", { testTimeout: 60_000, fileParallelism: false, exclude: ["src/http-suites/**"] }),
  // The HTTP suites on SQLite, PostgreSQL and MySQL: own schemas / databases, so they run in parallel.
  project("store-kysely-http", "packages/store-kysely", { testTimeout: 60_000, include: ["src/http-suites/*.test.ts"] }),
  project("adapter-express", "packages/adapter-express"),
  project("adapter-koa", "packages/adapter-koa"),
  project("cli", "packages/cli", { testTimeout: 60_000 }),
  project("jobs-bullmq", "packages/jobs-bullmq", { testTimeout: 60_000, fileParallelism: false }),
  project("example-express-sqlite", "examples/express-sqlite", { testTimeout: 60_000 }),
  project("example-koa-postgres", "examples/koa-postgres", { testTimeout: 60_000 }),
  project("example-own-users", "examples/own-users", { testTimeout: 60_000 }),
  defineProject({ test: { name: "tools", root: "tools", include: ["**/*.test.ts"], environment: "node", testTimeout: 60_000 } }),
];
