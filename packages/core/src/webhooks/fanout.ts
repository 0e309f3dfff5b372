/**
 * Queueing webhook deliveries in the transaction of the change (issue 20 "Delivery"): every
 * activity event is offered to the hooks of its project, of the project's group and its ancestors,
 * and to system hooks; each hook that asked for that kind of event gets a delivery row and a job,
 * written with the event itself — so nothing is sent for a rolled-back change and nothing is lost
 * when the process dies after the commit. Hooks that are disabled at that moment are skipped, as
 * the reference does. Confidential issues and notes (events only members or reporters may see) go
 * only to hooks with the confidential switch on.
 *
 * An event whose payload is built in its transaction (the services' issue and merge request hooks,
 * payloads/issuable.ts) comes with a {@link HookPayloadBuilder}: it runs once, when some hook wants
 * the event, and the job carries what it built. Other events' payloads are built when sent.
 *
 * This module is what the events floor calls: it imports only ports and this capability's own
 * value modules.
 */
import { randomUUID } from "node:crypto";
import type { TransactionStore } from "../ports/store.js";
import type { NewHookDelivery } from "../ports/webhooks-store.js";
import { branchMatches } from "./branch-filter.js";
import { executable } from "./failure-policy.js";
import type { HookEvent, WebHook } from "./types.js";

/** The job kind that sends one delivery. */
export const WEBHOOK_DELIVERY_JOB = "webhooks.deliver";
/** Attempts of a delivery job (backoff 1 s doubling up to 10 min: about four hours in all). */
export const WEBHOOK_DELIVERY_ATTEMPTS = 30;
/** The delivery job's backoff between failed attempts. */
export const WEBHOOK_DELIVERY_BACKOFF = { baseMs: 1_000, factor: 2, maxMs: 10 * 60_000 } as const;

/** The fields of a stored activity event the fan-out reads. */
export interface HookableEvent {
  id: number;
  projectId: number | null;
  action: string;
  targetType: string | null;
  audience: string;
  push: { refType: "branch" | "tag"; ref: string } | null;
}

/** The hook switch, confidential switch and reference trigger name an event maps to, or null. */
export function eventTrigger(event: HookableEvent): { event: HookEvent; confidential: HookEvent | null; trigger: string; system: boolean } | null {
  if (event.action === "pushed" && event.push !== null) {
    return event.push.refType === "tag"
      ? { event: "tag_push_events", confidential: null, trigger: "tag_push_hooks", system: true }
      : { event: "push_events", confidential: null, trigger: "push_hooks", system: true };
  }
  const hidden = event.audience === "members" || event.audience === "reporters";
  if (event.targetType === "Issue" && ["created", "closed", "reopened", "updated"].includes(event.action)) {
    return hidden ? { event: "confidential_issues_events", confidential: "confidential_issues_events", trigger: "confidential_issue_hooks", system: false } : { event: "issues_events", confidential: null, trigger: "issue_hooks", system: false };
  }
  if (event.targetType === "MergeRequest" && ["created", "closed", "reopened", "merged", "updated"].includes(event.action)) {
    return { event: "merge_requests_events", confidential: null, trigger: "merge_request_hooks", system: true };
  }
  if (event.targetType === "Note" && event.action === "commented") {
    return hidden ? { event: "confidential_note_events", confidential: "confidential_note_events", trigger: "confidential_note_hooks", system: false } : { event: "note_events", confidential: null, trigger: "note_hooks", system: false };
  }
  return null;
}

/** The hooks of group `namespaceId` and its ancestors, nearest first (none when it is a user namespace). */
async function groupHooks(tx: TransactionStore, namespaceId: number | null): Promise<WebHook[]> {
  const hooks: WebHook[] = [];
  for (let depth = 0; namespaceId !== null && depth < 20; depth++) {
    const namespace = await tx.namespaces.findById(namespaceId);
    if (namespace === null || namespace.kind !== "group") break;
    hooks.push(...(await tx.webHooks.list({ scope: "group", groupId: namespace.id })));
    namespaceId = namespace.parentId;
  }
  return hooks;
}

/** The hooks an event of `projectId` is offered to: the project's, its groups' (nearest first) and the system's. */
async function candidateHooks(tx: TransactionStore, projectId: number, system: boolean): Promise<WebHook[]> {
  const project = await tx.projects.findById(projectId);
  if (project === null) return [];
  const hooks = await tx.webHooks.list({ scope: "project", projectId });
  hooks.push(...(await groupHooks(tx, project.namespaceId)));
  if (system) hooks.push(...(await tx.webHooks.list({ scope: "system" })));
  return hooks;
}

/** A payload with its `X-Gitlab-Event` header. */
export interface HookPayload {
  header: string;
  payload: unknown;
}

/** Builds an event's payload in the transaction of the change; null when there is nothing to report (nothing is queued). */
export type HookPayloadBuilder = () => Promise<HookPayload | null>;

/**
 * Queues the deliveries of a just-inserted event inside `tx`; the number queued. With `build` the
 * payload is built now (once, when some hook wants the event), else when each delivery is sent.
 */
export async function queueHookDeliveries(tx: TransactionStore, event: HookableEvent, now: Date, build?: HookPayloadBuilder): Promise<number> {
  if (event.projectId === null) return 0;
  const mapped = eventTrigger(event);
  if (mapped === null) return 0;
  const hooks = (await candidateHooks(tx, event.projectId, mapped.system)).filter(
    (hook) => !(mapped.event === "push_events" && hook.scope !== "system" && !branchMatches(hook.branchFilterStrategy, hook.branchFilter, event.push?.ref ?? "")),
  );
  return enqueue(tx, hooks, { event: mapped.event, trigger: mapped.trigger, subjectId: event.id, built: build ?? null }, now);
}

