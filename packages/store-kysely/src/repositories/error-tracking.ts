/** SQL error-tracking repositories: settings, client keys, tracked errors and their events. */
import type {
  ErrorTrackingClientKey,
  ErrorTrackingSettings,
  ErrorTrackingStore,
  TrackedError,
  TrackedErrorEvent,
  TrackedErrorSort,
  OffsetPageRequest,
  OffsetPageResult,
} from "@forgekit/core";
import { sql, type Selectable } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { ErrorTrackingClientKeysTable, ErrorTrackingErrorsTable, ErrorTrackingEventsTable, ErrorTrackingSettingsTable } from "../schema.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

function toSettings(row: Selectable<ErrorTrackingSettingsTable>, t: DialectTraits): ErrorTrackingSettings {
  return {
    projectId: Number(row.project_id),
    active: t.fromBool(row.active),
    integrated: t.fromBool(row.integrated),
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

function toKey(row: Selectable<ErrorTrackingClientKeysTable>, t: DialectTraits): ErrorTrackingClientKey {
  return { id: Number(row.id), projectId: Number(row.project_id), active: t.fromBool(row.active), publicKey: row.public_key, createdAt: t.fromDate(row.created_at) };
}

function toError(row: Selectable<ErrorTrackingErrorsTable>, t: DialectTraits): TrackedError {
  return {
    id: Number(row.id),
    projectId: Number(row.project_id),
    fingerprint: row.fingerprint,
    name: row.name,
    description: row.description,
    actor: row.actor,
    platform: row.platform,
    eventCount: Number(row.event_count),
    firstSeenAt: t.fromDate(row.first_seen_at),
    lastSeenAt: t.fromDate(row.last_seen_at),
  };
}

function toEvent(row: Selectable<ErrorTrackingEventsTable>, t: DialectTraits): TrackedErrorEvent {
  return {
    id: Number(row.id),
    errorId: Number(row.error_id),
    projectId: Number(row.project_id),
    eventId: row.event_id,
    level: row.level,
    environment: row.environment,
    occurredAt: row.occurred_at === null ? null : t.fromDate(row.occurred_at),
    receivedAt: t.fromDate(row.received_at),
    payload: row.payload,
  };
}

/** Ids are 32-bit integer columns: a larger id matches no row (and PostgreSQL would reject the comparison). */
const storable = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** The page of a list filtered by an id no row can have. */
function nothing<T>(page: OffsetPageRequest): Promise<OffsetPageResult<T>> {
  checkPage(page);
  return Promise.resolve({ items: [], total: 0, hasNext: false });
}

const SORT_COLUMN = { last_seen: "last_seen_at", first_seen: "first_seen_at", frequency: "event_count" } as const satisfies Record<TrackedErrorSort, string>;

export function sqlErrorTracking(ctx: SqlContext): ErrorTrackingStore {
  const { db, traits: t } = ctx;
  const findSettings = async (projectId: number) => {
    if (!storable(projectId)) return null;
    const row = await db.selectFrom("forgekit_error_tracking_settings").selectAll().where("project_id", "=", projectId).executeTakeFirst();
    return row === undefined ? null : toSettings(row, t);
  };
  const findKey = async (projectId: number, id: number) => {
    if (!storable(projectId) || !storable(id)) return null;
    const row = await db.selectFrom("forgekit_error_tracking_client_keys").selectAll().where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
    return row === undefined ? null : toKey(row, t);
  };

  return {
    settings: {
      find: findSettings,
      async save(projectId, values, now) {
        const row = { project_id: projectId, active: t.toBool(values.active), integrated: t.toBool(values.integrated), created_at: t.toDate(now), updated_at: t.toDate(now) };
        await t.upsert(db, "forgekit_error_tracking_settings", row, ["project_id"], ["active", "integrated", "updated_at"]);
        const saved = await findSettings(projectId);
        if (saved === null) throw new Error(`error-tracking settings of project ${projectId} vanished after being saved`);
        return saved;
      },
      async update(projectId, patch, now) {
        if (!storable(projectId)) return null;
        const set: Record<string, unknown> = { updated_at: t.toDate(now) };
        if (patch.active !== undefined) set["active"] = t.toBool(patch.active);
        if (patch.integrated !== undefined) set["integrated"] = t.toBool(patch.integrated);
        const result = await db.updateTable("forgekit_error_tracking_settings").set(set).where("project_id", "=", projectId).executeTakeFirst();
        return Number(result.numUpdatedRows) === 0 ? null : findSettings(projectId);
      },
    },
    clientKeys: {
      async create(projectId, publicKey, now) {
        const id = await t.insertOrIgnore(db, "forgekit_error_tracking_client_keys", { project_id: projectId, active: t.toBool(true), public_key: publicKey, created_at: t.toDate(now) });
        return id === null ? null : { id, projectId, active: true, publicKey, createdAt: new Date(now) };
      },
      find: findKey,
      async findByPublicKey(projectId, publicKey) {
        if (!storable(projectId)) return null;
        const row = await db
          .selectFrom("forgekit_error_tracking_client_keys")
          .selectAll()
          .where("public_key", "=", publicKey)
          .where("project_id", "=", projectId)
          .executeTakeFirst();
        // MySQL compares with the table's collation (utf8mb4_bin is exact); check again so every dialect is case-sensitive.
        return row === undefined || row.public_key !== publicKey ? null : toKey(row, t);
      },
      list(projectId, page) {
        if (!storable(projectId)) return nothing(page);
        const filtered = db.selectFrom("forgekit_error_tracking_client_keys").where("project_id", "=", projectId);
        return offsetPage(db, filtered, (q) => q.selectAll().orderBy("id"), page, (row) => toKey(row, t));
      },
      async setActive(projectId, id, active) {
        if (!storable(projectId) || !storable(id)) return null;
        const result = await db.updateTable("forgekit_error_tracking_client_keys").set({ active: t.toBool(active) }).where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
        return Number(result.numUpdatedRows) === 0 ? null : findKey(projectId, id);
      },
      delete(projectId, id) {
        if (!storable(projectId) || !storable(id)) return Promise.resolve(null);
        // Read and delete in one transaction; only the caller whose DELETE removed the row returns it.
        return atomic(ctx, async ({ db: tx }) => {
          const row = await tx.selectFrom("forgekit_error_tracking_client_keys").selectAll().where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
          if (row === undefined) return null;
          const result = await tx.deleteFrom("forgekit_error_tracking_client_keys").where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
          return Number(result.numDeletedRows) === 0 ? null : toKey(row, t);
        });
      },
    },
    errors: {
      record(input, now) {
        return atomic(ctx, async ({ db: tx }) => {
          const at = t.toDate(now);
          await t.insertOrIgnore(tx, "forgekit_error_tracking_errors", {
            project_id: input.projectId,
            fingerprint: input.fingerprint,
            name: input.name,
            description: input.description,
            actor: input.actor,
            platform: input.platform,
            event_count: 0,
            first_seen_at: at,
            last_seen_at: at,
          });
          // One UPDATE counts the event: the row lock it takes serialises racing recorders.
          await tx
            .updateTable("forgekit_error_tracking_errors")
            .set({
              event_count: sql<number>`event_count + 1`,
              last_seen_at: sql`case when last_seen_at < ${at} then ${at} else last_seen_at end`,
              first_seen_at: sql`case when first_seen_at > ${at} then ${at} else first_seen_at end`,
            })
            .where("project_id", "=", input.projectId)
            .where("fingerprint", "=", input.fingerprint)
            .execute();
          const row = await tx
            .selectFrom("forgekit_error_tracking_errors")
            .selectAll()
            .where("project_id", "=", input.projectId)
            .where("fingerprint", "=", input.fingerprint)
            .executeTakeFirstOrThrow();
          const error = toError(row, t);
          const event = {
            error_id: error.id,
            project_id: input.projectId,
            event_id: input.eventId,
            level: input.level,
            environment: input.environment,
            occurred_at: input.occurredAt === null ? null : t.toDate(input.occurredAt),
            received_at: at,
            payload: input.payload,
          };
          const id = await t.insert(tx, "forgekit_error_tracking_events", event);
          return {
            error,
            event: {
              id,
              errorId: error.id,
              projectId: input.projectId,
              eventId: input.eventId,
              level: input.level,
              environment: input.environment,
              occurredAt: input.occurredAt === null ? null : new Date(input.occurredAt),
              receivedAt: new Date(now),
              payload: input.payload,
            },
          };
        });
      },
      async find(projectId, id) {
        if (!storable(projectId) || !storable(id)) return null;
        const row = await db.selectFrom("forgekit_error_tracking_errors").selectAll().where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
        return row === undefined ? null : toError(row, t);
      },
      list(projectId, sort, page) {
        if (!storable(projectId)) return nothing(page);
        const filtered = db.selectFrom("forgekit_error_tracking_errors").where("project_id", "=", projectId);
        const column = SORT_COLUMN[sort];
        return offsetPage(db, filtered, (q) => q.selectAll().orderBy(column, "desc").orderBy("id", "desc"), page, (row) => toError(row, t));
      },
      listEvents(errorId, page) {
        if (!storable(errorId)) return nothing(page);
        const filtered = db.selectFrom("forgekit_error_tracking_events").where("error_id", "=", errorId);
        return offsetPage(db, filtered, (q) => q.selectAll().orderBy("received_at", "desc").orderBy("id", "desc"), page, (row) => toEvent(row, t));
      },
    },
  };
}
