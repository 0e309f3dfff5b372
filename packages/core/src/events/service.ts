/** The events service (host API: `fk.events`): record, the three feeds, and retention. */
import { errAsync, type ResultAsync } from "neverthrow";
import { attempt, fromStore, inTransaction } from "../accounts/service-kit.js";
import type { User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { eventFeeds, FIRST_PAGE, type EventQuery, type OwnEventQuery } from "./feeds.js";
import { recordEvent, type RecordEventInput } from "./record.js";
import { checkPruneOptions, pruneEvents, type PruneOptions, type PruneResult } from "./retention.js";
import type { Event } from "./types.js";

/** Events service. */
export interface EventsService {
  /**
   * Records an event about the host's own domain (in one transaction with nothing else; services
   * of the activity domain record theirs inside their own transactions). 400 with the validation
   * body for bad input, 404 `User` / `Project` for an unknown author or project.
   */
  record(input: RecordEventInput): ResultAsync<Event, ForgekitError>;
  /** `GET /events`: the user's own events, or with `scope: "all"` those of every project the user is authorised for. */
  own(user: User, query?: OwnEventQuery, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<Event>, ForgekitError>;
  /** `GET /users/:id/events` as `viewer` (null = anonymous): id or username; 404 `User`; private profile → empty. */
  ofUser(viewer: User | null, user: number | string, query?: EventQuery, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<Event>, ForgekitError>;
  /** `GET /projects/:id/events` as `viewer`: id or full path; 404 `Project` when unknown or invisible. */
  ofProject(viewer: User | null, project: number | string, query?: EventQuery, page?: OffsetPageRequest): ResultAsync<OffsetPageResult<Event>, ForgekitError>;
  /**
   * Retention: removes events older than three years (by the configured clock) in batches of
   * `batchSize`. Safe to run at any time and from several processes at once.
   */
  prune(options?: PruneOptions): ResultAsync<PruneResult, ForgekitError>;
}

/** Builds the events service. */
export function eventsService(config: ForgekitConfig): EventsService {
  const { store, clock } = config;
  const feeds = eventFeeds(store, () => clock.now());
  return {
    record: (input) => inTransaction(store, (tx) => recordEvent(tx, input, clock.now())),
    own: (user, query = {}, page = FIRST_PAGE) => attempt(() => feeds.own(user, query, page)),
    ofUser: (viewer, user, query = {}, page = FIRST_PAGE) => attempt(() => feeds.ofUser(viewer, user, query, page)),
    ofProject: (viewer, project, query = {}, page = FIRST_PAGE) => attempt(() => feeds.ofProject(viewer, project, query, page)),
    prune(options = {}) {
      const invalid = checkPruneOptions(options);
      if (invalid !== null) return errAsync(invalid);
      return fromStore(pruneEvents(store, clock, options));
    },
  };
}
