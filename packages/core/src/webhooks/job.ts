/**
 * The job that sends queued deliveries (fanout.ts). Every delivery has a job (so every delivery is
 * sure to be sent once its change committed), but a hook's deliveries are sent by one holder of the
 * hook's sending lease at a time, oldest first (per-hook order):
 *
 * - A job takes the lease (or returns when another holds it: the holder sends this delivery too)
 *   and sends the hook's pending deliveries in id order until none is left; then it gives the
 *   lease back and looks once more, so a delivery committed meanwhile is never left behind.
 * - A failed request keeps the lease until the retry, and the job is retried with exponential
 *   backoff and the same idempotency key: later deliveries wait behind it without spending
 *   attempts, and without jobs of their own polling the hook. The lease owner is the job, so the
 *   retry (or the job taken over after its worker died) holds it again at once.
 * - The last attempt gives the delivery up and hands the rest of the hook's deliveries to a fresh
 *   job, as does a retry that succeeded (so one delivery's failures never spend another's attempts).
 * - A hook temporarily disabled by the failure policy is retried the same way; one disabled for
 *   good has its pending deliveries given up.
 *
 * The payload is the one built in the transaction of the change (the delivery's `payload`), or built
 * when sent from the stored event — once for all the hooks that send it within a few seconds.
 */
import type { ForgekitConfig } from "../config.js";
import { backoffDelayMs, type JobContext, type JobHandler } from "../jobs/index.js";
import type { HookDelivery } from "../ports/webhooks-store.js";
import { deliver } from "./deliver.js";
import { WEBHOOK_DELIVERY_ATTEMPTS, WEBHOOK_DELIVERY_BACKOFF, WEBHOOK_DELIVERY_JOB, type DeliveryJobPayload, type HookPayload } from "./fanout.js";
import { alertStatus } from "./failure-policy.js";
import { eventPayload } from "./payloads/index.js";
import type { WebHooksService } from "./service.js";
import type { WebHook } from "./types.js";

/** How long the sending lease lasts (renewed once half of it has run out). */
const LEASE_MS = 60_000;
/** Longest a retried job may take beyond its backoff before another may take the lease. */
const RETRY_MARGIN_MS = 60_000;
/** Payloads built when sent are shared by the hooks that send them within this long. */
const PAYLOAD_REUSE_MS = 5_000;
const PAYLOAD_CACHE_SIZE = 256;

/** What came of sending the hook's first pending delivery. */
type Sent = "delivered" | "given_up" | { retry: string };

