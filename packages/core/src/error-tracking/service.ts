/**
 * The error-tracking service (host API: `fk.errorTracking`): a project's settings and client keys,
 * the collector's checks and writes, and the errors it grouped. Methods take project ids and do no
 * permission checks: the routes check the caller (Maintainer), the host is trusted.
 */
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import { attempt, fromStore, inTransaction } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type {
  ErrorTrackingClientKey,
  ErrorTrackingSettings,
  TrackedError,
  TrackedErrorEvent,
  TrackedErrorSort,
} from "../ports/error-tracking-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { readEvent, type CollectedEvent } from "./collector/event.js";
import { isRecordId } from "../ids.js";
import { generatePublicKey, sentryDsn } from "./entities.js";

/** A page of a programmatic list: `page` ≥ 1 (default 1), `perPage` 1…100 (default 20). */
export interface PageOptions {
  page?: number;
  perPage?: number;
}

/** Options of {@link ErrorTrackingService.listErrors}. */
export interface ListErrorsOptions extends PageOptions {
  /** Default `last_seen`; every order is descending, ties by id descending. */
  sort?: TrackedErrorSort;
}

/** The error-tracking service. */
export interface ErrorTrackingService {
  /** `not_found("Error Tracking Setting")` while the project has none. */
  getSettings(projectId: number): ResultAsync<ErrorTrackingSettings, ForgekitError>;
  /** Creates the settings or replaces both flags (spec PUT). */
  putSettings(projectId: number, values: { active: boolean; integrated: boolean }): ResultAsync<ErrorTrackingSettings, ForgekitError>;
  /** Changes `active` (and `integrated` when given) of existing settings; `not_found("Error Tracking Setting")` when none (spec PATCH). */
  patchSettings(projectId: number, values: { active: boolean; integrated?: boolean }): ResultAsync<ErrorTrackingSettings, ForgekitError>;
  /** The project's client keys by id. */
  listClientKeys(projectId: number, page?: PageOptions): ResultAsync<OffsetPageResult<ErrorTrackingClientKey>, ForgekitError>;
  /** One key of the project; `record_not_found` when the project has no such key. */
  findClientKey(projectId: number, keyId: number): ResultAsync<ErrorTrackingClientKey, ForgekitError>;
  /** A new active key with a generated public key. */
  createClientKey(projectId: number): ResultAsync<ErrorTrackingClientKey, ForgekitError>;
  /** Enables or disables a key; `record_not_found` when the project has no such key. */
  setClientKeyActive(projectId: number, keyId: number, active: boolean): ResultAsync<ErrorTrackingClientKey, ForgekitError>;
  /** Deletes a key and returns it; `record_not_found` when the project has no such key. */
  deleteClientKey(projectId: number, keyId: number): ResultAsync<ErrorTrackingClientKey, ForgekitError>;
  /** The DSN SDKs are configured with, built from the configured base URL. */
  dsn(key: ErrorTrackingClientKey): string;
  /**
   * Whether the collector may take events for the project with this public key: the project
   * exists, its settings are active and integrated, and the key is one of its active keys. Every
   * refusal is the same `not_found()`, so anonymous callers learn nothing about which part failed.
   */
  authorizeCollector(projectId: number, publicKey: string): ResultAsync<void, ForgekitError>;
  /**
   * Validates Sentry event documents (see collector/event.ts) and records them, all or none, in one
   * transaction; returns the group each event joined. A document that is not an accepted event is
   * `bad_request("Unsupported sentry payload")` and nothing is recorded.
   */
  ingest(projectId: number, events: readonly unknown[]): ResultAsync<TrackedError[], ForgekitError>;
  /** The project's error groups with counts and first / last seen. */
  listErrors(projectId: number, options?: ListErrorsOptions): ResultAsync<OffsetPageResult<TrackedError>, ForgekitError>;
  /** The events of one group, newest first; `not_found("Error")` when the project has no such group. */
  listErrorEvents(projectId: number, errorId: number, page?: PageOptions): ResultAsync<OffsetPageResult<TrackedErrorEvent>, ForgekitError>;
}

const NO_SETTINGS = "Error Tracking Setting";
/** Public-key collisions are 1 in 2^128; a few retries only guard against a broken Random port. */
const KEY_ATTEMPTS = 3;

