/**
 * The documentation site (issue 24 item 6): VitePress over docs/. The guides were split from the
 * README's sections; the API reference page renders docs/openapi.json with Scalar in the browser;
 * architecture, entities and the benchmarks keep their old paths (tests read some of them).
 * Build: `npx -y pnpm@10.34.8 docs:build` (output in docs/.vitepress/dist).
 */
import { copyFileSync, createReadStream, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { defineConfig } from "vitepress";

/** Scalar's prebuilt browser bundle: served as /scalar/standalone.js and loaded by the API reference page. */
const scalarBundle = join(createRequire(import.meta.url).resolve("@scalar/api-reference"), "..", "browser", "standalone.js");

const guides = [
  { text: "Quick start", link: "/guide/quick-start" },
  { text: "Embedding: express, koa, fetch", link: "/guide/embedding" },
  { text: "Your own users and sessions", link: "/guide/own-users" },
  { text: "OAuth 2.0 and OpenID Connect", link: "/guide/oauth" },
  { text: "Git over HTTP", link: "/guide/git-http" },
  { text: "Storage shards and moves", link: "/guide/storage" },
  { text: "Importing projects", link: "/guide/imports" },
  { text: "Jobs and workers", link: "/guide/jobs" },
  { text: "The memory store", link: "/guide/memory-store" },
  { text: "Clusters and several processes", link: "/guide/clusters" },
  { text: "Security", link: "/guide/security" },
  { text: "Tools that work", link: "/guide/clients" },
  { text: "Configuration", link: "/guide/configuration" },
];
const features = [
  { text: "REST resources", link: "/guide/rest-resources" },
  { text: "Tiers", link: "/guide/tiers" },
  { text: "Protected branches and tags", link: "/guide/protected-refs" },
  { text: "Webhooks", link: "/guide/webhooks" },
  { text: "Notification settings", link: "/guide/notifications" },
  { text: "Group iterations", link: "/guide/iterations" },
  { text: "Error tracking", link: "/guide/error-tracking" },
  { text: "Events and activity", link: "/guide/events" },
  { text: "What is implemented", link: "/guide/status" },
];
const operations = [
  { text: "Reliability and operations", link: "/guide/operations" },
  { text: "The CLI", link: "/guide/cli" },
  { text: "Tests against PostgreSQL and MySQL", link: "/guide/tests" },
];
const reference = [
  { text: "API reference (OpenAPI)", link: "/api" },
  { text: "Route list", link: "/reference/routes" },
  { text: "Architecture", link: "/architecture" },
  { text: "Scaling", link: "/scaling" },
  { text: "Project entity fields", link: "/entities" },
  { text: "Adding a capability", link: "/adding-a-capability" },
  { text: "Benchmarks", link: "/benchmarks" },
];

export default defineConfig({
  title: "forgekit",
  description: "An embeddable GitLab-style /api/v4 REST API, OAuth 2.0 provider and git over HTTP for Node.js servers",
  lang: "en",
  cleanUrls: false,
  // The site is built and served locally in tests; no analytics, no external fonts at runtime.
  lastUpdated: false,
  buildEnd(site) {
    mkdirSync(join(site.outDir, "scalar"), { recursive: true });
    copyFileSync(scalarBundle, join(site.outDir, "scalar", "standalone.js"));
  },
  vite: {
    plugins: [
      {
        name: "forgekit-scalar-bundle",
        // `docs:dev`: the same file, straight from node_modules.
        configureServer(server) {
          server.middlewares.use("/scalar/standalone.js", (_req, res) => {
            res.setHeader("content-type", "text/javascript");
            createReadStream(scalarBundle).pipe(res);
          });
        },
      },
    ],
  },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/quick-start" },
      { text: "API reference", link: "/api" },
      { text: "Architecture", link: "/architecture" },
      { text: "Benchmarks", link: "/benchmarks" },
    ],
    sidebar: [
      { text: "Guides", items: guides },
      { text: "Features", items: features },
      { text: "Operations", items: operations },
      { text: "Reference", items: reference },
    ],
    search: { provider: "local" },
    outline: [2, 3],
  },
});
