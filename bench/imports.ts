/**
 * Project import (issue 10 §5): 10,000 issues with 2 comments each (20,000 notes) imported from the
 * forge stand-in on 127.0.0.1 (`@forgekit/core/testing`, pages of 100 with `Link` headers) into a
 * SQLite database in a temporary folder, by the `imports.project` job on a worker in a server
 * process of its own (`_imports-server.mjs`, on the built packages as a host runs them; stale builds
 * are rebuilt first). Figures: items (issues + comments) per second from the job's start to
 * `finished` (goal ≥ 500/s), and the server process's peak RSS, the kernel's high-water mark
 * (goal < 200 MB; the stand-in runs in this process and is not counted).
 *
 * `pnpm bench imports` runs only this one; FORGEKIT_BENCH_IMPORT_ISSUES sets the number of issues.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { startExtForgeStandIn } from "../packages/core/src/testing/import-stand-ins/index.js";
import { ensureBuilt } from "../tools/stale-build.mjs";

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
  try {
    const failure = ensureBuilt(["core", "store-kysely"]);
    if (failure !== undefined) throw new Error(failure);
    print(`importing ${issues} issues and ${issues * perIssue} comments from the stand-in on 127.0.0.1 into SQLite (server in its own process, on the built packages)…`);
    const server = await runServer(JSON.stringify({ dir, forgeUrl: forge.url, token: TOKEN }));
    if (server.status !== "finished") throw new Error(`the import ended ${server.status}: ${server.error}`);
    const figures = {
      items: server.items,
      seconds: Math.round(server.seconds * 10) / 10,
      items_per_second: Math.round(server.items / server.seconds),
      goal_items_per_second: 500,
      peak_rss_mb: Math.round(server.peakRssKb / 1024),
      rss_before_import_mb: Math.round(server.rssBeforeImportKb / 1024),
      goal_peak_rss_mb: 200,
    };
    print(`${figures.items} items in ${figures.seconds} s: ${figures.items_per_second} items/s (goal ≥ 500); server peak RSS ${figures.peak_rss_mb} MB (goal < 200)`);
    return figures;
  } finally {
    await forge.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ServerResult {
  status: string;
  error: string;
  items: number;
  seconds: number;
  peakRssKb: number;
  rssBeforeImportKb: number;
}

/** Runs `_imports-server.mjs` with `args` and resolves with the JSON line it prints. */
function runServer(args: string): Promise<ServerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL("./_imports-server.mjs", import.meta.url).pathname, args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || line === "") reject(new Error(`the import server exited ${String(code)}: ${out}`));
      else resolve(JSON.parse(line) as ServerResult);
    });
  });
}