function pageRequest(options: PageOptions = {}): Result<OffsetPageRequest, ForgekitError> {
  const page = options.page ?? 1;
  const perPage = options.perPage ?? 20;
  if (!Number.isSafeInteger(page) || page < 1) return err(errors.invalidParam("page"));
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 100) return err(errors.invalidParam("per_page"));
  return ok({ kind: "offset", page, perPage });
}

/** Builds the service over the configuration's store, clock and randomness. */
export function errorTrackingService(config: ForgekitConfig): ErrorTrackingService {
  const { store, clock, random, baseUrl } = config;
  const repo = store.errorTracking;

  const findProject = (projectId: number) => (isRecordId(projectId) ? store.projects.findById(projectId) : Promise.resolve(null));
  const requireProject = (projectId: number): ResultAsync<void, ForgekitError> =>
    fromStore(findProject(projectId)).andThen((project) => (project === null ? errAsync(errors.notFound("Project")) : okAsync(undefined)));
  const found = <T>(missing: ForgekitError) => (value: T | null): Result<T, ForgekitError> => (value === null ? err(missing) : ok(value));

  return {
    getSettings: (projectId) => fromStore(repo.settings.find(projectId)).andThen(found(errors.notFound(NO_SETTINGS))),
    putSettings: (projectId, values) =>
      requireProject(projectId).andThen(() => fromStore(repo.settings.save(projectId, { active: values.active, integrated: values.integrated }, clock.now()))),
    patchSettings: (projectId, values) =>
      fromStore(
        repo.settings.update(projectId, values.integrated === undefined ? { active: values.active } : { active: values.active, integrated: values.integrated }, clock.now()),
      ).andThen(found(errors.notFound(NO_SETTINGS))),
    listClientKeys: (projectId, page) => pageRequest(page).asyncAndThen((p) => requireProject(projectId).andThen(() => fromStore(repo.clientKeys.list(projectId, p)))),
    createClientKey: (projectId) =>
      requireProject(projectId).andThen(() =>
        attempt(async () => {
          for (let i = 0; i < KEY_ATTEMPTS; i += 1) {
            const key = await repo.clientKeys.create(projectId, generatePublicKey(random), clock.now());
            if (key !== null) return ok(key);
          }
          return err(errors.internal(new Error("could not generate an unused error-tracking public key")));
        }),
      ),
    findClientKey: (projectId, keyId) => fromStore(repo.clientKeys.find(projectId, keyId)).andThen(found(errors.recordNotFound())),
    setClientKeyActive: (projectId, keyId, active) => fromStore(repo.clientKeys.setActive(projectId, keyId, active)).andThen(found(errors.recordNotFound())),
    deleteClientKey: (projectId, keyId) => fromStore(repo.clientKeys.delete(projectId, keyId)).andThen(found(errors.recordNotFound())),
    dsn: (key) => sentryDsn(baseUrl, key.publicKey, key.projectId),
    authorizeCollector: (projectId, publicKey) =>
      attempt(async () => {
        const refused = err(errors.notFound());
        if ((await findProject(projectId)) === null) return refused;
        const settings = await repo.settings.find(projectId);
        if (settings === null || !settings.active || !settings.integrated) return refused;
        const key = await repo.clientKeys.findByPublicKey(projectId, publicKey);
        return key !== null && key.active ? ok(undefined) : refused;
      }),
    ingest(projectId, documents) {
      const read: CollectedEvent[] = [];
      for (const document of documents) {
        const event = readEvent(document);
        if (event.isErr()) return errAsync(event.error);
        read.push(event.value);
      }
      return requireProject(projectId).andThen(() =>
        inTransaction(store, async (tx) => {
          const now = clock.now();
          const groups: TrackedError[] = [];
          for (const event of read) groups.push((await tx.errorTracking.errors.record({ projectId, ...event }, now)).error);
          return ok(groups);
        }),
      );
    },
    listErrors: (projectId, options = {}) =>
      pageRequest(options).asyncAndThen((p) => requireProject(projectId).andThen(() => fromStore(repo.errors.list(projectId, options.sort ?? "last_seen", p)))),
    listErrorEvents: (projectId, errorId, page) =>
      pageRequest(page).asyncAndThen((p) =>
        fromStore(repo.errors.find(projectId, errorId))
          .andThen(found(errors.notFound("Error")))
          .andThen((error) => fromStore(repo.errors.listEvents(error.id, p))),
      ),
  };
}
