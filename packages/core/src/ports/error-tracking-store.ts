/**
 * Storage ports of error tracking (DESIGN §5): a project's settings, its client keys (the public
 * half of a Sentry DSN) and the errors the collector received, grouped by fingerprint.
 *
 * Contract for every method: "not found" is `null`; infrastructure failures reject the promise;
 * every returned record is a copy the caller may keep. Methods called on the object `transaction`
 * hands out run inside that transaction. Rows of a project that does not exist are refused (the
 * promise rejects, as a foreign key does). Text values arrive without NUL characters (the service
 * strips them: PostgreSQL cannot store them).
 */
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** A project's error-tracking settings (only the integrated backend: no external Sentry fields). */
export interface ErrorTrackingSettings {
  projectId: number;
  /** Spec `active` (the reference's `enabled` column). */
  active: boolean;
  /** Whether the built-in backend (the collector) is used. */
  integrated: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The store's per-project error-tracking settings: find, save and update. */
export interface ErrorTrackingSettingsRepository {
  find(projectId: number): Promise<ErrorTrackingSettings | null>;
  /**
   * Creates the settings, or updates both flags of existing ones (an atomic upsert: two racing
   * callers both succeed and the later write wins). `createdAt` is kept on update.
   */
  save(projectId: number, values: { active: boolean; integrated: boolean }, now: Date): Promise<ErrorTrackingSettings>;
  /** Updates the given flags of existing settings; `null` when the project has none (nothing written). */
  update(projectId: number, patch: { active?: boolean; integrated?: boolean }, now: Date): Promise<ErrorTrackingSettings | null>;
}

/** A client key: the credential Sentry SDKs send to the collector. The public key is not a secret (it sits in the DSN). */
export interface ErrorTrackingClientKey {
  id: number;
  projectId: number;
  active: boolean;
  /** Unique across all projects; word characters only. */
  publicKey: string;
  createdAt: Date;
}

/**
 * The store's error-tracking client keys (what clients report with): create, find, find by public key,
 * list, activate or deactivate, and delete.
 */
export interface ErrorTrackingClientKeyRepository {
  /** Inserts an active key; `null` when the public key is taken (nothing written). */
  create(projectId: number, publicKey: string, now: Date): Promise<ErrorTrackingClientKey | null>;
  /** The key with this id when it belongs to the project. */
  find(projectId: number, id: number): Promise<ErrorTrackingClientKey | null>;
  /** Exact, case-sensitive match of the public key among the project's keys. */
  findByPublicKey(projectId: number, publicKey: string): Promise<ErrorTrackingClientKey | null>;
  /** The project's keys, ordered by id ascending. */
  list(projectId: number, page: OffsetPageRequest): Promise<OffsetPageResult<ErrorTrackingClientKey>>;
  /** Sets `active`; the updated key, or `null` when the project has no such key. */
  setActive(projectId: number, id: number, active: boolean): Promise<ErrorTrackingClientKey | null>;
  /** Deletes the key and returns it; of two racing callers exactly one gets the key, the other `null`. */
  delete(projectId: number, id: number): Promise<ErrorTrackingClientKey | null>;
}

/** A group of events sharing one fingerprint in one project. */
export interface TrackedError {
  id: number;
  projectId: number;
  /** Lower-case hex SHA-256 of the grouping components; unique per project. */
  fingerprint: string;
  /** Exception type (or the message of a message event), as first seen. */
  name: string;
  /** Exception value, as first seen. */
  description: string;
  /** Where it happened (transaction, culprit or top frame), as first seen. */
  actor: string;
  platform: string | null;
  /** Number of events recorded in the group. */
  eventCount: number;
  /** Earliest and latest receive time of the group's events. */
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** One received event. */
export interface TrackedErrorEvent {
  id: number;
  errorId: number;
  projectId: number;
  /** The SDK's `event_id` (32 lower-case hex digits), when it sent a valid one. */
  eventId: string | null;
  level: string | null;
  environment: string | null;
  /** The event's own `timestamp` (client time), when valid. */
  occurredAt: Date | null;
  /** Server time of receipt. */
  receivedAt: Date;
  /** The event as received, re-serialised as JSON. */
  payload: string;
}

/** What the collector records for one event. */
export interface NewErrorEvent {
  projectId: number;
  fingerprint: string;
  /** Group fields, used only when this event creates the group. */
  name: string;
  description: string;
  actor: string;
  platform: string | null;
  eventId: string | null;
  level: string | null;
  environment: string | null;
  occurredAt: Date | null;
  payload: string;
}

/** Orders of {@link TrackedErrorRepository.list}, each descending with ties by id descending. */
export type TrackedErrorSort = "last_seen" | "first_seen" | "frequency";

/**
 * The store's tracked errors: record events grouped by fingerprint, find and list the groups, and list
 * their events.
 */
export interface TrackedErrorRepository {
  /**
   * Records one event at `now`: creates the group of `(projectId, fingerprint)` if missing (first
   * and last seen `now`, count 0), then adds the event to it (count + 1, last seen = the later of
   * the two, first seen = the earlier). Atomic: racing callers with one fingerprint end in one
   * group whose count is the number of events.
   */
  record(input: NewErrorEvent, now: Date): Promise<{ error: TrackedError; event: TrackedErrorEvent }>;
  /** The group when it belongs to the project. */
  find(projectId: number, id: number): Promise<TrackedError | null>;
  list(projectId: number, sort: TrackedErrorSort, page: OffsetPageRequest): Promise<OffsetPageResult<TrackedError>>;
  /** Events of one group, newest receipt first (ties by id descending). */
  listEvents(errorId: number, page: OffsetPageRequest): Promise<OffsetPageResult<TrackedErrorEvent>>;
}

/** Every error-tracking repository (the `errorTracking` member of the Store). */
export interface ErrorTrackingStore {
  settings: ErrorTrackingSettingsRepository;
  clientKeys: ErrorTrackingClientKeyRepository;
  errors: TrackedErrorRepository;
}
