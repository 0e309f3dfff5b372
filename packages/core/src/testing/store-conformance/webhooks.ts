/** Conformance: WebHookRepository (hooks, delivery log, queued deliveries). */
import { expect, it } from "vitest";
import type { NewWebHook } from "../../ports/webhooks-store.js";
import { T0, at, makeGroup, makeProject, type SuiteContext } from "./context.js";

export function webHookTests(ctx: SuiteContext): void {
  const hooks = () => ctx.store.webHooks;
  const hook = (over: Partial<NewWebHook> = {}): NewWebHook => ({
    scope: "system",
    projectId: null,
    groupId: null,
    url: "https://hooks.example.com/in",
    name: "",
    description: "",
    token: null,
    enableSslVerification: true,
    branchFilter: null,
    branchFilterStrategy: "all_branches",
    events: ["push_events"],
    ...over,
  });
  const log = (hookId: number, status: string, createdAt = T0) => ({
    hookId,
    trigger: "push_hooks",
    url: "https://hooks.example.com/in",
    requestHeaders: { "X-Gitlab-Event": "Push Hook" },
    requestData: { object_kind: "push" },
    responseHeaders: { "content-type": "text/plain" },
    responseBody: "ok",
    responseStatus: status,
    executionDuration: 0.25,
    idempotencyKey: "key-1",
    createdAt,
  });

  it("webHooks.create - returns the stored hook with a clear failure state; findById reads it back", async () => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const created = await hooks().create(hook({ scope: "project", projectId: project.id, token: "sealed", branchFilter: "release/*", branchFilterStrategy: "wildcard", events: ["push_events", "note_events"] }), T0);
    expect(created).toEqual({
      id: expect.any(Number),
      scope: "project",
      projectId: project.id,
      groupId: null,
      url: "https://hooks.example.com/in",
      name: "",
      description: "",
      token: "sealed",
      enableSslVerification: true,
      branchFilter: "release/*",
      branchFilterStrategy: "wildcard",
      events: ["push_events", "note_events"],
      recentFailures: 0,
      backoffCount: 0,
      disabledUntil: null,
      createdAt: T0,
    });
    expect(await hooks().findById(created.id)).toEqual(created);
    expect(await hooks().findById(created.id + 1000)).toBeNull();
  });

  it("webHooks.list - only the owner's hooks, by ascending id", async () => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const other = await makeProject(ctx.store, group);
    const a = await hooks().create(hook({ scope: "project", projectId: project.id }), T0);
    await hooks().create(hook({ scope: "project", projectId: other.id }), T0);
    const b = await hooks().create(hook({ scope: "project", projectId: project.id }), T0);
    const g = await hooks().create(hook({ scope: "group", groupId: group.id }), T0);
    expect((await hooks().list({ scope: "project", projectId: project.id })).map((h) => h.id)).toEqual([a.id, b.id]);
    expect((await hooks().list({ scope: "group", groupId: group.id })).map((h) => h.id)).toEqual([g.id]);
    expect((await hooks().list({ scope: "system" })).every((h) => h.scope === "system")).toBe(true);
  });

  it("webHooks.update - changes only what the patch names; null for an unknown id", async () => {
    const created = await hooks().create(hook(), T0);
    const updated = await hooks().update(created.id, { url: "https://other.example.com/", events: [], recentFailures: 4, backoffCount: 1, disabledUntil: at(1) });
    expect(updated).toEqual({ ...created, url: "https://other.example.com/", events: [], recentFailures: 4, backoffCount: 1, disabledUntil: at(1) });
    expect(await hooks().update(created.id, { disabledUntil: null, token: null })).toEqual({ ...updated, disabledUntil: null, token: null });
    expect(await hooks().update(created.id + 1000, { name: "x" })).toBeNull();
  });

  it("webHooks.remove - deletes the hook with its log and deliveries; false the second time", async () => {
    const created = await hooks().create(hook(), T0);
    await hooks().addLog(log(created.id, "200"));
    const [queued] = await hooks().addDeliveries([{ hookId: created.id, eventId: 1, trigger: "push_hooks", idempotencyKey: "k", eventUuid: "e" }], T0);
    expect(await hooks().remove(created.id)).toBe(true);
    expect(await hooks().remove(created.id)).toBe(false);
    expect(await hooks().findById(created.id)).toBeNull();
    expect(await hooks().findDelivery(queued?.id ?? 0)).toBeNull();
    expect((await hooks().listLogs(created.id, { since: at(-60) }, { kind: "offset", page: 1, perPage: 20 })).items).toEqual([]);
  });

  it("webHooks.remove - a project's removal takes its hooks", async () => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const created = await hooks().create(hook({ scope: "project", projectId: project.id }), T0);
    await ctx.store.projects.remove(project.id);
    expect(await hooks().findById(created.id)).toBeNull();
  });

  it("webHooks.listLogs - newest first, since the given instant, by status range, paged", async () => {
    const created = await hooks().create(hook(), T0);
    const old = await hooks().addLog(log(created.id, "200", at(-120)));
    const ok1 = await hooks().addLog(log(created.id, "200", at(1)));
    const fail = await hooks().addLog(log(created.id, "500", at(2)));
    const down = await hooks().addLog(log(created.id, "internal error", at(3)));
    expect(ok1).toEqual({ ...log(created.id, "200", at(1)), id: expect.any(Number) });
    const all = await hooks().listLogs(created.id, { since: T0 }, { kind: "offset", page: 1, perPage: 20 });
    expect(all.items.map((l) => l.id)).toEqual([down.id, fail.id, ok1.id]);
    expect(all.total).toBe(3);
    expect(all.items.map((l) => l.id)).not.toContain(old.id);
    const failures = await hooks().listLogs(created.id, { since: T0, status: { from: 500, to: 599 } }, { kind: "offset", page: 1, perPage: 20 });
    expect(failures.items.map((l) => l.id)).toEqual([fail.id]);
    const paged = await hooks().listLogs(created.id, { since: T0 }, { kind: "offset", page: 2, perPage: 2 });
    expect([paged.items.map((l) => l.id), paged.hasNext]).toEqual([[ok1.id], false]);
  });

  it("webHooks.deliveries - queued pending in order with their payload; firstPending is the oldest pending one; finish once", async () => {
    const created = await hooks().create(hook(), T0);
    const rows = await hooks().addDeliveries(
      [
        { hookId: created.id, eventId: 7, trigger: "push_hooks", idempotencyKey: "k1", eventUuid: "e1" },
        { hookId: created.id, eventId: 8, trigger: "push_hooks", idempotencyKey: "k2", eventUuid: "e2", payload: '{"header":"Push Hook","payload":{"ref":"é"}}' },
      ],
      T0,
    );
    const [first, second] = rows;
    if (first === undefined || second === undefined) throw new Error("two deliveries expected");
    expect(first).toEqual({ id: expect.any(Number), hookId: created.id, eventId: 7, trigger: "push_hooks", idempotencyKey: "k1", eventUuid: "e1", state: "pending", payload: null, createdAt: T0, finishedAt: null });
    expect(second.payload).toBe('{"header":"Push Hook","payload":{"ref":"é"}}');
    expect(first.id).toBeLessThan(second.id);
    expect(await hooks().findDelivery(second.id)).toEqual(second);
    expect(await hooks().firstPending(created.id)).toEqual(first);
    expect(await hooks().finishDelivery(first.id, "delivered", at(1))).toBe(true);
    expect(await hooks().finishDelivery(first.id, "failed", at(2))).toBe(false);
    expect(await hooks().findDelivery(first.id)).toEqual({ ...first, state: "delivered", finishedAt: at(1) });
    expect(await hooks().firstPending(created.id)).toEqual(second);
    expect(await hooks().finishDelivery(second.id, "failed", at(2))).toBe(true);
    expect(await hooks().firstPending(created.id)).toBeNull();
  });

  it("webHooks.takeSending - one holder at a time: free, renewed by its holder, taken once expired, given back", async () => {
    const created = await hooks().create(hook(), T0);
    const other = await hooks().create(hook(), T0);
    expect(await hooks().takeSending(created.id, "a", at(60), at(0))).toBe(true);
    expect(await hooks().takeSending(created.id, "b", at(60), at(1))).toBe(false);
    expect(await hooks().takeSending(other.id, "b", at(60), at(1))).toBe(true);
    expect(await hooks().takeSending(created.id, "a", at(120), at(2))).toBe(true);
    expect(await hooks().takeSending(created.id, "b", at(180), at(119))).toBe(false);
    expect(await hooks().takeSending(created.id, "b", at(180), at(120))).toBe(true);
    await hooks().releaseSending(created.id, "a");
    expect(await hooks().takeSending(created.id, "a", at(200), at(121))).toBe(false);
    await hooks().releaseSending(created.id, "b");
    expect(await hooks().takeSending(created.id, "a", at(200), at(121))).toBe(true);
    expect(await hooks().takeSending(created.id + other.id + 1000, "a", at(200), at(121))).toBe(false);
    expect(await hooks().findById(created.id)).toEqual(created);
  });
}
