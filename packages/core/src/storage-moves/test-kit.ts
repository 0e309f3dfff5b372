/**
 * Test helpers of storage moves: an instance with two shards, real commits in its repositories,
 * ref snapshots, a driver that runs the background jobs to the end under the fixed clock, and a
 * RepositoryStorage wrapper that fails at a chosen step.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RepositoryRef, RepositoryStorage } from "../ports/repository-storage.js";
import type { StorageMoveKind } from "../ports/storage-moves-store.js";
import { REPOSITORY_KIND_OF } from "../repositories/locate.js";
import { createTestForgekit, type TestForgekit, type TestForgekitOptions } from "../testing/fixtures.js";

const ENV = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: tmpdir(), LC_ALL: "C" };

/** Runs git; returns trimmed stdout. */
export function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { encoding: "utf8", env: ENV, ...(cwd === undefined ? {} : { cwd }) }).trim();
}

/** An instance on shards `default` and `secondary` (premium: group moves are served). */
export function twoShardForgekit(options: TestForgekitOptions = {}): Promise<TestForgekit> {
  return createTestForgekit({ tier: "premium", repositoryStorages: ["default", "secondary"], ...options });
}

/** The bare repository's directory on a shard. */
export function repositoryPath(t: TestForgekit, storage: string, ref: RepositoryRef): string {
  const path = t.fk.config.repositoryStorage.localPath?.(storage, ref);
  if (path === undefined) throw new Error("the storage has no local paths");
  return path;
}

export const refOf = (kind: StorageMoveKind, id: number): RepositoryRef => ({ kind: REPOSITORY_KIND_OF[kind], id });

/** Commits `count` commits (a file each) on `branch` into the bare repository with the git CLI, and a tag. */
export function commitInto(bare: string, count = 3, branch = "main"): void {
  const work = mkdtempSync(join(tmpdir(), "forgekit-move-work-"));
  try {
    git(["clone", "--quiet", bare, work]);
    git(["checkout", "--quiet", "-B", branch], work);
    for (let i = 1; i <= count; i += 1) {
      writeFileSync(join(work, `file-${i}.txt`), `content ${i} on ${branch}\n`);
      git(["add", "."], work);
      git(["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "--quiet", "-m", `commit ${i}`], work);
    }
    git(["tag", `v${count}`], work);
    git(["push", "--quiet", "origin", `${branch}:refs/heads/${branch}`, "--tags"], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `<object> <ref>` lines of the repository, sorted (what a move must keep unchanged). */
export function refsOf(bare: string): string {
  return git(["--git-dir", bare, "for-each-ref", "--format=%(objectname) %(refname)"]);
}

/** Whether git can read the whole history of every ref (clone-able). */
export function readable(bare: string): boolean {
  try {
    git(["--git-dir", bare, "fsck", "--connectivity-only", "--no-dangling", "--no-progress"]);
    git(["--git-dir", bare, "log", "--all", "--oneline"]);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a storage-moves test may take: the moves run real git and file copies, 40 s on a loaded
 * 2-core machine where they take 1 s alone. Tests wait for conditions; this limit only ends a test
 * that can never pass.
 */
export const MOVE_TEST_TIMEOUT_MS = 300_000;

/**
 * Runs the background jobs until none is queued or running: workers with a long lease poll every
 * few ms; while only retries wait (backoff under the fixed clock), the clock jumps a minute.
 * Fails with the open jobs after `maxMs` (default 120 s, well inside {@link MOVE_TEST_TIMEOUT_MS}).
 */
export async function drainJobs(t: TestForgekit, options: { maxMs?: number } = {}): Promise<void> {
  const started = t.fk.workers.start({ pollIntervalMs: 5, leaseMs: 86_400_000, recurring: false });
  if (started.isErr()) throw new Error(`workers did not start: ${started.error.code}`);
  const deadline = Date.now() + (options.maxMs ?? 120_000);
  try {
    for (;;) {
      const open = await t.store.jobs.list({ states: ["queued", "running"] }, { kind: "offset", page: 1, perPage: 100 });
      if (open.items.length === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs still open: ${JSON.stringify(open.items.map((j) => [j.id, j.kind, j.state, j.lastError]))}`);
      if (open.items.every((job) => job.state === "queued" && job.runAfter > t.clock.now())) t.clock.advance(61_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await t.fk.workers.stop();
  }
}

/** Which call of the port fails, and how. */
export type FaultyOperation = "replicate" | "checksum" | "verify" | "delete";

/**
 * The port with injected failures: `fail(op, times)` makes the next `times` calls of `op` reject
 * (Infinity: every call); checksum faults answer a wrong digest for the destination instead.
 * `replicate` reports nothing of what it checked (a storage move then compares the checksums
 * itself) unless `passReplicateResult` is set.
 */
export function faultyStorage(inner: RepositoryStorage, passReplicateResult = false): RepositoryStorage & { fail(op: FaultyOperation, times?: number, onStorage?: string): void; calls: Record<FaultyOperation, number> } {
  const faults = new Map<FaultyOperation, { left: number; storage: string | undefined }>();
  const calls: Record<FaultyOperation, number> = { replicate: 0, checksum: 0, verify: 0, delete: 0 };
  const hit = (op: FaultyOperation, storage?: string) => {
    calls[op] += 1;
    const fault = faults.get(op);
    if (fault === undefined || fault.left <= 0) return false;
    if (fault.storage !== undefined && storage !== undefined && fault.storage !== storage) return false;
    fault.left -= 1;
    return true;
  };
  const failure = (op: string) => Object.assign(new Error(`injected ${op} failure`), { reason: "failed" as const });
  return {
    ...inner,
    create: (...args) => inner.create(...args),
    exists: (...args) => inner.exists(...args),
    size: (...args) => inner.size(...args),
    localPath: (storage, ref) => inner.localPath?.(storage, ref) ?? "",
    async replicate(ref, from, to) {
      if (hit("replicate", to)) {
        // A copy that dies half-way: the port's contract is that nothing is published then.
        throw failure("replicate");
      }
      const result = await inner.replicate(ref, from, to);
      return passReplicateResult ? result : undefined;
    },
    async checksum(storage, ref) {
      const real = await inner.checksum(storage, ref);
      return hit("checksum", storage) && real !== null ? "f".repeat(40) : real;
    },
    async verify(storage, ref) {
      if (hit("verify", storage)) throw failure("verify");
      return inner.verify?.(storage, ref);
    },
    async delete(storage, ref) {
      if (hit("delete", storage)) throw failure("delete");
      return inner.delete(storage, ref);
    },
    fail(op, times = Number.POSITIVE_INFINITY, onStorage) {
      faults.set(op, { left: times, storage: onStorage });
    },
    calls,
  };
}
