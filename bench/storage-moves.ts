/**
 * Repository storage moves (issue 9 §5): a bulk move of 1,000 small repositories (projects with a
 * few commits) from shard `default` to shard `secondary` — `POST /project_repository_storage_moves`'s
 * job: a move row per project, replication, verification (ref checksums + the connectivity check
 * `git rev-list --objects --all`), the switch transaction, removal of the source — against `cp -r`
 * of the same shard tree, measured in the same run on the same file system. SQLite store in a
 * temporary folder, workers in this process. Goal: forgekit ≥ 0.5× the throughput of `cp -r`.
 *
 * The repositories are what forgekit makes: a project's repository (no sample hooks) with three
 * commits and a tag pushed by `git push` (loose objects, loose refs).
 *
 * Fairness: both shards and the `cp -r` copies are folders of one temporary folder (one file
 * system); the same 1,000 repositories; `cp -r` runs once before the move (the files were just
 * written: page cache warm) and once after it (of the moved tree), and the figure is their mean,
 * so a load that changes during the run weighs on both sides. Each timed phase starts after
 * {@link settle}: no phase pays for the writeback or the deletions of an earlier one.
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

/**
 * Three commits and a tag pushed with `git push` into `bare` (a repository forgekit made): what a
 * small project's repository holds after its first push — loose objects and refs, no sample hooks
 * (forgekit makes repositories without git's template files).
 */
function pushSmallHistory(dir: string, bare: string): void {
  const work = join(dir, "work");
  execFileSync("git", ["init", "--quiet", "-b", "main", work], { env: ENV });
  for (let i = 1; i <= 3; i += 1) {
    writeFileSync(join(work, `file-${i}.txt`), `content ${i}\n`.repeat(20));
    gitIn(work, "add", ".");
    gitIn(work, "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", `commit ${i}`);
  }
  gitIn(work, "tag", "v1");
  gitIn(work, "push", "--quiet", bare, "main", "v1");
}

/** Seconds each timed phase waits after `sync` (FORGEKIT_BENCH_SETTLE_SECONDS; default 61, 0 skips the wait). */
const SETTLE_SECONDS = Number(process.env["FORGEKIT_BENCH_SETTLE_SECONDS"] ?? 61);

/**
 * Before each timed phase: `sync`, so that no phase pays for the writeback of what an earlier one
 * wrote, then a wait of a minute, so that no phase pays for the deletions of an earlier one (or of
 * an earlier benchmark). On ext4 without a journal — this machine's disk — the inode allocator skips
 * every inode freed in the last 60 s (300 s while its table block is dirty: hence the `sync`), one
 * buffer lookup each, so creating files right after tens of thousands were deleted costs several
 * times more kernel time (perf: `recently_deleted` under `ext4_create` and `ext4_mkdir`). That swung
 * `cp -r` of the same tree from 0.9 s to 11 s, and it falls hardest on `cp -r` (a new inode per
 * file) and least on the move (its objects are hard links, which need none). The run itself
 * deletes nothing before a timed phase: the `cp -r` copies are kept to the end.
 */
async function settle(): Promise<void> {
  execFileSync("sync");
  if (SETTLE_SECONDS > 0) await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
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
    const projectPath = (id: number) => fk.config.repositoryStorage.localPath?.("default", { kind: "project", id }) ?? "";
    print(`creating ${count} projects on shard default, each with 3 commits and a tag pushed by git…`);
    const first = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: "p0", creatorId: user.id }))._unsafeUnwrap();
    pushSmallHistory(dir, projectPath(first.id));
    for (let i = 1; i < count; i += 1) {
      const project = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: `p${i}`, creatorId: user.id }))._unsafeUnwrap();
      // The first project's files over this one's new (empty) repository: the same history, and
      // nothing deleted (deletions just before a timed phase slow it down, see settle()).
      cpSync(projectPath(first.id), projectPath(project.id), { recursive: true, force: true });
    }
    // Baseline: cp -r of the same shard tree on the same file system (the page cache is warm for both).
    // The copies are kept to the end of the run: removing them would slow down the phase after (see settle()).
    const copySeconds = async (tree: string, copy: string) => {
      await settle();
      const cpStart = performance.now();
      execFileSync("cp", ["-r", tree, join(dir, copy)]);
      return (performance.now() - cpStart) / 1000;
    };
    const cpBefore = await copySeconds(shards.default.path, "copy-before");

    const concurrency = process.env["FORGEKIT_BENCH_MOVE_CONCURRENCY"];
    await settle();
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

    const cpAfter = await copySeconds(shards.secondary.path, "copy-after");
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
