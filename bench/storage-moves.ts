/**
 * Repository storage moves (issue 9 §5): a bulk move of 1,000 small repositories (projects with a
 * few commits) from shard `default` to shard `secondary` — `POST /project_repository_storage_moves`'s
 * job: a move row per project, replication, verification (ref checksums + the connectivity check
 * `git rev-list --objects --all`), the switch transaction, removal of the source — against `cp -r`
 * of the same shard tree, measured in the same run on the same file system. SQLite store in a
 * temporary folder, workers in this process. Goal: forgekit ≥ 0.5× the throughput of `cp -r`.
 *
 * Fairness: both shards and the `cp -r` copy are folders of one temporary folder (one file
 * system); the same 1,000 repositories; `cp -r` runs once before the move (the files were just
 * written: page cache warm) and once after it (of the moved tree), and the figure is their mean,
 * so a load that changes during the run weighs on both sides. Each timed phase starts after a
 * `sync`, so none pays for the writeback of what an earlier one wrote.
 *
 * `pnpm bench storage-moves` runs only this one; FORGEKIT_BENCH_REPOSITORIES sets the count and
 * FORGEKIT_BENCH_MOVE_CONCURRENCY the bulk move's concurrency (default: the library's).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit } from "../packages/core/src/index.js";
import { kyselyStore, sqlite } from "../packages/store-kysely/src/index.js";

/** Issue 9: a bulk move at least half as fast as `cp -r` of the same repositories. */
const GOAL = 0.5;

export interface StorageMovesBenchOptions {
  repositories?: number;
  print?: (line: string) => void;
}

const ENV = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: tmpdir(), LC_ALL: "C" };
const gitIn = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, stdio: "pipe" });

/** A small bare repository with three commits and a tag, copied into every project's path. */
function template(dir: string): string {
  const work = join(dir, "work");
  const bare = join(dir, "template.git");
  execFileSync("git", ["init", "--quiet", "-b", "main", work], { env: ENV });
  for (let i = 1; i <= 3; i += 1) {
    writeFileSync(join(work, `file-${i}.txt`), `content ${i}\n`.repeat(20));
    gitIn(work, "add", ".");
    gitIn(work, "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", `commit ${i}`);
  }
  gitIn(work, "tag", "v1");
  execFileSync("git", ["clone", "--quiet", "--bare", work, bare], { env: ENV });
  return bare;
}

/**
 * Flushes dirty pages (`sync`) before a timed phase, so that no phase pays for the writeback of
 * what an earlier one wrote (on this machine's virtual disk that alone swung `cp -r` 2–15 s).
 */
function settle(): void {
  execFileSync("sync");
}

export default async function benchStorageMoves(options: StorageMovesBenchOptions = {}): Promise<Record<string, number>> {
  const count = options.repositories ?? Number(process.env["FORGEKIT_BENCH_REPOSITORIES"] ?? 1000);
  const print = options.print ?? ((line: string) => console.log(line));
  const dir = mkdtempSync(join(tmpdir(), "forgekit-bench-moves-"));
  const shards = { default: { path: join(dir, "shards", "default") }, secondary: { path: join(dir, "shards", "secondary") } };
  const store = kyselyStore(sqlite(join(dir, "forgekit.db")));
  const fk = createForgekit({ baseUrl: "http://localhost:3000", store, repositoryStorages: shards, logger: { log: () => undefined } });
  try {
    (await fk.migrate())._unsafeUnwrap();
    const user = (await fk.users.create({ username: "bench", name: "Bench", email: "bench@example.com" }))._unsafeUnwrap();
    const source = template(dir);
    print(`creating ${count} projects with 3 commits each on shard default…`);
    for (let i = 0; i < count; i += 1) {
      const project = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: `p${i}`, creatorId: user.id }))._unsafeUnwrap();
      const path = fk.config.repositoryStorage.localPath?.("default", { kind: "project", id: project.id }) ?? "";
      rmSync(path, { recursive: true, force: true });
      cpSync(source, path, { recursive: true });
    }

    // Baseline: cp -r of the same shard tree on the same file system (the page cache is warm for both).
    const copySeconds = (tree: string) => {
      const copy = join(dir, "copy");
      settle();
      const cpStart = performance.now();
      execFileSync("cp", ["-r", tree, copy]);
      const seconds = (performance.now() - cpStart) / 1000;
      rmSync(copy, { recursive: true, force: true });
      return seconds;
    };
    const cpBefore = copySeconds(shards.default.path);

    const concurrency = process.env["FORGEKIT_BENCH_MOVE_CONCURRENCY"];
    settle();
    const start = performance.now();
    const job = (await fk.storageMoves.scheduleBulk("project", { source: "default", destination: "secondary", ...(concurrency === undefined ? {} : { concurrency: Number(concurrency) }) }))._unsafeUnwrap();
    fk.workers.start({ recurring: false, pollIntervalMs: 20 })._unsafeUnwrap();
    for (;;) {
      const current = (await fk.jobs.find(job.id))._unsafeUnwrap();
      if (current.state === "succeeded" || current.state === "failed" || current.state === "cancelled") {
        if (current.state !== "succeeded") throw new Error(`the bulk move ended ${current.state}: ${current.lastError ?? ""}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const moveSeconds = (performance.now() - start) / 1000;
    await fk.workers.stop();
    const left = await store.storageMoves.containers.count("project", "default");
    if (left !== 0) throw new Error(`${left} projects were left on the source shard`);

    const cpAfter = copySeconds(shards.secondary.path);
    const cpSeconds = (cpBefore + cpAfter) / 2;

    const ratio = cpSeconds / moveSeconds;
    print(`cp -r:           ${count} repositories in ${cpSeconds.toFixed(2)} s (before the move ${cpBefore.toFixed(2)} s, after ${cpAfter.toFixed(2)} s) = ${(count / cpSeconds).toFixed(0)} repos/s`);
    print(`bulk move:       ${count} repositories in ${moveSeconds.toFixed(2)} s = ${(count / moveSeconds).toFixed(0)} repos/s`);
    print(`ratio move / cp: ${ratio.toFixed(3)} (goal ≥ ${GOAL})`);
    return {
      repositories: count,
      "cp -r (s)": Number(cpSeconds.toFixed(2)),
      "bulk move (s)": Number(moveSeconds.toFixed(2)),
      [`ratio move / cp -r (goal ≥ ${GOAL})`]: Number(ratio.toFixed(3)),
      "goal (ratio)": GOAL,
    };
  } finally {
    await fk.workers.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
