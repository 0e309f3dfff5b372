/**
 * The event counters (migration 0016_event_counts) equal the events after every kind of write: each
 * step goes through the store, then the counters are compared with a recount from the events by
 * rebuildEventCounts (its own SQL bucket expression, the one the migration fills them with).
 */
import { AccessLevel, type Store } from "@forgekit/core";
import { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHOR_COUNTS, EVENT_COUNT_BUCKET_MS, PROJECT_COUNTS, rebuildEventCounts } from "./repositories/event-counts.js";
import type { Database } from "./schema.js";
import { dialectMatrix, type OpenedDialect } from "./test-databases.js";

const T = Date.UTC(2026, 2, 1);
const W = EVENT_COUNT_BUCKET_MS;
/** A bucket's first millisecond, at or after T. */
const EDGE = Math.ceil(T / W) * W;

for (const [name, open] of dialectMatrix("forgekit-counts-")) {
  describe(`event counters on ${name}`, () => {
    let opened: OpenedDialect;
    let store: Store;
    let db: Kysely<Database>;

    /** Both counter tables' non-zero rows, sorted. */
    const snapshot = async () => {
      const rows: string[] = [];
      for (const table of [PROJECT_COUNTS, AUTHOR_COUNTS] as const) {
        const found = await db.selectFrom(table).selectAll().where("n", "<>", 0).execute();
        for (const row of found) rows.push(`${table} ${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === "action" || k === "target_type" ? v : Number(v)])))}`);
      }
      return rows.sort();
    };
    /** The counters as maintained, and as recounted from the events (which then stay in place). */
    const maintainedAndRecounted = async (): Promise<[string[], string[]]> => {
      const maintained = await snapshot();
      await rebuildEventCounts(db, opened.config.traits);
      return [maintained, await snapshot()];
    };

    beforeAll(async () => {
      opened = await open();
      store = (await import("./store.js")).kyselyStore(opened.config);
      await store.migrate();
      const base = new Kysely<Database>({ dialect: opened.config.dialect });
      db = opened.config.schema === undefined ? base : base.withSchema(opened.config.schema);
    });
    afterAll(async () => {
      await store.close();
      await opened.close();
    });

    it("insert, audience changes, retention deletes, user and project removal keep the counters equal to the events", async () => {
      const now = new Date(T);
      const a = (await store.users.create({ username: "a", name: "A" }, now))!;
      const b = (await store.users.create({ username: "b", name: "B" }, now))!;
      const group = (await store.namespaces.create({ kind: "group", path: "g", name: "g", parentId: null, ownerId: null, visibility: "public" }, now))!;
      const project = async (path: string, visibility: "public" | "private") => (await store.projects.create({ namespaceId: group.id, path, name: path, visibility, creatorId: null }, now))!;
      const pub = await project("pub", "public");
      const priv = await project("priv", "private");
      await store.members.add({ sourceType: "project", sourceId: priv.id, userId: b.id, accessLevel: AccessLevel.Developer }, now);
      const event = (projectId: number | null, authorId: number, ms: number, extra: { action?: "created" | "closed" | "pushed"; target?: number; audience?: "project" | "reporters" } = {}) =>
        store.activity.events.insert({
          projectId,
          authorId,
          action: extra.action ?? "created",
          targetType: extra.target === undefined ? null : "Issue",
          targetId: extra.target ?? null,
          targetIid: extra.target ?? null,
          targetTitle: extra.target === undefined ? null : "t",
          audience: extra.audience ?? "project",
          audienceUserId: null,
          push: null,
          note: null,
          createdAt: new Date(ms),
        });
      // Both sides of a bucket edge, several buckets, projects, authors, actions, targets and audiences.
      for (const [i, ms] of [EDGE - 1, EDGE, EDGE + 1, EDGE + W, EDGE + 3 * W + 5, EDGE - 2 * W].entries()) {
        await event(pub.id, a.id, ms, { target: 1 + (i % 2) });
        await event(pub.id, b.id, ms, { action: "closed", target: 1 });
        await event(priv.id, b.id, ms, { action: "pushed" });
        await event(priv.id, a.id, ms, { target: 3, audience: "reporters" });
      }
      await event(null, a.id, EDGE);
      const [afterInserts, recounted] = await maintainedAndRecounted();
      expect(afterInserts.length).toBeGreaterThan(20);
      expect(afterInserts).toEqual(recounted);

      expect(await store.activity.events.setAudience([{ type: "Issue", id: 1 }], "reporters", a.id)).toBe(9);
      expect(await store.activity.events.setAudience([{ type: "Issue", id: 3 }], "project", null)).toBe(6);
      let [maintained, expected] = await maintainedAndRecounted();
      expect(maintained).not.toEqual(afterInserts);
      expect(maintained).toEqual(expected);

      expect(await store.activity.events.deleteCreatedBefore(new Date(EDGE + 1), 7)).toBe(7);
      [maintained, expected] = await maintainedAndRecounted();
      expect(maintained).toEqual(expected);

      expect(await store.users.remove(b.id)).toBe(true);
      [maintained, expected] = await maintainedAndRecounted();
      expect(maintained).toEqual(expected);
      expect(maintained.some((row) => row.includes(`"author_id":${b.id}`))).toBe(false);

      expect(await store.projects.remove(priv.id)).not.toBeNull();
      [maintained, expected] = await maintainedAndRecounted();
      expect(maintained).toEqual(expected);
      expect(maintained.length).toBeGreaterThan(0);
      expect(maintained.some((row) => row.includes(`"project_id":${priv.id}`))).toBe(false);
    });
  });
}
