/**
 * Conformance: "create on first write" under concurrent callers (forgekit issue 8). Every path that
 * creates a row on first use, or allocates a per-parent number, runs with many callers at once —
 * bare, and inside a transaction that has already read (the way a service's transaction does, which
 * is what MySQL's REPEATABLE READ snapshot made race). Each must leave exactly one row, count every
 * caller, and never throw.
 */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import type { Store, TransactionStore } from "../../ports/store.js";
import type { NotificationSource } from "../../notifications/types.js";
import { errorEvent } from "./error-tracking-errors.js";
import { T0, at, makeGroup, makeProject, makeUser, unique, type SuiteContext } from "./context.js";

/** Callers per race: the issue's figure. */
const CALLERS = 50;

/** `CALLERS` calls at once; their results. Fails the test, saying how many callers threw, when any did. */
async function race<T>(make: (i: number) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(Array.from({ length: CALLERS }, (_, i) => make(i)));
  const failed = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
  expect(failed.length, `${failed.length} of ${CALLERS} callers threw; the first: ${String(failed[0])}`).toBe(0);
  return settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
}

/**
 * Runs `fn` in a transaction that first reads the user's row, as a service resolves and checks its
 * input before writing: on MySQL that read fixes the transaction's snapshot.
 */
function afterARead<T>(store: Store, userId: number, fn: (tx: TransactionStore) => Promise<T>): Promise<T> {
  return store.transaction(async (tx) => {
    await tx.users.findById(userId);
    return fn(tx);
  });
}

const EVENT_KEYS = ["new_note", "new_issue", "close_issue", "reopen_issue", "issue_due", "moved_project"] as const;

