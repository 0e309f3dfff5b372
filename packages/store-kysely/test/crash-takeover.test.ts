/**
 * Issue 23 item 9: a worker process killed with SIGKILL in the middle of a storage move leaves the
 * project read-only only until another worker of the database can prove it is gone (its registry
 * heartbeat stopped: 5 beats of 2 s), not until the move job's lease (60 s) ends. A real child
 * process (storage-move-worker-child.ts) claims the move and hangs inside the copy; the test kills
 * it, starts a worker pool here with the default options, and measures how long the project stays
 * read-only after the kill.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit } from "@forgekit/core";
import { afterAll, describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "../src/index.js";
import { startChild } from "./child-process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ENV = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: tmpdir(), LC_ALL: "C" };

/** Two commits pushed into the bare repository `bare`. */
function pushHistory(dir: string, bare: string): void {
  const work = join(dir, "work");
  execFileSync("git", ["init", "--quiet", "-b", "main", work], { env: ENV });
  for (const i of [1, 2]) {
    writeFileSync(join(work, `file-${i}.txt`), `content ${i}\n`);
    execFileSync("git", ["add", "."], { cwd: work, env: ENV });
    execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", `commit ${i}`], { cwd: work, env: ENV });
  }
  execFileSync("git", ["push", "--quiet", bare, "main"], { cwd: work, env: ENV });
}

/** The default lease of a claim (`WorkerOptions.leaseMs`): how long the project stayed read-only before. */
const DEFAULT_LEASE_MS = 60_000;

describe("storage moves - a worker killed mid-move (SIGKILL)", () => {
  it("leaves the project read-only only until its heartbeat is proven stopped, far less than the job's lease", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-crash-"));
    dirs.push(dir);
    const file = join(dir, "forgekit.db");
    const shards = { default: { path: join(dir, "default") }, secondary: { path: join(dir, "secondary") } };
    const store = kyselyStore(sqlite(file));
    const fk = createForgekit({ baseUrl: "https://forge.example.com", store, repositoryStorages: shards, logger: { log: () => undefined } });
    const child = startChild("storage-move-worker-child.ts", [file, shards.default.path, shards.secondary.path]);
    try {
      (await fk.migrate())._unsafeUnwrap();
      const user = (await fk.users.create({ username: "mover", name: "Mover", email: "mover@example.com" }))._unsafeUnwrap();
      const project = (await fk.projects.create({ namespaceId: user.namespaceId ?? 0, name: "moved", creatorId: user.id }))._unsafeUnwrap();
      pushHistory(dir, fk.config.repositoryStorage.localPath?.("default", { kind: "project", id: project.id }) ?? "");
      const move = (await fk.storageMoves.schedule("project", project.id))._unsafeUnwrap();

      const owner = (await child.line((line) => line.startsWith("worker "))).slice("worker ".length);
      await child.line((line) => line === `replicating project ${project.id}`);
      expect(await store.jobs.findById(move.jobId ?? 0)).toMatchObject({ state: "running", leaseOwner: owner, attempts: 1 });
      expect((await fk.projects.findById(project.id))._unsafeUnwrap().repositoryReadOnly).toBe(true);

      child.kill("SIGKILL");
      const killedAt = Date.now();
      await child.exited.catch(() => undefined);
      // A worker starts in this process with the default options (lease 60 s, registry beat 2 s).
      fk.workers.start({ recurring: false })._unsafeUnwrap();
      let writableAt: number | null = null;
      while (writableAt === null) {
        if (!(await fk.projects.findById(project.id))._unsafeUnwrap().repositoryReadOnly) writableAt = Date.now();
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const windowSeconds = (writableAt - killedAt) / 1000;
      console.log(`read-only window after SIGKILL of the worker mid-move: ${windowSeconds.toFixed(1)} s (job lease ${DEFAULT_LEASE_MS / 1000} s)`);
      expect(windowSeconds * 1000).toBeLessThan(DEFAULT_LEASE_MS / 2);

      await fk.workers.stop();
      expect((await fk.storageMoves.find("project", move.id))._unsafeUnwrap()).toMatchObject({ state: "finished" });
      expect((await fk.projects.findById(project.id))._unsafeUnwrap()).toMatchObject({ repositoryStorage: "secondary", repositoryReadOnly: false });
      expect(await store.jobs.findById(move.jobId ?? 0)).toMatchObject({ state: "succeeded", attempts: 2 });
    } finally {
      child.kill("SIGKILL");
      await fk.workers.stop();
      await store.close();
    }
  });
});
