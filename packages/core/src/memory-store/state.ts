/** The in-memory store's tables, and the runner that serialises access to them. */
import { JournalMap } from "./journal.js";
import type { AccessToken, Email, Membership, Namespace, Project, User } from "../accounts/types.js";
import { emptyActivityTables, type ActivityTables } from "./activity-state.js";
import {
  emptyErrorTrackingTables,
  emptyImportsTables,
  emptyJobs,
  emptyLabelTables,
  emptyMergeRequestReviewTables,
  emptyReleaseTables,
  emptyReviewTables,
  emptyStatusesTables,
  emptyUploads,
  type ErrorTrackingTables,
  type ImportsTables,
  type IterationsTable,
  type JobsTable,
  type LabelTables,
  type MergeRequestExtrasTable,
  type MergeRequestReviewTables,
  type NotificationSettingsTable,
  type ProtectedRefsTable,
  type ReleaseTables,
  type ReviewTables,
  type StatusesTables,
  type UploadsTable,
  type WebHooksTable,
} from "./tables.js";
import type { OAuthApplication, OAuthAuthorizationCode, OAuthKey, OAuthKeyKind, OAuthToken } from "../ports/oauth-store.js";

/** The OAuth tables (memory-store/oauth.ts); ids from `seq`. */
export interface OAuthTables {
  seq: { applications: number; codes: number; tokens: number };
  applications: JournalMap<number, OAuthApplication>;
  codes: JournalMap<number, OAuthAuthorizationCode>;
  tokens: JournalMap<number, OAuthToken>;
  keys: JournalMap<OAuthKeyKind, OAuthKey>;
  /** Used consent-form tokens: digest → when the record may go. */
  usedConsents: JournalMap<string, Date>;
  /** Unique keys → row id: client ids, code digests, access and refresh digests. */
  unique: { uids: JournalMap<string, number>; codes: JournalMap<string, number>; access: JournalMap<string, number>; refresh: JournalMap<string, number> };
}

/** Every table of the in-memory store; ids are assigned from `seq`. */
export interface MemoryState {
  seq: { users: number; emails: number; namespaces: number; projects: number; members: number; tokens: number };
  users: JournalMap<number, User>;
  emails: JournalMap<number, Email>;
  namespaces: JournalMap<number, Namespace>;
  projects: JournalMap<number, Project>;
  members: JournalMap<number, Membership>;
  tokens: JournalMap<number, AccessToken>;
  /** Rotation links: token id → the id of the token it replaced. */
  tokenPrevious: JournalMap<number, number>;
  settings: JournalMap<string, string>;
  /** Notification settings (memory-store/notification-settings.ts). */
  notificationSettings: NotificationSettingsTable;
  /** Group iterations (memory-store/iterations.ts). */
  iterations: IterationsTable;
  /** Unique keys (case-folded) → row id, so uniqueness checks do not scan tables. */
  unique: { usernames: JournalMap<string, number>; emails: JournalMap<string, number>; namespacePaths: JournalMap<string, number>; projectPaths: JournalMap<string, number>; digests: JournalMap<string, number> };
  /** OAuth tables (memory-store/oauth.ts). */
  oauth: OAuthTables;
  /** Activity tables (memory-store/activity-state.ts). */
  activity: ActivityTables;
  /** Error-tracking tables (memory-store/error-tracking.ts). */
  errorTracking: ErrorTrackingTables;
  /** Background jobs (memory-store/jobs.ts). */
  jobs: JobsTable;
  /** Import state, external-id maps, labels (memory-store/imports.ts). */
  imports: ImportsTables;
  /** Merge-request merges and snippet descriptions (memory-store/reviews.ts). */
  reviews: ReviewTables;
  /** External pipelines and commit statuses (memory-store/statuses.ts). */
  statuses: StatusesTables;
  /** Assignees, reviewers and automatic merges of merge requests (memory-store/merge-request-extras.ts). */
  mrExtras: MergeRequestExtrasTable;
  /** Label priorities and subscriptions (memory-store/labels.ts). */
  labels: LabelTables;
  /** Merge-request versions, approvals and approval rules (memory-store/merge-request-reviews.ts). */
  mrReviews: MergeRequestReviewTables;
  /** Project releases and their links (memory-store/releases.ts). */
  releases: ReleaseTables;
  /** Project upload records (memory-store/uploads.ts). */
  uploads: UploadsTable;
  /** Protected branch and tag rules (memory-store/protected-refs.ts). */
  protectedRefs: ProtectedRefsTable;
  /** Webhooks and their delivery log (memory-store/webhooks.ts). */
  webHooks: WebHooksTable;
}

/** Runs `fn` against the state the repository is bound to (the live state, or a transaction's draft). */
export type Runner = <T>(fn: (state: MemoryState) => T) => Promise<T>;

export function emptyState(): MemoryState {
  return {
    seq: { users: 0, emails: 0, namespaces: 0, projects: 0, members: 0, tokens: 0 },
    users: new JournalMap(),
    emails: new JournalMap(),
    namespaces: new JournalMap(),
    projects: new JournalMap(),
    members: new JournalMap(),
    tokens: new JournalMap(),
    tokenPrevious: new JournalMap(),
    settings: new JournalMap(),
    notificationSettings: { seq: 0, rows: new JournalMap() },
    iterations: { seq: 0, rows: new JournalMap() },
    unique: { usernames: new JournalMap(), emails: new JournalMap(), namespacePaths: new JournalMap(), projectPaths: new JournalMap(), digests: new JournalMap() },
    oauth: {
      seq: { applications: 0, codes: 0, tokens: 0 },
      applications: new JournalMap(),
      codes: new JournalMap(),
      tokens: new JournalMap(),
      keys: new JournalMap(),
      usedConsents: new JournalMap(),
      unique: { uids: new JournalMap(), codes: new JournalMap(), access: new JournalMap(), refresh: new JournalMap() },
    },
    activity: emptyActivityTables(),
    errorTracking: emptyErrorTrackingTables(),
    jobs: emptyJobs(),
    imports: emptyImportsTables(),
    reviews: emptyReviewTables(),
    statuses: emptyStatusesTables(),
    mrExtras: new JournalMap(),
    labels: emptyLabelTables(),
    mrReviews: emptyMergeRequestReviewTables(),
    releases: emptyReleaseTables(),
    uploads: emptyUploads(),
    protectedRefs: { seq: 0, accessSeq: 0, rows: new JournalMap() },
    webHooks: { seq: 0, logSeq: 0, rows: new JournalMap(), logs: new JournalMap(), deliverySeq: 0, deliveries: new JournalMap(), senders: new JournalMap() },
  };
}

/**
 * Copies a record (Dates and arrays included) so callers never share mutable references with the
 * store, in either direction.
 */
export function copy<T>(record: T): T {
  return structuredClone(record);
}

/** A FIFO lock: one holder at a time, later callers wait in order. */
export class Lock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
