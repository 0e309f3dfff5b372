/**
 * The storage-moves conformance suite: the rules of ports/storage-moves-store.ts (move rows and
 * container locations) as vitest tests any Store runs — the memory store and every SQL dialect.
 * `open` returns a migrated empty store and, for the racing cases, a rival store on the same
 * database (the memory store passes itself); both are closed after each test.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../ports/store.js";
import { T0, at, makeGroup, makeProject, makeUser, makeUserNamespace } from "./store-conformance/context.js";

/** What one test runs against. */
export interface StorageMovesTarget {
  store: Store;
  /** A second store on the same database (another process); the memory store passes `store`. */
  rival: Store;
}

/** Registers the suite under `describe(name)`. */
export function runStorageMovesConformance(name: string, open: () => Promise<StorageMovesTarget>): void {
  describe(name, () => {
    let current: StorageMovesTarget | null = null;
    const store = (): Store => {
      if (current === null) throw new Error("only while a test runs");
      return current.store;
    };
    const rival = (): Store => current?.rival ?? store();
    beforeEach(async () => {
      current = await open();
    });
    afterEach(async () => {
      const target = current;
      current = null;
      await target?.store.close();
      if (target !== undefined && target !== null && target.rival !== target.store) await target.rival.close();
    });

    const project = async (storage = "default") => makeProject(store(), await makeGroup(store()), { repositoryStorage: storage });
    const snippet = async () => {
      const author = await makeUser(store());
      return store().activity.snippets.create({ projectId: null, authorId: author.id, title: "s", fileName: "a.txt", content: "x", visibility: "private" }, T0);
    };
    const move = (containerId: number, now = T0, kind: "project" | "snippet" | "group" = "project", jobId: number | null = null) =>
      store().storageMoves.moves.create({ kind, containerId, state: "scheduled", sourceStorage: "default", destinationStorage: "second", jobId }, now);

    describe("storageMoves.moves", () => {
      it("create - a move with its kind, container, state, storages and job; findById reads it back", async () => {
        const p = await project();
        const created = await move(p.id, T0, "project", 42);
        expect(created).toEqual({
          id: created.id,
          kind: "project",
          containerId: p.id,
          state: "scheduled",
          sourceStorage: "default",
          destinationStorage: "second",
          errorMessage: null,
          jobId: 42,
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store().storageMoves.moves.findById(created.id)).toEqual(created);
        expect(await store().storageMoves.moves.findById(created.id + 1000)).toBeNull();
      });

      it("transition - applies the patch only from the given states (compare-and-set)", async () => {
        const p = await project();
        const m = await move(p.id);
        const started = await store().storageMoves.moves.transition(m.id, ["scheduled"], { state: "started", jobId: 7 }, at(1));
        expect(started).toMatchObject({ state: "started", jobId: 7, updatedAt: at(1), createdAt: T0, errorMessage: null });
        expect(await store().storageMoves.moves.transition(m.id, ["scheduled"], { state: "failed" }, at(2))).toBeNull();
        const failed = await store().storageMoves.moves.transition(m.id, ["initial", "scheduled", "started"], { state: "failed", errorMessage: "boom" }, at(3));
        expect(failed).toMatchObject({ state: "failed", errorMessage: "boom", jobId: 7 });
        expect(await store().storageMoves.moves.transition(m.id, [], { state: "started" }, at(4))).toBeNull();
        expect(await store().storageMoves.moves.transition(m.id + 1000, ["failed"], { state: "started" }, at(4))).toBeNull();
        expect((await store().storageMoves.moves.findById(m.id))?.state).toBe("failed");
      });

      it("transition - every state round-trips (cleanup_failed and replicated included)", async () => {
        const p = await project();
        const m = await move(p.id);
        for (const [from, to] of [["scheduled", "started"], ["started", "replicated"], ["replicated", "cleanup_failed"]] as const) {
          expect((await store().storageMoves.moves.transition(m.id, [from], { state: to }, at(1)))?.state).toBe(to);
        }
        expect((await store().storageMoves.moves.findById(m.id))?.state).toBe("cleanup_failed");
      });

      it("transition - of two racing transitions from one state, exactly one wins", async () => {
        const p = await project();
        const m = await move(p.id);
        const results = await Promise.all([
          store().storageMoves.moves.transition(m.id, ["scheduled"], { state: "started" }, at(1)),
          rival().storageMoves.moves.transition(m.id, ["scheduled"], { state: "failed", errorMessage: "x" }, at(1)),
        ]);
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it("list - newest first (created_at, then id), per kind and per container, paginated", async () => {
        const a = await project();
        const b = await project();
        const m1 = await move(a.id, at(1));
        const m2 = await move(b.id, at(3));
        const m3 = await move(a.id, at(2));
        const m4 = await move(a.id, at(2));
        await move(a.id, at(5), "snippet");
        const all = await store().storageMoves.moves.list({ kind: "project" }, { kind: "offset", page: 1, perPage: 20 });
        expect(all.items.map((m) => m.id)).toEqual([m2.id, m4.id, m3.id, m1.id]);
        expect(all.total).toBe(4);
        expect(all.hasNext).toBe(false);
        const ofA = await store().storageMoves.moves.list({ kind: "project", containerId: a.id }, { kind: "offset", page: 2, perPage: 2 });
        expect(ofA.items.map((m) => m.id)).toEqual([m1.id]);
        expect(ofA.total).toBe(3);
        const first = await store().storageMoves.moves.list({ kind: "project", containerId: a.id }, { kind: "offset", page: 1, perPage: 2 });
        expect(first.hasNext).toBe(true);
        expect((await store().storageMoves.moves.list({ kind: "group" }, { kind: "offset", page: 1, perPage: 20 })).items).toEqual([]);
      });

      it("listByJob and latestFor - a job's moves by id; a container's newest move", async () => {
        const a = await project();
        const b = await project();
        const m1 = await move(a.id, at(1), "project", 9);
        const m2 = await move(b.id, at(1), "project", 9);
        await move(a.id, at(2), "project", 10);
        expect((await store().storageMoves.moves.listByJob(9)).map((m) => m.id)).toEqual([m1.id, m2.id]);
        expect(await store().storageMoves.moves.listByJob(11)).toEqual([]);
        expect((await store().storageMoves.moves.latestFor("project", a.id))?.jobId).toBe(10);
        expect((await store().storageMoves.moves.latestFor("project", b.id))?.id).toBe(m2.id);
        expect(await store().storageMoves.moves.latestFor("snippet", a.id)).toBeNull();
      });
    });

    describe("storageMoves.containers", () => {
      it("find - a project's storage and read-only flag; snippets and groups unrecorded and writable until set; unknown → null", async () => {
        const p = await project("second");
        const s = await snippet();
        const g = await makeGroup(store());
        expect(await store().storageMoves.containers.find("project", p.id)).toEqual({ kind: "project", id: p.id, storage: "second", readOnly: false });
        expect(await store().storageMoves.containers.find("snippet", s.id)).toEqual({ kind: "snippet", id: s.id, storage: null, readOnly: false });
        expect(await store().storageMoves.containers.find("group", g.id)).toEqual({ kind: "group", id: g.id, storage: null, readOnly: false });
        expect(await store().storageMoves.containers.find("project", p.id + 1000)).toBeNull();
        expect(await store().storageMoves.containers.find("snippet", s.id + 1000)).toBeNull();
      });

      it("find - a user namespace has no wiki: not a group container", async () => {
        const user = await makeUser(store());
        const namespace = await makeUserNamespace(store(), user);
        expect(await store().storageMoves.containers.find("group", namespace.id)).toBeNull();
      });

      it("update - writes storage and read-only when the row holds what `expect` says; the project row shows it", async () => {
        const p = await project();
        expect(await store().storageMoves.containers.update("project", p.id, { readOnly: true }, { readOnly: false, storage: "default" })).toEqual({ kind: "project", id: p.id, storage: "default", readOnly: true });
        expect(await store().storageMoves.containers.update("project", p.id, { readOnly: true }, { readOnly: false })).toBeNull();
        expect(await store().storageMoves.containers.update("project", p.id, { storage: "second", readOnly: false }, { storage: "other" })).toBeNull();
        expect(await store().storageMoves.containers.update("project", p.id, { storage: "second", readOnly: false }, { storage: "default", readOnly: true })).toMatchObject({ storage: "second", readOnly: false });
        expect(await store().projects.findById(p.id)).toMatchObject({ repositoryStorage: "second", repositoryReadOnly: false });
        expect(await store().storageMoves.containers.update("project", p.id + 1000, { readOnly: true })).toBeNull();
      });

      it("update - records a snippet's and a group wiki's storage (expect storage null: not recorded yet)", async () => {
        const s = await snippet();
        const g = await makeGroup(store());
        expect(await store().storageMoves.containers.update("snippet", s.id, { storage: "default" }, { storage: null })).toMatchObject({ storage: "default", readOnly: false });
        expect(await store().storageMoves.containers.update("snippet", s.id, { storage: "second" }, { storage: null })).toBeNull();
        expect(await store().storageMoves.containers.update("group", g.id, { storage: "second", readOnly: true })).toMatchObject({ storage: "second", readOnly: true });
        expect(await store().storageMoves.containers.find("group", g.id)).toEqual({ kind: "group", id: g.id, storage: "second", readOnly: true });
      });

      it("update - of two racing read-only locks, exactly one wins", async () => {
        const p = await project();
        const results = await Promise.all([
          store().storageMoves.containers.update("project", p.id, { readOnly: true }, { readOnly: false }),
          rival().storageMoves.containers.update("project", p.id, { readOnly: true }, { readOnly: false }),
        ]);
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it("update - inside a transaction that rolls back, nothing is written", async () => {
        const p = await project();
        await expect(
          store().transaction(async (tx) => {
            await tx.storageMoves.containers.update("project", p.id, { readOnly: true });
            await tx.storageMoves.moves.create({ kind: "project", containerId: p.id, state: "scheduled", sourceStorage: "default", destinationStorage: "second" }, T0);
            throw new Error("roll back");
          }),
        ).rejects.toThrow("roll back");
        expect((await store().storageMoves.containers.find("project", p.id))?.readOnly).toBe(false);
        expect(await store().storageMoves.moves.latestFor("project", p.id)).toBeNull();
      });

      it("listIds and count - containers on a storage (null: not recorded), id ascending, after an id, limited", async () => {
        const p1 = await project("default");
        const p2 = await project("second");
        const p3 = await project("default");
        expect(await store().storageMoves.containers.listIds("project", "default", 0, 10)).toEqual([p1.id, p3.id]);
        expect(await store().storageMoves.containers.listIds("project", "default", p1.id, 10)).toEqual([p3.id]);
        expect(await store().storageMoves.containers.listIds("project", "default", 0, 1)).toEqual([p1.id]);
        expect(await store().storageMoves.containers.count("project", "second")).toBe(1);
        expect(await store().storageMoves.containers.listIds("project", "second", 0, 10)).toEqual([p2.id]);
        const s1 = await snippet();
        const s2 = await snippet();
        await store().storageMoves.containers.update("snippet", s2.id, { storage: "default" });
        expect(await store().storageMoves.containers.listIds("snippet", null, 0, 10)).toEqual([s1.id]);
        expect(await store().storageMoves.containers.listIds("snippet", "default", 0, 10)).toEqual([s2.id]);
        const user = await makeUser(store());
        const personal = await makeUserNamespace(store(), user);
        const g = await makeGroup(store());
        await store().storageMoves.containers.update("group", g.id, { storage: "second" });
        // The projects above live in groups of their own (not recorded); user namespaces are never listed.
        const groups = await store().storageMoves.containers.listIds("group", null, 0, 10);
        expect(groups).toHaveLength(3);
        expect(groups).not.toContain(personal.id);
        expect([...groups].sort((x, y) => x - y)).toEqual(groups);
        expect(await store().storageMoves.containers.listIds("group", "second", 0, 10)).toEqual([g.id]);
        expect(await store().storageMoves.containers.count("group", null)).toBe(3);
        await expect(store().storageMoves.containers.listIds("project", "default", 0, 0)).rejects.toThrow(RangeError);
      });
    });
  });
}
