/** In-memory NotificationSettingRepository. */
import type { NotificationSource } from "../notifications/types.js";
import type { NotificationSettingRecord, NotificationSettingRepository } from "../ports/notification-settings-store.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { requireUser } from "./users.js";

/** A source as one comparable string (`global`, `group:4`, `project:7`). */
function sourceKey(source: NotificationSource): string {
  return source.type === "global" ? "global" : `${source.type}:${source.id}`;
}

function rowsOf(state: MemoryState, keep: (row: NotificationSettingRecord) => boolean): NotificationSettingRecord[] {
  return [...state.notificationSettings.rows.values()].filter(keep).sort((a, b) => a.id - b.id).map(copy);
}

export function memoryNotificationSettings(run: Runner): NotificationSettingRepository {
  const findRow = (state: MemoryState, userId: number, source: NotificationSource) => {
    const key = sourceKey(source);
    for (const row of state.notificationSettings.rows.values()) {
      if (row.userId === userId && sourceKey(row.source) === key) return row;
    }
    return undefined;
  };
  return {
    find: (userId, source) =>
      run((state) => {
        const row = findRow(state, userId, source);
        return row === undefined ? null : copy(row);
      }),
    change: (userId, source, change, initialLevel, now) =>
      run((state) => {
        let row = findRow(state, userId, source);
        if (row === undefined) {
          requireUser(state, userId);
          const table = state.notificationSettings;
          row = { id: ++table.seq, userId, source: copy(source), level: initialLevel, notificationEmail: null, events: {}, createdAt: new Date(now), updatedAt: new Date(now) };
          table.rows.set(row.id, row);
        } else row = state.notificationSettings.rows.edit(row.id)!;
        if (change.level !== undefined) row.level = change.level;
        if (change.notificationEmail !== undefined) row.notificationEmail = change.notificationEmail;
        if (change.events !== undefined) row.events = { ...row.events, ...change.events };
        row.updatedAt = new Date(now);
        return copy(row);
      }),
    listBySources: (sources) =>
      run((state) => {
        const keys = new Set(sources.map(sourceKey));
        return rowsOf(state, (row) => keys.has(sourceKey(row.source)));
      }),
    listForUsers: (userIds, sources) =>
      run((state) => {
        const users = new Set(userIds);
        const keys = new Set(sources.map(sourceKey));
        return rowsOf(state, (row) => users.has(row.userId) && keys.has(sourceKey(row.source)));
      }),
  };
}
