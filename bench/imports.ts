/**
 * Project import (issue 10 §5): 10,000 issues with 2 comments each (20,000 notes) imported from the
 * forge stand-in on 127.0.0.1 (`@forgekit/core/testing`, pages of 100 with `Link` headers) into a
 * SQLite database in a temporary folder, by the `imports.project` job on a worker in this process.
 * Figures: items (issues + comments) per second from the job's start to `finished` (goal ≥ 500/s),
 * and the process's peak RSS sampled during the import (goal < 200 MB; the stand-in runs in the same
 * process, so this is an upper bound of the importer's).
 *
 * `pnpm bench imports` runs only this one; FORGEKIT_BENCH_IMPORT_ISSUES sets the number of issues.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit } from "../packages/core/src/index.js";
import { startExtForgeStandIn } from "../packages/core/src/testing/import-stand-ins/index.js";
import { kyselyStore, sqlite } from "../packages/store-kysely/src/index.js";

export interface ImportsBenchOptions {
  issues?: number;
  commentsPerIssue?: number;
  print?: (line: string) => void;
}

const TOKEN = "bench-forge-token";

export default async function benchImports(options: ImportsBenchOptions = {}): Promise<Record<string, number>> {
  const issues = options.issues ?? Number(process.env["FORGEKIT_BENCH_IMPORT_ISSUES"] ?? 10_000);
  const perIssue = options.commentsPerIssue ?? 2;
  const print = options.print ?? ((line: string) => console.log(line));
  const dir = mkdtempSync(join(tmpdir(), "forgekit-bench-imports-"));
  const forge = await startExtForgeStandIn({
    users: [{ id: 1, login: "bench", token: TOKEN }],
    repos: [{ id: 1, owner: "bench", name: "big", git: { commits: [{ message: "first", files: { "README.md": "# big\n" } }] }, generated: { issues, commentsPerIssue: perIssue } }],
    rateLimit: { limit: 1_000_000 },
  });
  const store = kyselyStore(sqlite(join(dir, "forgekit.db")));
  const fk = createForgekit({ baseUrl: "http://localhost:3000", store, repositoryStorages: { default: { path: join(dir, "repositories") } }, imports: { allowLocalNetwork: true }, logger: { log: () => undefined } });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  try {
    (await fk.migrate())._unsafeUnwrap();
    const user = (await fk.users.create({ username: "bench", name: "Bench", email: "bench@example.com" }))._unsafeUnwrap();
    const startRss = process.memoryUsage().rss;
    const view = (await fk.imports.startForge(user, { token: TOKEN, repoId: 1, targetNamespace: "bench", hostname: forge.url }))._unsafeUnwrap();
    print(`importing ${issues} issues and ${issues * perIssue} comments from the stand-in on 127.0.0.1 into SQLite…`);
    const started = performance.now();
    fk.workers.start({ pollIntervalMs: 10, recurring: false })._unsafeUnwrap();
    let status = "scheduled";
    while (status !== "finished" && status !== "failed" && status !== "canceled") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await store.imports.projects.find(view.project.id))?.status ?? "missing";
    }
    const seconds = (performance.now() - started) / 1000;
    const record = await store.imports.projects.find(view.project.id);
    if (status !== "finished") throw new Error(`the import ended ${status}: ${record?.error ?? ""}`);
    const stats = JSON.parse(record?.stats ?? "{}") as Record<string, { imported: number }>;
    const items = (stats["issue"]?.imported ?? 0) + (stats["note"]?.imported ?? 0);
    const figures = {
      items,
      seconds: Math.round(seconds * 10) / 10,
      items_per_second: Math.round(items / seconds),
      goal_items_per_second: 500,
      peak_rss_mb: Math.round(peakRss / 1024 / 1024),
      rss_before_import_mb: Math.round(startRss / 1024 / 1024),
      goal_peak_rss_mb: 200,
    };
    print(`${items} items in ${figures.seconds} s: ${figures.items_per_second} items/s (goal ≥ 500); peak RSS ${figures.peak_rss_mb} MB (goal < 200)`);
    return figures;
  } finally {
    clearInterval(sampler);
    await fk.workers.stop();
    (await fk.close())._unsafeUnwrap();
    await forge.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
