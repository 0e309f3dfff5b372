/** The undo log under the memory store's tables (journal.ts). */
import { describe, expect, it } from "vitest";
import { JournalMap, JournalSet, restoreSkeleton, runJournaled, snapshotSkeleton, UndoLog } from "./journal.js";

describe("runJournaled", () => {
  it("an operation that throws leaves no trace: inserts, replacements, deletes and set changes are undone", () => {
    const rows = new JournalMap<number, { name: string }>([[1, { name: "one" }], [2, { name: "two" }]]);
    const keys = new JournalSet<string>(["a"]);
    expect(() =>
      runJournaled(() => {
        rows.set(3, { name: "three" });
        rows.set(1, { name: "uno" });
        rows.delete(2);
        keys.add("b");
        keys.delete("a");
        throw new Error("boom");
      }, null),
    ).toThrow("boom");
    expect([...rows.entries()].sort((a, b) => a[0] - b[0])).toEqual([[1, { name: "one" }], [2, { name: "two" }]]);
    expect([...keys]).toEqual(["a"]);
  });

  it("a transaction's log undoes the operations it received, newest first", () => {
    const rows = new JournalMap<number, string>();
    const log = new UndoLog();
    runJournaled(() => rows.set(1, "a"), log);
    runJournaled(() => rows.set(1, "b"), log);
    runJournaled(() => rows.delete(1), log);
    runJournaled(() => rows.set(1, "c"), log);
    expect(log.size).toBe(4);
    log.undo();
    expect(rows.has(1)).toBe(false);
    expect(log.size).toBe(0);
  });

  it("clear is undone row by row", () => {
    const rows = new JournalMap<string, number>([["x", 1], ["y", 2]]);
    const set = new JournalSet<number>([1, 2]);
    const log = new UndoLog();
    runJournaled(() => {
      rows.clear();
      set.clear();
    }, log);
    log.undo();
    expect(Object.fromEntries(rows)).toEqual({ x: 1, y: 2 });
    expect([...set].sort()).toEqual([1, 2]);
  });

  it("the log holds what changed, not what is stored", () => {
    const rows = new JournalMap<number, { n: number }>();
    runJournaled(() => {
      for (let i = 0; i < 10_000; i++) rows.set(i, { n: i });
    }, null);
    const log = new UndoLog();
    runJournaled(() => rows.edit(5)!.n++, log);
    expect(log.size).toBe(1);
  });
});

describe("JournalMap rows", () => {
  it("a stored row is frozen once its operation ends: a change in place throws instead of escaping the log", () => {
    const rows = new JournalMap<number, { n: number }>();
    runJournaled(() => {
      const row = { n: 1 };
      rows.set(1, row);
      row.n = 2; // still inside the writing operation
    }, null);
    expect(rows.get(1)).toEqual({ n: 2 });
    expect(() => {
      rows.get(1)!.n = 3;
    }).toThrow(TypeError);
  });

  it("edit hands out a journaled copy: the old row comes back on undo, untouched", () => {
    const rows = new JournalMap<number, { n: number; tags: string[] }>();
    runJournaled(() => rows.set(1, { n: 1, tags: ["a"] }), null);
    const before = rows.get(1);
    const log = new UndoLog();
    runJournaled(() => {
      const row = rows.edit(1)!;
      row.n = 2;
      row.tags = [...row.tags, "b"];
    }, log);
    expect(rows.get(1)).toEqual({ n: 2, tags: ["a", "b"] });
    log.undo();
    expect(rows.get(1)).toBe(before);
    expect(before).toEqual({ n: 1, tags: ["a"] });
  });

  it("edit of a missing key is undefined and writes nothing", () => {
    const rows = new JournalMap<number, { n: number }>();
    const log = new UndoLog();
    expect(runJournaled(() => rows.edit(9), log)).toBeUndefined();
    expect(log.size).toBe(0);
  });
});

describe("snapshotSkeleton", () => {
  it("restores sequences and removes tables added since, without copying any table", () => {
    const table = new JournalMap<number, string>();
    const state: Record<string, unknown> = { seq: { users: 4 }, users: table, nested: { seq: 1 } };
    const snapshot = snapshotSkeleton(state);
    (state["seq"] as { users: number }).users = 9;
    (state["nested"] as { seq: number }).seq = 5;
    state["moves"] = { seq: 0 };
    restoreSkeleton(snapshot);
    expect(state).toEqual({ seq: { users: 4 }, users: table, nested: { seq: 1 } });
    expect(state["users"]).toBe(table);
  });
});
