import { describe, expect, it } from "vitest";
import type { Logger } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import { memoryStore } from "../memory-store/index.js";
import { fixedClock } from "../testing/fixtures.js";
import { userActivityRecorder, utcDay } from "./user-activity.js";

/** A store whose `users.recordActivity` calls are counted (and may be made to fail). */
function countingStore(options: { fail?: boolean } = {}) {
  const store = memoryStore();
  const calls: [number, string][] = [];
  const users = new Proxy(store.users, {
    get(target, key, receiver) {
      if (key !== "recordActivity") return Reflect.get(target, key, receiver) as unknown;
      return (id: number, day: string) => {
        calls.push([id, day]);
        return options.fail === true ? Promise.reject(new Error("database down")) : target.recordActivity(id, day);
      };
    },
  });
  return { store: { ...store, users }, calls };
}

function collectingLogger() {
  const lines: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { log: (level, event, fields) => lines.push({ level, event, ...(fields === undefined ? {} : { fields }) }) };
  return { logger, lines };
}

const never = (id: number) => ({ id, lastActivityOn: null });

describe("userActivityRecorder", () => {
  it("utcDay - the UTC calendar day, whatever the local time zone", () => {
    expect(utcDay(new Date("2024-05-01T23:59:59.999Z"))).toBe("2024-05-01");
    expect(utcDay(new Date("2024-05-02T00:30:00+02:00"))).toBe("2024-05-01");
  });

  it("writes a user's day once per day per process, however many requests", async () => {
    const { store, calls } = countingStore();
    const user = await store.users.create({ username: "u", name: "U" }, new Date());
    const clock = fixedClock("2024-05-01T08:00:00Z");
    const recorder = userActivityRecorder({ store, clock, logger: collectingLogger().logger });
    for (let i = 0; i < 5; i++) recorder.record(never(user!.id));
    clock.advance(10 * 60 * 60 * 1000);
    recorder.record(never(user!.id));
    await recorder.settled();
    expect(calls).toEqual([[user!.id, "2024-05-01"]]);
    expect((await store.users.findById(user!.id))?.lastActivityOn).toBe("2024-05-01");
  });

  it("writes again on the next UTC day (the clock's, not the host's time zone)", async () => {
    const { store, calls } = countingStore();
    const clock = fixedClock("2024-05-01T23:59:00Z");
    const recorder = userActivityRecorder({ store, clock, logger: collectingLogger().logger });
    recorder.record(never(7));
    clock.advance(2 * 60 * 1000);
    recorder.record(never(7));
    await recorder.settled();
    expect(calls).toEqual([[7, "2024-05-01"], [7, "2024-05-02"]]);
  });

  it("writes nothing when the user's row already holds today (as the request read it)", async () => {
    const { store, calls } = countingStore();
    const recorder = userActivityRecorder({ store, clock: fixedClock("2024-05-01T12:00:00Z"), logger: collectingLogger().logger });
    recorder.record({ id: 3, lastActivityOn: "2024-05-01" });
    recorder.record({ id: 4, lastActivityOn: "2024-04-30" });
    await recorder.settled();
    expect(calls).toEqual([[4, "2024-05-01"]]);
  });

  it("remembers at most `memory` users: the oldest is forgotten (and costs one more write), never more entries", async () => {
    const { store, calls } = countingStore();
    const recorder = userActivityRecorder({ store, clock: fixedClock(), logger: collectingLogger().logger }, { memory: 2 });
    for (const id of [1, 2, 3]) recorder.record(never(id));
    // 1 was forgotten when 3 came; 2 and 3 are still remembered.
    for (const id of [2, 3, 1]) recorder.record(never(id));
    await recorder.settled();
    expect(calls.map(([id]) => id)).toEqual([1, 2, 3, 1]);
  });

  it("never throws or rejects when the write fails: logs it, and a later request retries", async () => {
    const { store, calls } = countingStore({ fail: true });
    const { logger, lines } = collectingLogger();
    const recorder = userActivityRecorder({ store, clock: fixedClock(), logger });
    expect(() => recorder.record(never(9))).not.toThrow();
    await recorder.settled();
    expect(lines).toEqual([{ level: "warn", event: "user_activity.record_failed", fields: expect.objectContaining({ userId: 9, message: "database down" }) }]);
    recorder.record(never(9));
    await recorder.settled();
    expect(calls).toEqual([[9, "2024-05-01"], [9, "2024-05-01"]]);
  });

  it("does not wait for the write: record returns before the store answers", async () => {
    const store = memoryStore();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = { ...store, users: { ...store.users, recordActivity: async () => (await gate, true) } } as Store;
    const recorder = userActivityRecorder({ store: slow, clock: fixedClock(), logger: collectingLogger().logger });
    recorder.record(never(1));
    let settled = false;
    const done = recorder.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await done;
    expect(settled).toBe(true);
  });

  it("a throwing clock or logger costs the request nothing", () => {
    const { store } = countingStore();
    const recorder = userActivityRecorder({ store, clock: { now: () => { throw new Error("clock"); } }, logger: { log: () => { throw new Error("logger"); } } });
    expect(() => recorder.record(never(1))).not.toThrow();
  });
});