/** Builds the handler. */
export function deliveryJobHandler(config: ForgekitConfig, webHooks: WebHooksService): JobHandler<DeliveryJobPayload> {
  const { store, clock } = config;
  const payloadOf = sharedPayloads(config);

  const send = async (ctx: JobContext<DeliveryJobPayload>, hook: WebHook, delivery: HookDelivery, last: boolean): Promise<Sent> => {
    const giveUp = async (): Promise<Sent> => {
      await store.webHooks.finishDelivery(delivery.id, "failed", clock.now());
      return "given_up";
    };
    const status = alertStatus(hook, clock.now());
    if (status === "disabled") return giveUp();
    if (status === "temporarily_disabled") return last ? giveUp() : { retry: "the hook is temporarily disabled" };
    // A job queued before deliveries kept their payload (migration 0042) carries it itself.
    const carried = delivery.id === ctx.payload.deliveryId ? ctx.payload.built : undefined;
    const built = delivery.payload !== null ? (JSON.parse(delivery.payload) as HookPayload) : (carried ?? (await payloadOf(delivery.eventId)));
    if (built === null) return giveUp();
    const outcome = await ctx.step("send", () =>
      deliver(config, hook, webHooks.tokenOf(hook), { trigger: delivery.trigger, eventHeader: built.header, payload: built.payload, idempotencyKey: delivery.idempotencyKey, eventUuid: delivery.eventUuid }),
    );
    if (outcome.ok) {
      await store.webHooks.finishDelivery(delivery.id, "delivered", clock.now());
      return "delivered";
    }
    return last ? giveUp() : { retry: `the receiver answered ${outcome.log.responseStatus}` };
  };

  /** Hands the hook's remaining deliveries to a fresh job (after a give-up, or a retry that went through). */
  const handOver = async (hookId: number) => {
    const next = await store.webHooks.firstPending(hookId);
    if (next === null) return;
    const now = clock.now();
    await store.jobs.enqueue({ kind: WEBHOOK_DELIVERY_JOB, payload: JSON.stringify({ deliveryId: next.id } satisfies DeliveryJobPayload), maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS, runAfter: now }, now);
  };

  return async (ctx) => {
    const own = await store.webHooks.findDelivery(ctx.payload.deliveryId);
    // Even when its own delivery went out already: a job that held the lease and was stopped, or
    // taken over from a dead worker, goes on with what its hook has pending.
    if (own === null) return;
    const hookId = own.hookId;
    const owner = `job-${ctx.job.id}`;
    const last = ctx.attempt >= ctx.job.maxAttempts;
    let holding = false;
    let heldUntil = 0;
    let retrying = false;
    try {
      for (;;) {
        const now = clock.now();
        // Taken, or renewed once half of it has run out.
        if (!holding || heldUntil - now.getTime() < LEASE_MS / 2) {
          heldUntil = now.getTime() + LEASE_MS;
          holding = await store.webHooks.takeSending(hookId, owner, new Date(heldUntil), now);
          if (!holding) return;
        }
        const hook = await store.webHooks.findById(hookId);
        const head = hook === null ? null : await store.webHooks.firstPending(hookId);
        if (hook === null || head === null) {
          await store.webHooks.releaseSending(hookId, owner);
          holding = false;
          // Looked at once more after giving the lease back: a delivery committed while this job
          // held it found the lease taken and left its sending to this job.
          if (hook === null || (await store.webHooks.firstPending(hookId)) === null) return;
          continue;
        }
        const sent = await send(ctx, hook, head, last);
        if (typeof sent === "object") {
          // Later deliveries wait behind this one: the lease is kept until the retry is due.
          const retryAt = clock.now().getTime() + backoffDelayMs(ctx.attempt, WEBHOOK_DELIVERY_BACKOFF) + RETRY_MARGIN_MS;
          await store.webHooks.takeSending(hookId, owner, new Date(retryAt), clock.now());
          retrying = true;
          throw new Error(sent.retry);
        }
        if (sent === "given_up" || ctx.attempt > 1) {
          await store.webHooks.releaseSending(hookId, owner);
          holding = false;
          await handOver(hookId);
          return;
        }
      }
    } finally {
      // Stopped by anything but a failed request (the worker stopping, a store error): the lease
      // goes back, so that the next delivery's job (or this one's retry) sends what is pending.
      if (holding && !retrying) await store.webHooks.releaseSending(hookId, owner).catch(() => undefined);
    }
  };
}

/** Payloads built when sent, shared by every hook that sends the same event within {@link PAYLOAD_REUSE_MS}. */
function sharedPayloads(config: ForgekitConfig): (eventId: number) => Promise<HookPayload | null> {
  const built = new Map<number, { at: number; payload: Promise<HookPayload | null> }>();
  return (eventId) => {
    const now = Date.now();
    const hit = built.get(eventId);
    if (hit !== undefined && now - hit.at < PAYLOAD_REUSE_MS) return hit.payload;
    const payload = eventPayload(config, eventId);
    built.delete(eventId);
    built.set(eventId, { at: now, payload });
    // A failed build is not kept.
    payload.catch(() => built.delete(eventId));
    for (const key of built.keys()) {
      if (built.size <= PAYLOAD_CACHE_SIZE) break;
      built.delete(key);
    }
    return payload;
  };
}
