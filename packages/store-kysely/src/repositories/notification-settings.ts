/** SQL NotificationSettingRepository. */
import type { NotificationLevel, NotificationSettingRecord, NotificationSettingRepository, NotificationSource } from "@forgekit/core";
import type { ExpressionBuilder, Selectable } from "kysely";
import type { Database, NotificationSettingsTable } from "../schema.js";
import { atomic, lockUser, type SqlContext } from "./context.js";

const TABLE = "forgekit_notification_settings";

/** Column values of a source: groups are namespaces; the global setting has source id 0. */
function sourceColumns(source: NotificationSource): { source_type: string; source_id: number } {
  switch (source.type) {
    case "global":
      return { source_type: "global", source_id: 0 };
    case "group":
      return { source_type: "namespace", source_id: source.id };
    case "project":
      return { source_type: "project", source_id: source.id };
  }
}

function toSource(row: Pick<Selectable<NotificationSettingsTable>, "source_type" | "source_id">): NotificationSource {
  if (row.source_type === "namespace") return { type: "group", id: Number(row.source_id) };
  if (row.source_type === "project") return { type: "project", id: Number(row.source_id) };
  return { type: "global" };
}

type Where = ExpressionBuilder<Database, typeof TABLE>;

/** `(source_type, source_id)` is one of `sources`. */
function inSources(eb: Where, sources: readonly NotificationSource[]) {
  return eb.or(sources.map((source) => {
    const { source_type, source_id } = sourceColumns(source);
    return eb.and([eb("source_type", "=", source_type), eb("source_id", "=", source_id)]);
  }));
}

export function sqlNotificationSettings(ctx: SqlContext): NotificationSettingRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<NotificationSettingsTable>): NotificationSettingRecord => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    source: toSource(row),
    level: row.level as NotificationLevel,
    notificationEmail: row.notification_email,
    events: JSON.parse(row.events) as Record<string, boolean>,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  });
  const select = (c: SqlContext, userId: number, source: NotificationSource) => {
    const { source_type, source_id } = sourceColumns(source);
    return c.db.selectFrom(TABLE).selectAll().where("user_id", "=", userId).where("source_type", "=", source_type).where("source_id", "=", source_id).executeTakeFirst();
  };
  return {
    async find(userId, source) {
      const row = await select(ctx, userId, source);
      return row === undefined ? null : map(row);
    },
    change: (userId, source, change, initialLevel, now) =>
      atomic(ctx, async (tx) => {
        // Holding the user's row serialises changes to that user's settings: racing first changes
        // cannot both insert, and no lock is ever upgraded (MySQL would deadlock there). The select
        // after the lock sees what the previous holder committed only because store transactions run
        // READ COMMITTED (traits.transactionIsolation): under MySQL's REPEATABLE READ it read the
        // snapshot of the service's earlier reads, and ~1 in 5 of 50 racing first PUTs inserted a duplicate.
        await lockUser(tx, userId);
        const row = await select(tx, userId, source);
        if (row === undefined) {
          const values = {
            user_id: userId,
            ...sourceColumns(source),
            level: change.level ?? initialLevel,
            notification_email: change.notificationEmail ?? null,
            events: JSON.stringify(change.events ?? {}),
            created_at: t.toDate(now),
            updated_at: t.toDate(now),
          };
          const id = await t.insert(tx.db, TABLE, values);
          return map({ id, ...values });
        }
        const events = { ...(JSON.parse(row.events) as Record<string, boolean>), ...change.events };
        const set = {
          level: change.level ?? (row.level as NotificationLevel),
          notification_email: change.notificationEmail === undefined ? row.notification_email : change.notificationEmail,
          events: JSON.stringify(events),
          updated_at: t.toDate(now),
        };
        await tx.db.updateTable(TABLE).set(set).where("id", "=", row.id).execute();
        return map({ ...row, ...set });
      }),
    async listBySources(sources) {
      if (sources.length === 0) return [];
      const rows = await db.selectFrom(TABLE).selectAll().where((eb) => inSources(eb, sources)).orderBy("id").execute();
      return rows.map(map);
    },
    async listForUsers(userIds, sources) {
      if (userIds.length === 0 || sources.length === 0) return [];
      const rows = await db
        .selectFrom(TABLE)
        .selectAll()
        .where("user_id", "in", [...userIds])
        .where((eb) => inSources(eb, sources))
        .orderBy("id")
        .execute();
      return rows.map(map);
    },
  };
}
