/**
 * `fk.storageMoves` on the memory store and real git shards: scheduling rules, moves run by the
 * background jobs to `finished` with refs unchanged, bulk moves with progress, and the fault rules
 * (spec "Repository storage moves"; issue 9 §4 "Faults").
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RepositoryStorage } from "../ports/repository-storage.js";
import { gitRepositoryStorage } from "../repositories/git-repository-storage.js";
import { must, testRepositoryStorages, type TestForgekit } from "../testing/fixtures.js";
import { commitInto, drainJobs, faultyStorage, MOVE_TEST_TIMEOUT_MS, readable, refOf, refsOf, repositoryPath, twoShardForgekit } from "./test-kit.js";

/** Real git work under load: generous limits (test-kit.ts). */
const SLOW = { timeout: MOVE_TEST_TIMEOUT_MS };

/** An instance whose repository storage fails on demand. */
async function faultyForgekit(passReplicateResult = false) {
  const shards = testRepositoryStorages(["default", "secondary"]);
  const storage = faultyStorage(gitRepositoryStorage({ shards: { default: shards["default"]?.path, secondary: shards["secondary"]?.path } }), passReplicateResult);
  const t = await twoShardForgekit({ repositoryStorages: shards, repositoryStorage: storage });
  return { t, storage };
}

/**
 * An instance whose storage counts the replications in flight and whose connectivity check fails
 * for one project only. With `gate`, the first `gate` replications wait until that many are in
 * flight at once (however slowly the machine starts them), so a limit of `gate` is reached, and a
 * pool that started more would show it while they wait.
 */
async function observedForgekit(options: { failVerifyOf?: () => number; gate?: number } = {}) {
  const { failVerifyOf, gate = 0 } = options;
  const shards = testRepositoryStorages(["default", "secondary"]);
  const inner = gitRepositoryStorage({ shards: { default: shards["default"]?.path, secondary: shards["secondary"]?.path } });
  const seen = { inFlight: 0, most: 0, started: 0 };
  let open: () => void = () => undefined;
  const gateOpen = new Promise<void>((resolve) => (open = resolve));
  // A pool that never reaches `gate` fails the test's assertion after a minute instead of hanging.
  if (gate > 0) setTimeout(() => open(), 60_000).unref();
  const storage: RepositoryStorage = {
    ...inner,
    async replicate(ref, from, to) {
      seen.inFlight += 1;
      seen.started += 1;
      seen.most = Math.max(seen.most, seen.inFlight);
      try {
        if (seen.inFlight >= gate) open();
        if (seen.started <= gate) await gateOpen;
        return await inner.replicate(ref, from, to);
      } finally {
        seen.inFlight -= 1;
      }
    },
    async verify(name, ref) {
      if (ref.kind === "project" && ref.id === failVerifyOf?.()) throw Object.assign(new Error("injected: a blob is missing"), { reason: "failed" as const });
      return inner.verify?.(name, ref);
    },
  };
  const t = await twoShardForgekit({ repositoryStorages: shards, repositoryStorage: storage });
  for (let i = 0; i < 8; i += 1) await t.createProject({ namespaceId: t.users.alice.namespaceId ?? 0, name: `extra-${i}`, creatorId: t.users.alice.id });
  return { t, seen };
}

/** A project with a few commits; its refs. */
function withCommits(t: TestForgekit, id: number) {
  const path = repositoryPath(t, "default", refOf("project", id));
  commitInto(path, 3);
  return refsOf(path);
}

/** The container is in exactly one authoritative shard, whole, with these refs. */
async function expectIntact(t: TestForgekit, kind: "project" | "snippet" | "group", id: number, refs: string, storage: string) {
  const container = await t.store.storageMoves.containers.find(kind, id);
  expect(container).toMatchObject({ storage, readOnly: false });
  const path = repositoryPath(t, storage, refOf(kind, id));
  expect(readable(path)).toBe(true);
  expect(refsOf(path)).toBe(refs);
}

