/**
 * The tables of the in-memory store's capability areas, with their empty values. They live here,
 * apart from the repositories that read them, so that `state.ts` (which composes them into
 * `MemoryState`) imports no repository and no repository file is part of an import circle.
 */
import { JournalMap, JournalSet } from "./journal.js";
import type { ApprovalRecord, ApprovalRuleRecord, ProjectApprovalSettings } from "../ports/approvals-store.js";
import type { ErrorTrackingClientKey, ErrorTrackingSettings, TrackedError, TrackedErrorEvent } from "../ports/error-tracking-store.js";
import type { Label, ProjectImport } from "../ports/imports-store.js";
import type { JobRecord } from "../ports/jobs-store.js";
import type { MergeRequestExtras } from "../ports/merge-request-extras-store.js";
import type { MergeRequestVersionRecord } from "../ports/merge-request-versions-store.js";
import type { NotificationSettingRecord } from "../ports/notification-settings-store.js";
import type { CommitStatusRecord, PipelineRecord } from "../ports/statuses-store.js";
import type { ProjectUpload } from "../ports/uploads-store.js";
import type { HookDelivery, HookLog } from "../ports/webhooks-store.js";
import type { Iteration } from "../iterations/types.js";
import type { ProtectedRef } from "../protected-refs/types.js";
import type { Release, ReleaseLink } from "../releases/types.js";
import type { WebHook } from "../webhooks/types.js";

/** The error-tracking tables of the in-memory store. */
export interface ErrorTrackingTables {
  seq: { keys: number; errors: number; events: number };
  /** By project id. */
  settings: JournalMap<number, ErrorTrackingSettings>;
  keys: JournalMap<number, ErrorTrackingClientKey>;
  errors: JournalMap<number, TrackedError>;
  events: JournalMap<number, TrackedErrorEvent>;
}

/** Empty tables for a new store. */
export function emptyErrorTrackingTables(): ErrorTrackingTables {
  return { seq: { keys: 0, errors: 0, events: 0 }, settings: new JournalMap(), keys: new JournalMap(), errors: new JournalMap(), events: new JournalMap() };
}
/** The import tables of the in-memory store. */
export interface ImportsTables {
  /** Project id → its import. */
  projects: JournalMap<number, ProjectImport>;
  /** `project|kind|external id` → record id. */
  externalIds: JournalMap<string, number>;
  labelSeq: number;
  labels: JournalMap<number, Label>;
  /** `labelId|type|targetId`. */
  labelLinks: JournalSet<string>;
}

export function emptyImportsTables(): ImportsTables {
  return { projects: new JournalMap(), externalIds: new JournalMap(), labelSeq: 0, labels: new JournalMap(), labelLinks: new JournalSet() };
}
/** A stored iteration: the record without `sequence`, which is derived on every read. */
export type StoredIteration = Omit<Iteration, "sequence">;

/** The iterations table of the in-memory store. */
export interface IterationsTable {
  seq: number;
  rows: JournalMap<number, StoredIteration>;
}

export function emptyIterations(): IterationsTable {
  return { seq: 0, rows: new JournalMap() };
}
/** The jobs table of the in-memory store. */
export interface JobsTable {
  seq: number;
  rows: JournalMap<number, JobRecord>;
  /** The worker registry: owner → alive until. */
  workers: JournalMap<string, Date>;
}

/** An empty jobs table. */
export function emptyJobs(): JobsTable {
  return { seq: 0, rows: new JournalMap(), workers: new JournalMap() };
}
/** Label priorities (`projectId|labelId` → priority) and subscriptions (`labelId|userId`). */
export interface LabelTables {
  priorities: JournalMap<string, number>;
  subscriptions: JournalSet<string>;
}

export function emptyLabelTables(): LabelTables {
  return { priorities: new JournalMap(), subscriptions: new JournalSet() };
}
/** Extras by merge-request id. */
export type MergeRequestExtrasTable = JournalMap<number, MergeRequestExtras>;
/** The tables of versions, approvals, approval settings and rules. */
export interface MergeRequestReviewTables {
  seq: { versions: number; rules: number };
  versions: JournalMap<number, MergeRequestVersionRecord>;
  /** merge request id → approvals, oldest first. */
  approvals: JournalMap<number, ApprovalRecord[]>;
  settings: JournalMap<number, ProjectApprovalSettings>;
  rules: JournalMap<number, ApprovalRuleRecord>;
  /** merge request id → the ids of the issues it closes, ascending (memory-store/merge-request-closing-issues.ts). */
  closingIssues: JournalMap<number, number[]>;
}

export const emptyMergeRequestReviewTables = (): MergeRequestReviewTables => ({ seq: { versions: 0, rules: 0 }, versions: new JournalMap(), approvals: new JournalMap(), settings: new JournalMap(), rules: new JournalMap(), closingIssues: new JournalMap() });
/** The notification-settings table of the in-memory store. */
export interface NotificationSettingsTable {
  seq: number;
  rows: JournalMap<number, NotificationSettingRecord>;
}

export function emptyNotificationSettings(): NotificationSettingsTable {
  return { seq: 0, rows: new JournalMap() };
}
/** The protected refs table: rules by id, their access rows inside; ids from `seq` and `accessSeq`. */
export interface ProtectedRefsTable {
  seq: number;
  accessSeq: number;
  rows: JournalMap<number, ProtectedRef>;
}
/** The releases tables of the in-memory store. */
export interface ReleaseTables {
  seq: { releases: number; links: number };
  releases: JournalMap<number, Release>;
  links: JournalMap<number, ReleaseLink>;
}

export function emptyReleaseTables(): ReleaseTables {
  return { seq: { releases: 0, links: 0 }, releases: new JournalMap(), links: new JournalMap() };
}
/** What the REST resources add to merge requests and snippets, by row id. */
export interface ReviewTables {
  merges: JournalMap<number, { mergeUserId: number; mergeCommitSha: string }>;
  snippetDescriptions: JournalMap<number, string>;
}

export function emptyReviewTables(): ReviewTables {
  return { merges: new JournalMap(), snippetDescriptions: new JournalMap() };
}
/** The tables of pipelines and statuses; ids from `seq`. */
export interface StatusesTables {
  seq: { pipelines: number; statuses: number };
  pipelines: JournalMap<number, PipelineRecord>;
  statuses: JournalMap<number, CommitStatusRecord>;
}

export function emptyStatusesTables(): StatusesTables {
  return { seq: { pipelines: 0, statuses: 0 }, pipelines: new JournalMap(), statuses: new JournalMap() };
}
/** The uploads table of the in-memory store. */
export interface UploadsTable {
  seq: number;
  rows: JournalMap<number, ProjectUpload>;
}

export function emptyUploads(): UploadsTable {
  return { seq: 0, rows: new JournalMap() };
}
/** The webhooks tables; ids from `seq` and `logSeq`. */
export interface WebHooksTable {
  seq: number;
  logSeq: number;
  rows: JournalMap<number, WebHook>;
  logs: JournalMap<number, HookLog>;
  deliverySeq: number;
  deliveries: JournalMap<number, HookDelivery>;
  /** Each hook's sending lease (webhooks/job.ts): who holds it, until when. */
  senders: JournalMap<number, { owner: string; until: Date }>;
}

