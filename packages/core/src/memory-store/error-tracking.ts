/** In-memory error-tracking repositories: settings, client keys, tracked errors and their events. */
import type {
  ErrorTrackingClientKey,
  ErrorTrackingSettings,
  ErrorTrackingStore,
  TrackedError,
  TrackedErrorEvent,
  TrackedErrorSort,
} from "../ports/error-tracking-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { nullableCopy } from "./users.js";

/** Mirrors the SQL foreign key: a row for a missing project rejects. */
function requireProject(state: MemoryState, projectId: number): void {
  if (!state.projects.has(projectId)) throw new Error(`project ${projectId} does not exist`);
}

function ownKey(state: MemoryState, projectId: number, id: number): ErrorTrackingClientKey | undefined {
  const key = state.errorTracking.keys.get(id);
  return key?.projectId === projectId ? key : undefined;
}

/** A journaled copy of the project's client key `id` to change, or undefined. */
function ownKeyToEdit(state: MemoryState, projectId: number, id: number): ErrorTrackingClientKey | undefined {
  return ownKey(state, projectId, id) === undefined ? undefined : state.errorTracking.keys.edit(id);
}

const SORT_KEY: Record<TrackedErrorSort, (e: TrackedError) => number> = {
  last_seen: (e) => e.lastSeenAt.getTime(),
  first_seen: (e) => e.firstSeenAt.getTime(),
  frequency: (e) => e.eventCount,
};

export function memoryErrorTracking(run: Runner): ErrorTrackingStore {
  return {
    settings: {
      find: (projectId) => run((state) => nullableCopy(state.errorTracking.settings.get(projectId))),
      save: (projectId, values, now) =>
        run((state) => {
          requireProject(state, projectId);
          const old = state.errorTracking.settings.get(projectId);
          const row: ErrorTrackingSettings = { projectId, ...values, createdAt: new Date(old?.createdAt ?? now), updatedAt: new Date(now) };
          state.errorTracking.settings.set(projectId, row);
          return copy(row);
        }),
      update: (projectId, patch, now) =>
        run((state) => {
          const row = state.errorTracking.settings.edit(projectId);
          if (row === undefined) return null;
          if (patch.active !== undefined) row.active = patch.active;
          if (patch.integrated !== undefined) row.integrated = patch.integrated;
          row.updatedAt = new Date(now);
          return copy(row);
        }),
    },
    clientKeys: {
      create: (projectId, publicKey, now) =>
        run((state) => {
          requireProject(state, projectId);
          if ([...state.errorTracking.keys.values()].some((k) => k.publicKey === publicKey)) return null;
          const key: ErrorTrackingClientKey = { id: ++state.errorTracking.seq.keys, projectId, active: true, publicKey, createdAt: new Date(now) };
          state.errorTracking.keys.set(key.id, key);
          return copy(key);
        }),
      find: (projectId, id) => run((state) => nullableCopy(ownKey(state, projectId, id))),
      findByPublicKey: (projectId, publicKey) =>
        run((state) => nullableCopy([...state.errorTracking.keys.values()].find((k) => k.projectId === projectId && k.publicKey === publicKey))),
      list: (projectId, page) =>
        run((state) => {
          const rows = [...state.errorTracking.keys.values()].filter((k) => k.projectId === projectId).sort((a, b) => a.id - b.id);
          return offsetPage(rows, page, copy);
        }),
      setActive: (projectId, id, active) =>
        run((state) => {
          const key = ownKeyToEdit(state, projectId, id);
          if (key === undefined) return null;
          key.active = active;
          return copy(key);
        }),
      delete: (projectId, id) =>
        run((state) => {
          const key = ownKey(state, projectId, id);
          if (key === undefined) return null;
          state.errorTracking.keys.delete(id);
          return copy(key);
        }),
    },
    errors: {
      record: (input, now) =>
        run((state) => {
          requireProject(state, input.projectId);
          const tables = state.errorTracking;
          let error = [...tables.errors.values()].find((e) => e.projectId === input.projectId && e.fingerprint === input.fingerprint);
          if (error === undefined) {
            error = {
              id: ++tables.seq.errors,
              projectId: input.projectId,
              fingerprint: input.fingerprint,
              name: input.name,
              description: input.description,
              actor: input.actor,
              platform: input.platform,
              eventCount: 0,
              firstSeenAt: new Date(now),
              lastSeenAt: new Date(now),
            };
            tables.errors.set(error.id, error);
          } else error = tables.errors.edit(error.id)!;
          error.eventCount += 1;
          if (now.getTime() > error.lastSeenAt.getTime()) error.lastSeenAt = new Date(now);
          if (now.getTime() < error.firstSeenAt.getTime()) error.firstSeenAt = new Date(now);
          const event: TrackedErrorEvent = {
            id: ++tables.seq.events,
            errorId: error.id,
            projectId: input.projectId,
            eventId: input.eventId,
            level: input.level,
            environment: input.environment,
            occurredAt: input.occurredAt === null ? null : new Date(input.occurredAt),
            receivedAt: new Date(now),
            payload: input.payload,
          };
          tables.events.set(event.id, event);
          return { error: copy(error), event: copy(event) };
        }),
      find: (projectId, id) =>
        run((state) => {
          const error = state.errorTracking.errors.get(id);
          return error?.projectId === projectId ? copy(error) : null;
        }),
      list: (projectId, sort, page) =>
        run((state) => {
          const key = SORT_KEY[sort];
          const rows = [...state.errorTracking.errors.values()]
            .filter((e) => e.projectId === projectId)
            .sort((a, b) => key(b) - key(a) || b.id - a.id);
          return offsetPage(rows, page, copy);
        }),
      listEvents: (errorId, page) =>
        run((state) => {
          const rows = [...state.errorTracking.events.values()]
            .filter((e) => e.errorId === errorId)
            .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || b.id - a.id);
          return offsetPage(rows, page, copy);
        }),
    },
  };
}