describe("fk.storageMoves.schedule", SLOW, () => {
  it("makes the project read-only, records a scheduled move with its job, and the job moves it to finished with refs unchanged", async () => {
    const t = await twoShardForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    expect(move).toMatchObject({ kind: "project", containerId: project.id, state: "scheduled", sourceStorage: "default", destinationStorage: "secondary", errorMessage: null });
    expect(move.jobId).not.toBeNull();
    expect((await must(t.fk.projects.findById(project.id))).repositoryReadOnly).toBe(true);
    await drainJobs(t);
    expect(await must(t.fk.storageMoves.find("project", move.id))).toMatchObject({ state: "finished", errorMessage: null });
    await expectIntact(t, "project", project.id, refs, "secondary");
    expect(existsSync(repositoryPath(t, "default", refOf("project", project.id)))).toBe(false);
    expect((await must(t.fk.projects.findById(project.id))).repositoryStorage).toBe("secondary");
  });

  it("moves a snippet and a group wiki (their storage recorded at creation)", async () => {
    const t = await twoShardForgekit();
    const snippet = await must(t.fk.snippets.create({ authorId: t.users.alice.id, title: "s", fileName: "a.txt", content: "hello" }));
    expect(await t.store.storageMoves.containers.find("snippet", snippet.id)).toMatchObject({ storage: "default" });
    const snippetRefs = refsOf(repositoryPath(t, "default", refOf("snippet", snippet.id)));
    const groupRefs = refsOf(repositoryPath(t, "default", refOf("group", t.groups.grp.id)));
    await must(t.fk.storageMoves.schedule("snippet", snippet.id, { destination: "secondary" }));
    await must(t.fk.storageMoves.schedule("group", t.groups.grp.id));
    await drainJobs(t);
    await expectIntact(t, "snippet", snippet.id, snippetRefs, "secondary");
    await expectIntact(t, "group", t.groups.grp.id, groupRefs, "secondary");
  });

  it("a read-only container cannot be scheduled: {\"project\":[\"is read-only\"]}; nothing is written", async () => {
    const t = await twoShardForgekit();
    const project = t.projects.publicProject;
    await must(t.fk.storageMoves.schedule("project", project.id));
    const second = await t.fk.storageMoves.schedule("project", project.id);
    expect(second._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { project: ["is read-only"] } });
    expect((await must(t.fk.storageMoves.list("project", { containerId: project.id }))).items).toHaveLength(1);
  });

  it("of two racing schedules of one container, exactly one wins", async () => {
    const t = await twoShardForgekit();
    const results = await Promise.all([t.fk.storageMoves.schedule("snippet", 1), t.fk.storageMoves.schedule("group", t.groups.sub.id), t.fk.storageMoves.schedule("group", t.groups.sub.id)]);
    expect(results.slice(1).filter((r) => r.isOk())).toHaveLength(1);
  });

  it("an unknown or same destination is a validation error; an unknown container is not found", async () => {
    const t = await twoShardForgekit();
    const id = t.projects.publicProject.id;
    expect((await t.fk.storageMoves.schedule("project", id, { destination: "nowhere" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { destination_storage_name: ["is not included in the list"] } });
    expect((await t.fk.storageMoves.schedule("project", id, { destination: "default" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { destination_storage_name: ["must be different from source_storage_name"] } });
    expect((await t.fk.storageMoves.schedule("project", 999_999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await t.fk.storageMoves.schedule("snippet", 999_999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Snippet" });
    expect((await must(t.fk.projects.findById(id))).repositoryReadOnly).toBe(false);
  });

  it("a failed move leaves the project writable on its source, and scheduling again starts a new move", async () => {
    const { t, storage } = await faultyForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    storage.fail("replicate");
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    const failed = await must(t.fk.storageMoves.find("project", move.id));
    expect(failed).toMatchObject({ state: "failed", errorMessage: "injected replicate failure" });
    expect(storage.calls.replicate).toBe(5);
    await expectIntact(t, "project", project.id, refs, "default");
    expect(existsSync(repositoryPath(t, "secondary", refOf("project", project.id)))).toBe(false);
    storage.fail("replicate", 0);
    const again = await must(t.fk.storageMoves.schedule("project", project.id));
    expect(again.id).not.toBe(move.id);
    await drainJobs(t);
    expect((await must(t.fk.storageMoves.find("project", again.id))).state).toBe("finished");
    await expectIntact(t, "project", project.id, refs, "secondary");
  });
});

describe("fk.storageMoves faults", SLOW, () => {
  it("a replication failing a few times is retried and finishes", async () => {
    const { t, storage } = await faultyForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    storage.fail("replicate", 2);
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    expect((await must(t.fk.storageMoves.find("project", move.id))).state).toBe("finished");
    await expectIntact(t, "project", project.id, refs, "secondary");
  });

  it("checksums that never match end the move failed; the copy is removed and the source stays authoritative", async () => {
    const { t, storage } = await faultyForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    storage.fail("checksum", Number.POSITIVE_INFINITY, "secondary");
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    const failed = await must(t.fk.storageMoves.find("project", move.id));
    expect(failed.state).toBe("failed");
    expect(failed.errorMessage).toMatch(/^ref checksums differ/);
    await expectIntact(t, "project", project.id, refs, "default");
    expect(existsSync(repositoryPath(t, "secondary", refOf("project", project.id)))).toBe(false);
  });

  it("a storage that compared the checksums as it replicated (the git one) is not asked for them again; the move finishes intact", async () => {
    const { t, storage } = await faultyForgekit(true);
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    expect((await must(t.fk.storageMoves.find("project", move.id))).state).toBe("finished");
    expect(storage.calls.checksum).toBe(0);
    await expectIntact(t, "project", project.id, refs, "secondary");
  });

  it("a connectivity check that fails ends the move failed, writable on the source", async () => {
    const { t, storage } = await faultyForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    storage.fail("verify");
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    expect(await must(t.fk.storageMoves.find("project", move.id))).toMatchObject({ state: "failed", errorMessage: "injected verify failure" });
    await expectIntact(t, "project", project.id, refs, "default");
  });

  it("a cleanup that keeps failing ends `cleanup failed`: the project works on the destination, the source copy is left", async () => {
    const { t, storage } = await faultyForgekit();
    const project = t.projects.publicProject;
    const refs = withCommits(t, project.id);
    storage.fail("delete", Number.POSITIVE_INFINITY, "default");
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await drainJobs(t);
    expect(await must(t.fk.storageMoves.find("project", move.id))).toMatchObject({ state: "cleanup_failed", errorMessage: "injected delete failure" });
    await expectIntact(t, "project", project.id, refs, "secondary");
    expect(existsSync(repositoryPath(t, "default", refOf("project", project.id)))).toBe(true);
  });

  for (const step of ["replicate", "switch", "cleanup"] as const) {
    it(`a worker killed right after the ${step} step: its lease expires, another claim resumes the move to finished`, async () => {
      const t = await twoShardForgekit();
      const project = t.projects.publicProject;
      const refs = withCommits(t, project.id);
      const move = await must(t.fk.storageMoves.schedule("project", project.id));
      // A worker claims the job and dies right after the step: no outcome is written, the lease stays.
      const { runMove } = await import("./run.js");
      const [claimed] = await t.store.jobs.claim({ owner: "doomed", kinds: ["storage_moves.move"], limit: 1, now: t.clock.now(), leaseUntil: new Date(t.clock.now().getTime() + 60_000) });
      expect(claimed?.id).toBe(move.jobId);
      const killed = new Error("killed");
      await expect(
        runMove(t.fk.config, move.id, {
          lastAttempt: false,
          step: async (name, fn) => {
            const value = await fn();
            if (name === step) throw killed;
            return value;
          },
        }),
      ).rejects.toBe(killed);
      // Mid-way, the project is on exactly one shard: the source until the switch, the destination after.
      const mid = await t.store.storageMoves.containers.find("project", project.id);
      const authoritative = step === "replicate" ? "default" : "secondary";
      expect(mid?.storage).toBe(authoritative);
      expect(refsOf(repositoryPath(t, authoritative, refOf("project", project.id)))).toBe(refs);
      t.clock.advance(61_000);
      await drainJobs(t);
      expect((await must(t.fk.storageMoves.find("project", move.id))).state).toBe("finished");
      expect((await must(t.fk.jobs.find(move.jobId ?? 0))).attempts).toBe(2);
      await expectIntact(t, "project", project.id, refs, "secondary");
      expect(existsSync(repositoryPath(t, "default", refOf("project", project.id)))).toBe(false);
    });
  }

  it("a move whose job was cancelled is settled failed at the next schedule, which then proceeds", async () => {
    const t = await twoShardForgekit();
    const project = t.projects.publicProject;
    const move = await must(t.fk.storageMoves.schedule("project", project.id));
    await must(t.fk.jobs.cancel(move.jobId ?? 0));
    const again = await must(t.fk.storageMoves.schedule("project", project.id));
    expect(await must(t.fk.storageMoves.find("project", move.id))).toMatchObject({ state: "failed", errorMessage: "the job running the move ended before it finished" });
    expect(again.state).toBe("scheduled");
  });
});

describe("fk.storageMoves.scheduleBulk", SLOW, () => {
  it("moves every project, snippet and group wiki from default to secondary and back, progress done/total on the job, refs unchanged", async () => {
    const t = await twoShardForgekit();
    const snippet = await must(t.fk.snippets.create({ authorId: t.users.alice.id, title: "s", fileName: "a.txt", content: "hello" }));
    const projects = Object.values(t.projects);
    const before = new Map<string, string>();
    for (const p of projects) before.set(`project:${p.id}`, withCommits(t, p.id));
    before.set(`snippet:${snippet.id}`, refsOf(repositoryPath(t, "default", refOf("snippet", snippet.id))));
    for (const g of Object.values(t.groups)) before.set(`group:${g.id}`, refsOf(repositoryPath(t, "default", refOf("group", g.id))));
    for (const [from, to] of [["default", "secondary"], ["secondary", "default"]] as const) {
      const jobs = [];
      for (const kind of ["project", "snippet", "group"] as const) jobs.push(await must(t.fk.storageMoves.scheduleBulk(kind, { source: from, destination: to })));
      await drainJobs(t);
      for (const job of jobs) {
        const done = await must(t.fk.jobs.find(job.id));
        expect(done.state).toBe("succeeded");
        expect(done.progress?.done).toBe(done.progress?.total);
      }
      expect((await must(t.fk.jobs.find(jobs[0]?.id ?? 0))).progress).toEqual({ done: projects.length, total: projects.length });
      for (const [key, refs] of before) {
        const [kind, id] = key.split(":") as ["project" | "snippet" | "group", string];
        await expectIntact(t, kind, Number(id), refs, to);
        expect(existsSync(repositoryPath(t, from, refOf(kind, Number(id))))).toBe(false);
      }
      expect(await t.store.storageMoves.containers.count("project", from)).toBe(0);
    }
    const moves = await must(t.fk.storageMoves.list("project", { perPage: 100 }));
    expect(moves.items.every((m) => m.state === "finished")).toBe(true);
    expect(moves.items).toHaveLength(projects.length * 2);
  });

  it("settles a container's move whose job ended unfinished, then moves the container", async () => {
    const t = await twoShardForgekit();
    const stuck = await must(t.fk.storageMoves.schedule("project", t.projects.hidden.id));
    await must(t.fk.jobs.cancel(stuck.jobId ?? 0));
    await must(t.fk.storageMoves.scheduleBulk("project", { source: "default" }));
    await drainJobs(t);
    expect((await must(t.fk.storageMoves.find("project", stuck.id))).state).toBe("failed");
    expect(await t.store.storageMoves.containers.find("project", t.projects.hidden.id)).toMatchObject({ storage: "secondary", readOnly: false });
  });

  it("runs at most `concurrency` moves at once, and more than one", async () => {
    const { t, seen } = await observedForgekit({ gate: 3 });
    const count = await t.store.storageMoves.containers.count("project", "default");
    const job = await must(t.fk.storageMoves.scheduleBulk("project", { source: "default", concurrency: 3 }));
    expect(job.payload).toMatchObject({ concurrency: 3 });
    await drainJobs(t);
    expect((await must(t.fk.jobs.find(job.id))).progress).toEqual({ done: count, total: count });
    expect(seen.most).toBe(3);
    expect(await t.store.storageMoves.containers.count("project", "secondary")).toBe(count);
  });

  it("concurrency must be an integer from 1 to 64", async () => {
    const t = await twoShardForgekit();
    for (const concurrency of [0, 65, 1.5, Number.NaN]) {
      expect((await t.fk.storageMoves.scheduleBulk("project", { source: "default", concurrency }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { concurrency: ["must be an integer from 1 to 64"] } });
    }
  });

  it("a repository whose copy fails verification fails only its own move: writable and whole on its source; the others finish", async () => {
    let broken = 0;
    const { t } = await observedForgekit({ failVerifyOf: () => broken });
    broken = t.projects.publicProject.id;
    const refs = withCommits(t, broken);
    const job = await must(t.fk.storageMoves.scheduleBulk("project", { source: "default" }));
    await drainJobs(t);
    expect((await must(t.fk.jobs.find(job.id))).state).toBe("failed");
    const moves = (await must(t.fk.storageMoves.list("project", { perPage: 100 }))).items;
    expect(moves.filter((m) => m.state === "failed").map((m) => [m.containerId, m.errorMessage])).toEqual([[broken, "injected: a blob is missing"]]);
    expect(moves.filter((m) => m.state === "finished")).toHaveLength(moves.length - 1);
    await expectIntact(t, "project", broken, refs, "default");
    expect(existsSync(repositoryPath(t, "secondary", refOf("project", broken)))).toBe(false);
    expect(await t.store.storageMoves.containers.count("project", "default")).toBe(1);
  });

  it("skips read-only containers and those on other shards; unknown storages are validation errors", async () => {
    const t = await twoShardForgekit();
    await must(t.fk.projects.setReadOnly(t.projects.hidden.id, true));
    const job = await must(t.fk.storageMoves.scheduleBulk("project", { source: "default" }));
    await drainJobs(t);
    const moved = (await must(t.fk.storageMoves.list("project", { perPage: 100 }))).items.map((m) => m.containerId);
    expect(moved).not.toContain(t.projects.hidden.id);
    expect(moved).toHaveLength(Object.keys(t.projects).length - 1);
    expect((await must(t.fk.jobs.find(job.id))).progress).toEqual({ done: moved.length, total: moved.length });
    expect((await t.fk.storageMoves.scheduleBulk("project", { source: "nowhere" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { source_storage_name: ["is not included in the list"] } });
    expect((await t.fk.storageMoves.scheduleBulk("project", { source: "default", destination: "x" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { destination_storage_name: ["is not included in the list"] } });
  });
});