export function firstWriteTests(ctx: SuiteContext): void {
  const sources = async (): Promise<[string, NotificationSource][]> => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    return [["global", { type: "global" }], ["group", { type: "group", id: group.id }], ["project", { type: "project", id: project.id }]];
  };

  it(`notificationSettings.change - ${CALLERS} concurrent first writes by one user leave one row (global, group, project)`, async () => {
    for (const [label, source] of await sources()) {
      const user = await makeUser(ctx.store);
      const rows = await race((i) =>
        afterARead(ctx.store, user.id, (tx) => tx.notificationSettings.change(user.id, source, { level: i % 2 === 0 ? "watch" : "custom", events: { [EVENT_KEYS[i % EVENT_KEYS.length]!]: true } }, "global", at(i))),
      );
      expect(new Set(rows.map((row) => row.id)).size, label).toBe(1);
      const stored = await ctx.store.notificationSettings.listForUsers([user.id], [source]);
      expect(stored, label).toHaveLength(1);
      // Every change applied: each caller's event key is set, none was lost to a lost update.
      expect(stored[0]?.events, label).toEqual(Object.fromEntries(EVENT_KEYS.map((key) => [key, true])));
    }
  });

  it(`notificationSettings.change - ${CALLERS} concurrent first writes by different users each leave their own row`, async () => {
    const users = await Promise.all(Array.from({ length: CALLERS }, () => makeUser(ctx.store)));
    const group = await makeGroup(ctx.store);
    const source: NotificationSource = { type: "group", id: group.id };
    await race((i) => afterARead(ctx.store, users[i]!.id, (tx) => tx.notificationSettings.change(users[i]!.id, source, { level: "watch" }, "global", T0)));
    expect(await ctx.store.notificationSettings.listBySources([source])).toHaveLength(CALLERS);
  });

  it(`errorTracking.settings.save - ${CALLERS} concurrent first saves of one project leave one row`, async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const saved = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.errorTracking.settings.save(project.id, { active: i % 2 === 0, integrated: true }, T0)));
    expect(saved.every((s) => s.projectId === project.id && s.integrated)).toBe(true);
    const stored = await ctx.store.errorTracking.settings.find(project.id);
    expect(stored).toMatchObject({ projectId: project.id, integrated: true, createdAt: T0 });
  });

  it(`settings.set - ${CALLERS} concurrent first sets of one key leave one value`, async () => {
    const user = await makeUser(ctx.store);
    const key = unique("first-write-");
    await race((i) => afterARead(ctx.store, user.id, (tx) => tx.settings.set(key, `v${i}`)));
    expect(await ctx.store.settings.get(key)).toMatch(/^v\d+$/);
  });

  it(`errorTracking.errors.record - ${CALLERS} concurrent events with one fingerprint create one group and count every event`, async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const event = (i: number) => errorEvent(project.id, { fingerprint: "f".repeat(64), payload: `{"n":${i}}` });
    const recorded = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.errorTracking.errors.record(event(i), at(i))));
    expect(new Set(recorded.map((r) => r.error.id)).size).toBe(1);
    const groups = await ctx.store.errorTracking.errors.list(project.id, "last_seen", { kind: "offset", page: 1, perPage: 100 });
    expect(groups.items).toHaveLength(1);
    expect(groups.items[0]).toMatchObject({ eventCount: CALLERS, firstSeenAt: T0, lastSeenAt: at(CALLERS - 1) });
    expect((await ctx.store.errorTracking.errors.listEvents(groups.items[0]!.id, { kind: "offset", page: 1, perPage: 100 })).total).toBe(CALLERS);
  });

  it(`members.add - ${CALLERS} concurrent adds of one user: one membership, every other caller gets null`, async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const added = await race(() =>
      afterARead(ctx.store, user.id, (tx) => tx.members.add({ sourceType: "project", sourceId: project.id, userId: user.id, accessLevel: AccessLevel.Developer }, T0)),
    );
    expect(added.filter((member) => member !== null)).toHaveLength(1);
    expect(await ctx.store.members.listBySource("project", project.id)).toHaveLength(1);
  });

  it(`emails.add - ${CALLERS} concurrent adds of one address by one user: one row, every other caller gets null`, async () => {
    const user = await makeUser(ctx.store);
    const added = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.emails.add({ userId: user.id, email: "first@example.com", primary: i % 2 === 0, confirmedAt: null }, T0)));
    expect(added.filter((email) => email !== null)).toHaveLength(1);
    expect(await ctx.store.emails.listByUser(user.id)).toHaveLength(1);
  });

  it(`iterations.create - ${CALLERS} concurrent creates in one group get iids 1..${CALLERS}; on the same dates exactly one wins`, async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const day = (i: number) => new Date(Date.UTC(2027, 0, 1 + 2 * i)).toISOString().slice(0, 10);
    const spread = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.iterations.create({ groupId: group.id, title: `spread ${i}`, description: "", startDate: day(i), dueDate: day(i) }, T0)));
    const iids = spread.map((r) => ("created" in r ? r.created.iid : 0)).sort((x, y) => x - y);
    expect(iids).toEqual(Array.from({ length: CALLERS }, (_, i) => i + 1));
    const contested = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.iterations.create({ groupId: group.id, title: `same ${i}`, description: "", startDate: "2030-01-01", dueDate: "2030-01-05" }, T0)));
    expect(contested.filter((r) => "created" in r)).toHaveLength(1);
    expect(contested.filter((r) => "refused" in r && r.refused === "dates_overlap")).toHaveLength(CALLERS - 1);
  });

  it(`activity.issues.create - ${CALLERS} concurrent creates in one project get iids 1..${CALLERS}`, async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const issues = await race((i) =>
      afterARead(ctx.store, user.id, (tx) => tx.activity.issues.create({ projectId: project.id, title: `issue ${i}`, description: "", confidential: false, authorId: user.id }, T0)),
    );
    expect(issues.map((issue) => issue.iid).sort((x, y) => x - y)).toEqual(Array.from({ length: CALLERS }, (_, i) => i + 1));
  });

  it(`activity.milestones.create - ${CALLERS} concurrent creates in one project get iids 1..${CALLERS}`, async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const milestones = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.activity.milestones.create({ projectId: project.id, title: `m ${i}`, description: "" }, T0)));
    expect(milestones.map((m) => m?.iid ?? 0).sort((x, y) => x - y)).toEqual(Array.from({ length: CALLERS }, (_, i) => i + 1));
  });

  it(`oauth.oauthKeys.putIfAbsent - ${CALLERS} concurrent first puts: one key, every caller gets it`, async () => {
    const user = await makeUser(ctx.store);
    const keys = await race((i) => afterARead(ctx.store, user.id, (tx) => tx.oauth.oauthKeys.putIfAbsent("consent_hmac", `key-${i}`, T0)));
    expect(new Set(keys.map((key) => key.value)).size).toBe(1);
    expect((await ctx.store.oauth.oauthKeys.get("consent_hmac"))?.value).toBe(keys[0]?.value);
  });

  it(`accessTokens.touchLastUsed - ${CALLERS} concurrent touches of one token all succeed`, async () => {
    const user = await makeUser(ctx.store);
    const token = await ctx.store.accessTokens.create({ kind: "personal", userId: user.id, name: "t", scopes: [], digest: unique("touch").padStart(64, "0"), expiresAt: null }, T0);
    await race((i) => afterARead(ctx.store, user.id, (tx) => tx.accessTokens.touchLastUsed(token.id, at(i))));
    expect((await ctx.store.accessTokens.findById(token.id))?.lastUsedAt).toBeInstanceOf(Date);
  });
}

/**
 * Conformance: a transaction the database aborts for a deadlock runs again. Two transactions change
 * two users in opposite orders and meet in between (for a moment at most: stores that serialise
 * transactions never let the second one start), so a database with row locks deadlocks them.
 */
export function deadlockTests(ctx: SuiteContext): void {
  it("transaction - of two transactions locking two rows in opposite orders both commit (the deadlock victim runs again)", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    let arrived = 0;
    let release = () => {};
    const bothIn = new Promise<void>((resolve) => (release = resolve));
    const meet = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await Promise.race([bothIn, new Promise((resolve) => setTimeout(resolve, 300))]);
    };
    const writer = (name: string, first: number, second: number) =>
      ctx.store.transaction(async (tx) => {
        await tx.users.update(first, { name });
        await meet();
        await tx.users.update(second, { name });
      });
    await Promise.all([writer("one", a.id, b.id), writer("two", b.id, a.id)]);
    // Serial outcomes only: whichever committed last wrote both names.
    const names = [(await ctx.store.users.findById(a.id))?.name, (await ctx.store.users.findById(b.id))?.name];
    expect([["one", "one"], ["two", "two"]]).toContainEqual(names);
  });
}
