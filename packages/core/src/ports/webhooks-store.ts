/** Storage port of webhooks and their delivery log (ports/store.ts conventions; issue 20). */
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";
import type { HookEvent, WebHook } from "../webhooks/types.js";

/** What adding a hook takes: a stored hook without its id, failure state and creation time. */
export type NewWebHook = Omit<WebHook, "id" | "events" | "recentFailures" | "backoffCount" | "disabledUntil" | "createdAt"> & { events: readonly HookEvent[] };

/** What {@link WebHookRepository.update} changes. */
export type WebHookPatch = Partial<Omit<WebHook, "id" | "scope" | "projectId" | "groupId" | "createdAt">>;

/** Whose hooks to list. */
export type HookOwner = { scope: "project"; projectId: number } | { scope: "group"; groupId: number } | { scope: "system" };

/** One recorded delivery (reference `WebHookLog`). */
export interface HookLog {
  id: number;
  hookId: number;
  /** Reference trigger name, e.g. `push_hooks`. */
  trigger: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestData: unknown;
  responseHeaders: Record<string, string>;
  /** Trimmed to a small limit by the sender. */
  responseBody: string;
  /** The HTTP status as text, or `internal error` when no response came. */
  responseStatus: string;
  /** Seconds from request to response. */
  executionDuration: number;
  idempotencyKey: string;
  createdAt: Date;
}

/** What recording a delivery takes. */
export type NewHookLog = Omit<HookLog, "id">;

/** Filters of the delivery log: since when, and a status code or range. */
export interface HookLogFilter {
  since: Date;
  /** Inclusive status range (e.g. 200-299), compared on the numeric status. */
  status?: { from: number; to: number };
}

/** Where a queued delivery stands. */
export type HookDeliveryState = "pending" | "delivered" | "failed";

/**
 * One event queued for one hook, written in the transaction of the change that caused it; its job
 * sends it (at least once, with the same idempotency key on every attempt, after every earlier
 * delivery of the hook).
 */
export interface HookDelivery {
  id: number;
  hookId: number;
  /** The activity event it reports (for release deliveries, which report no activity event: the release). */
  eventId: number;
  /** Reference trigger name, e.g. `push_hooks`. */
  trigger: string;
  idempotencyKey: string;
  /** Shared by the deliveries of one event to several hooks. */
  eventUuid: string;
  state: HookDeliveryState;
  /**
   * The request it sends, built in the transaction of the change (JSON text of the header and the
   * payload), or null when it is built when sent, from the stored event.
   */
  payload: string | null;
  createdAt: Date;
  /** When it was delivered or given up. */
  finishedAt: Date | null;
}

/** What queueing a delivery takes. */
export type NewHookDelivery = Pick<HookDelivery, "hookId" | "eventId" | "trigger" | "idempotencyKey" | "eventUuid"> & { payload?: string | null };

/** The store's webhooks: add, find, list, change and remove hooks, and record and list their deliveries. */
export interface WebHookRepository {
  /** Stores a hook (the owner must exist) and returns it. */
  create(input: NewWebHook, now: Date): Promise<WebHook>;
  /** The hook, or null. */
  findById(id: number): Promise<WebHook | null>;
  /** The owner's hooks by ascending id (system: every system hook). */
  list(owner: HookOwner): Promise<WebHook[]>;
  /** Applies the patch; the hook after, or null when the id is unknown. */
  update(id: number, patch: WebHookPatch): Promise<WebHook | null>;
  /** Deletes the hook and its delivery log; false when it did not exist. */
  remove(id: number): Promise<boolean>;
  /** Records one delivery of an existing hook. */
  addLog(input: NewHookLog): Promise<HookLog>;
  /** The hook's deliveries matching the filter, newest first (id descending). */
  listLogs(hookId: number, filter: HookLogFilter, page: OffsetPageRequest): Promise<OffsetPageResult<HookLog>>;
  /** Queues deliveries (state `pending`), ids ascending in input order; each hook must exist. */
  addDeliveries(rows: readonly NewHookDelivery[], now: Date): Promise<HookDelivery[]>;
  /** The delivery, or null. */
  findDelivery(id: number): Promise<HookDelivery | null>;
  /** The hook's `pending` delivery with the smallest id, or null (per-hook order: it goes first). */
  firstPending(hookId: number): Promise<HookDelivery | null>;
  /**
   * Takes (or renews) the hook's sending lease for `owner` until `until`: true when no one else
   * holds it at `now` (free, expired, or already `owner`'s). One holder at a time sends a hook's
   * deliveries, in order (webhooks/job.ts).
   */
  takeSending(hookId: number, owner: string, until: Date, now: Date): Promise<boolean>;
  /** Gives the hook's sending lease back if `owner` holds it. */
  releaseSending(hookId: number, owner: string): Promise<void>;
  /** Ends a pending delivery as `delivered` or `failed`; false when it was not pending. */
  finishDelivery(id: number, state: "delivered" | "failed", now: Date): Promise<boolean>;
}
