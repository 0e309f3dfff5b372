/**
 * The server side of the import benchmark (bench/imports.ts), run as its own node process on the
 * built packages (`dist`, as a host runs them) so that its peak RSS is the importer's alone: the
 * forge stand-in stays in the parent. Argument: JSON `{ dir, forgeUrl, token }`. Prints one JSON
 * line: `{ status, error, items, seconds, peakRssKb, rssBeforeImportKb }`.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";

const root = new URL("..", import.meta.url).pathname;
const { createForgekit } = await import(pathToFileURL(join(root, "packages/core/dist/index.js")).href);
const { kyselyStore, sqlite } = await import(pathToFileURL(join(root, "packages/store-kysely/dist/index.js")).href);

const { dir, forgeUrl, token } = JSON.parse(process.argv[2] ?? "{}");
const store = kyselyStore(sqlite(join(dir, "forgekit.db")));
const fk = createForgekit({ baseUrl: "http://localhost:3000", store, repositoryStorages: { default: { path: join(dir, "repositories") } }, imports: { allowLocalNetwork: true }, logger: { log: () => undefined } });
try {
  (await fk.migrate())._unsafeUnwrap();
  const user = (await fk.users.create({ username: "bench", name: "Bench", email: "bench@example.com" }))._unsafeUnwrap();
  const rssBeforeImportKb = Math.round(process.memoryUsage().rss / 1024);
  const view = (await fk.imports.startForge(user, { token, repoId: 1, targetNamespace: "bench", hostname: forgeUrl }))._unsafeUnwrap();
  const started = performance.now();
  fk.workers.start({ pollIntervalMs: 10, recurring: false })._unsafeUnwrap();
  let record;
  for (;;) {
    await sleep(100);
    record = await store.imports.projects.find(view.project.id);
    if (record === undefined || ["finished", "failed", "canceled"].includes(record.status)) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = JSON.parse(record?.stats ?? "{}");
  const items = (stats.issue?.imported ?? 0) + (stats.note?.imported ?? 0);
  // maxRSS: the kernel's high-water mark of this process's resident set (kB), not a sample.
  const peakRssKb = process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ status: record?.status ?? "missing", error: record?.error ?? "", items, seconds, peakRssKb, rssBeforeImportKb }));
} finally {
  await fk.workers.stop();
  (await fk.close())._unsafeUnwrap();
}