/** An issue or merge request edited: what routes its `update` hook. */
export interface IssuableUpdate {
  projectId: number;
  targetType: "Issue" | "MergeRequest";
  /** The issue or merge request (the deliveries' `eventId`). */
  id: number;
  /** A confidential issue's hooks go to hooks with confidential issue events on only. */
  confidential: boolean;
}

/**
 * Queues the `update` hook of an edited issue or merge request inside `tx` (the reference sends one
 * for every update, and records no activity event for it): routed as an `updated` event about it
 * would be, with the payload `build` makes; the number queued.
 */
export async function queueIssuableUpdate(tx: TransactionStore, update: IssuableUpdate, build: HookPayloadBuilder, now: Date): Promise<number> {
  const event: HookableEvent = { id: update.id, projectId: update.projectId, action: "updated", targetType: update.targetType, audience: update.confidential ? "reporters" : "project", push: null };
  return queueHookDeliveries(tx, event, now, build);
}

/**
 * A project change that is not an activity event (a release created, changed or deleted): its
 * payload is built in the transaction of the change, from the state then (a deleted release is
 * gone when the job runs), and carried by the delivery job.
 */
export interface PayloadHookEvent {
  projectId: number;
  /** The switch a hook must have on (e.g. `releases_events`). */
  event: HookEvent;
  /** Reference trigger name, e.g. `release_hooks`. */
  trigger: string;
  /** The id of what changed (the release), kept as the delivery's `eventId`. */
  subjectId: number;
  header: string;
  payload: unknown;
}

/** Queues the deliveries of `change` to the project's and its groups' hooks inside `tx`; the number queued. */
export async function queuePayloadDeliveries(tx: TransactionStore, change: PayloadHookEvent, now: Date): Promise<number> {
  const hooks = await candidateHooks(tx, change.projectId, false);
  return enqueue(tx, hooks, { event: change.event, trigger: change.trigger, subjectId: change.subjectId, built: { header: change.header, payload: change.payload } }, now);
}

/**
 * A change reported with a payload built in its transaction to hooks that are not a project's:
 * group member changes to the group's and its ancestors' hooks with `member_events`
 * ({@link queueGroupDeliveries}), and the reference's system events (`user_add_to_team`,
 * `project_create`, …) to every system hook, which gets them whatever its switches
 * ({@link queueSystemDeliveries}).
 */
export interface BuiltHookEvent {
  /** Reference trigger name, e.g. `member_hooks`, `system_hooks`. */
  trigger: string;
  /** The id of what changed (the membership, project or user), kept as the delivery's `eventId`. */
  subjectId: number;
  /** `X-Gitlab-Event`, e.g. `Member Hook`, `System Hook`. */
  header: string;
  payload: unknown;
}

/** Queues `change` to the hooks of group `groupId` and its ancestors that have `member_events` on, inside `tx`; the number queued. */
export async function queueGroupDeliveries(tx: TransactionStore, groupId: number, change: BuiltHookEvent, now: Date): Promise<number> {
  const hooks = await groupHooks(tx, groupId);
  return enqueue(tx, hooks, { event: "member_events", trigger: change.trigger, subjectId: change.subjectId, built: { header: change.header, payload: change.payload } }, now);
}

/** Queues `change` to every system hook inside `tx`; the number queued. */
export async function queueSystemDeliveries(tx: TransactionStore, change: BuiltHookEvent, now: Date): Promise<number> {
  const hooks = await tx.webHooks.list({ scope: "system" });
  return enqueue(tx, hooks, { event: null, trigger: change.trigger, subjectId: change.subjectId, built: { header: change.header, payload: change.payload } }, now);
}

/**
 * The job payload of a delivery: its id. (`built`: the payload built at queue time, which jobs
 * queued before migration 0042 carry; deliveries now keep it themselves.)
 */
export interface DeliveryJobPayload {
  deliveryId: number;
  built?: HookPayload;
}

/** `built`: the payload, its builder, or null to build it when sent. */
async function enqueue(
  tx: TransactionStore,
  hooks: readonly WebHook[],
  what: { event: HookEvent | null; trigger: string; subjectId: number; built: HookPayload | HookPayloadBuilder | null },
  now: Date,
): Promise<number> {
  const eventUuid = randomUUID();
  const targets = hooks.filter((hook) => (what.event === null || hook.events.includes(what.event)) && executable(hook, now));
  if (targets.length === 0) return 0;
  const built = typeof what.built === "function" ? await what.built() : what.built;
  if (typeof what.built === "function" && built === null) return 0;
  // The payload built now goes with each delivery (whoever holds the hook's sending lease sends it, job.ts).
  const payload = built === null ? null : JSON.stringify(built);
  const rows: NewHookDelivery[] = targets.map((hook) => ({ hookId: hook.id, eventId: what.subjectId, trigger: what.trigger, idempotencyKey: randomUUID(), eventUuid, payload }));
  for (const delivery of await tx.webHooks.addDeliveries(rows, now)) {
    const job = await tx.jobs.enqueue({ kind: WEBHOOK_DELIVERY_JOB, payload: JSON.stringify({ deliveryId: delivery.id } satisfies DeliveryJobPayload), maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS, runAfter: now }, now);
    if (job === null) throw new Error(`the job of webhook delivery ${delivery.id} was not enqueued`);
  }
  return rows.length;
}
