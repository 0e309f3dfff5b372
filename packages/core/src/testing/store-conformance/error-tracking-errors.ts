/** Conformance: tracked errors and their events (ports/error-tracking-store.ts). */
import { expect, it } from "vitest";
import type { NewErrorEvent } from "../../ports/error-tracking-store.js";
import { T0, at, ids, makeGroup, makeProject, unique, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 100) => ({ kind: "offset", page: n, perPage }) as const;

/** A fingerprint no other fixture uses (64 hex digits). */
function fingerprint(): string {
  return unique("f").replace(/\D/g, "").padStart(64, "a");
}

/** An error event of `projectId` with a fresh fingerprint; `extra` overrides fields (also used by first-writes.ts). */
export function errorEvent(projectId: number, extra: Partial<NewErrorEvent> = {}): NewErrorEvent {
  return {
    projectId,
    fingerprint: fingerprint(),
    name: "TypeError",
    description: "x is undefined",
    actor: "handler",
    platform: "node",
    eventId: null,
    level: "error",
    environment: "production",
    occurredAt: null,
    payload: '{"exception":{"values":[]}}',
    ...extra,
  };
}

export function errorTrackingErrorTests(ctx: SuiteContext): void {
  const errors = () => ctx.store.errorTracking.errors;
  const project = async () => makeProject(ctx.store, await makeGroup(ctx.store));

  it("errorTracking.errors.record - the first event creates the group (count 1, first and last seen now) and the event", async () => {
    const p = await project();
    const input = errorEvent(p.id, { eventId: "0123456789abcdef0123456789abcdef", occurredAt: at(-1) });
    const { error, event: stored } = await errors().record(input, T0);
    expect(error).toEqual({
      id: expect.any(Number),
      projectId: p.id,
      fingerprint: input.fingerprint,
      name: "TypeError",
      description: "x is undefined",
      actor: "handler",
      platform: "node",
      eventCount: 1,
      firstSeenAt: T0,
      lastSeenAt: T0,
    });
    expect(stored).toEqual({
      id: expect.any(Number),
      errorId: error.id,
      projectId: p.id,
      eventId: input.eventId,
      level: "error",
      environment: "production",
      occurredAt: at(-1),
      receivedAt: T0,
      payload: input.payload,
    });
    expect(await errors().find(p.id, error.id)).toEqual(error);
    expect((await errors().listEvents(error.id, page(1))).items).toEqual([stored]);
  });

  it("errorTracking.errors.record - later events with the fingerprint join the group; its first values stay", async () => {
    const p = await project();
    const first = errorEvent(p.id);
    const a = await errors().record(first, T0);
    const b = await errors().record({ ...first, name: "RangeError", description: "other", actor: "other", platform: null }, at(10));
    expect(b.error).toEqual({ ...a.error, eventCount: 2, lastSeenAt: at(10) });
    const c = await errors().record(first, at(5));
    expect(c.error).toEqual({ ...a.error, eventCount: 3, lastSeenAt: at(10) });
    const d = await errors().record(first, at(-5));
    expect(d.error).toEqual({ ...a.error, eventCount: 4, firstSeenAt: at(-5), lastSeenAt: at(10) });
  });

  it("errorTracking.errors.record - a fingerprint groups within one project only", async () => {
    const p = await project();
    const q = await project();
    const input = errorEvent(p.id);
    const a = await errors().record(input, T0);
    const b = await errors().record({ ...input, projectId: q.id }, T0);
    const c = await errors().record({ ...input, fingerprint: fingerprint() }, T0);
    expect(new Set([a.error.id, b.error.id, c.error.id]).size).toBe(3);
    expect([a.error.eventCount, b.error.eventCount, c.error.eventCount]).toEqual([1, 1, 1]);
    expect(await errors().find(q.id, a.error.id)).toBeNull();
  });

  it("errorTracking.errors.record - keeps text as given: unicode, empty strings, a payload past 64 KiB", async () => {
    const p = await project();
    const payload = JSON.stringify({ message: "ü😀".repeat(30_000) });
    const input = errorEvent(p.id, { name: "Ошибка 😀", description: "", actor: "", platform: null, level: null, environment: null, payload });
    const { error, event: stored } = await errors().record(input, T0);
    expect(error).toMatchObject({ name: "Ошибка 😀", description: "", actor: "", platform: null });
    expect(stored).toMatchObject({ level: null, environment: null, occurredAt: null });
    expect((await errors().listEvents(error.id, page(1))).items[0]?.payload).toBe(payload);
  });

  it("errorTracking.errors.record - rejects for a project that does not exist", async () => {
    await expect(errors().record(errorEvent(999_999), T0)).rejects.toThrow();
  });

  it("errorTracking.errors.list - by last seen, first seen or frequency, newest or most first, ties by id descending", async () => {
    const p = await project();
    const other = await project();
    const [x, y, z] = [errorEvent(p.id), errorEvent(p.id), errorEvent(p.id)];
    const ex = (await errors().record(x, at(0))).error;
    const ey = (await errors().record(y, at(1))).error;
    const ez = (await errors().record(z, at(1))).error;
    await errors().record(x, at(3));
    await errors().record(x, at(2));
    await errors().record(y, at(1));
    await errors().record(errorEvent(other.id), at(9));
    const list = async (sort: "last_seen" | "first_seen" | "frequency") => ids((await errors().list(p.id, sort, page(1))).items);
    expect(await list("last_seen")).toEqual([ex.id, ez.id, ey.id]);
    expect(await list("first_seen")).toEqual([ez.id, ey.id, ex.id]);
    expect(await list("frequency")).toEqual([ex.id, ey.id, ez.id]);
    expect((await errors().list(p.id, "frequency", page(1))).items.map((e) => e.eventCount)).toEqual([3, 2, 1]);
  });

  it("errorTracking.errors.list - pages with totals", async () => {
    const p = await project();
    for (let i = 0; i < 3; i += 1) await errors().record(errorEvent(p.id), at(i));
    const first = await errors().list(p.id, "last_seen", page(1, 2));
    expect([first.items.length, first.total, first.hasNext]).toEqual([2, 3, true]);
    const second = await errors().list(p.id, "last_seen", page(2, 2));
    expect([second.items.length, second.total, second.hasNext]).toEqual([1, 3, false]);
    expect(await errors().list((await project()).id, "last_seen", page(1))).toEqual({ items: [], total: 0, hasNext: false });
  });

  it("errorTracking.errors.listEvents - newest receipt first, ties by id descending, only the group's", async () => {
    const p = await project();
    const input = errorEvent(p.id);
    const e1 = (await errors().record({ ...input, payload: "1" }, at(1))).event;
    const e2 = (await errors().record({ ...input, payload: "2" }, at(3))).event;
    const e3 = (await errors().record({ ...input, payload: "3" }, at(3))).event;
    await errors().record(errorEvent(p.id), at(4));
    const listed = await errors().listEvents(e1.errorId, page(1));
    expect([ids(listed.items), listed.total]).toEqual([[e3.id, e2.id, e1.id], 3]);
    expect(ids((await errors().listEvents(e1.errorId, page(2, 2))).items)).toEqual([e1.id]);
  });

  it("errorTracking.errors.record - inside a rolled-back transaction leaves neither group nor event", async () => {
    const p = await project();
    const input = errorEvent(p.id);
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.errorTracking.errors.record(input, T0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await errors().list(p.id, "last_seen", page(1))).total).toBe(0);
  });

  if (ctx.options.concurrency !== false) {
    it("errorTracking.errors.record - racing events with one fingerprint end in one group counting them all", async () => {
      const p = await project();
      const input = errorEvent(p.id);
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => errors().record(input, at(i))));
      expect(new Set(results.map((r) => r.error.id)).size).toBe(1);
      const [group] = (await errors().list(p.id, "last_seen", page(1))).items;
      expect(group).toMatchObject({ eventCount: 8, firstSeenAt: at(0), lastSeenAt: at(7) });
      expect((await errors().listEvents(group!.id, page(1))).total).toBe(8);
    });
  }
}
