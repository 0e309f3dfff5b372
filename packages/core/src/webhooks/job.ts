/**
 * The job that sends one queued delivery (fanout.ts): after every earlier delivery of the same hook
 * (per-hook order: a later one waits, retried with backoff, until the earlier ones are delivered or
 * given up), while the hook is executable (temporarily disabled: retried later; disabled for good:
 * given up). The payload is built when sent, from the stored event, or carried by the job as built
 * in the transaction of the change (issue and merge request hooks with their `changes`, releases,
 * member and system events).
 * A failed request is retried with exponential backoff and the same idempotency key; the last
 * attempt gives the delivery up so that later ones go on.
 */
import type { ForgekitConfig } from "../config.js";
import type { JobContext, JobHandler } from "../jobs/index.js";
import { deliver } from "./deliver.js";
import type { DeliveryJobPayload } from "./fanout.js";
import { alertStatus } from "./failure-policy.js";
import { eventPayload } from "./payloads/index.js";
import type { WebHooksService } from "./service.js";

/** Builds the handler. */
export function deliveryJobHandler(config: ForgekitConfig, webHooks: WebHooksService): JobHandler<DeliveryJobPayload> {
  const { store, clock } = config;
  return async (ctx: JobContext<DeliveryJobPayload>) => {
    const delivery = await store.webHooks.findDelivery(ctx.payload.deliveryId);
    if (delivery === null || delivery.state !== "pending") return;
    const last = ctx.attempt >= ctx.job.maxAttempts;
    const giveUp = async () => {
      await store.webHooks.finishDelivery(delivery.id, "failed", clock.now());
    };
    const hook = await store.webHooks.findById(delivery.hookId);
    if (hook === null) return giveUp();
    if (await store.webHooks.pendingBefore(hook.id, delivery.id)) {
      if (last) await giveUp();
      throw new Error("an earlier delivery of this hook is pending");
    }
    const status = alertStatus(hook, clock.now());
    if (status === "disabled") return giveUp();
    if (status === "temporarily_disabled") {
      if (last) await giveUp();
      throw new Error("the hook is temporarily disabled");
    }
    const built = ctx.payload.built ?? (await eventPayload(config, delivery.eventId));
    if (built === null) return giveUp();
    const outcome = await ctx.step("send", () =>
      deliver(config, hook, webHooks.tokenOf(hook), { trigger: delivery.trigger, eventHeader: built.header, payload: built.payload, idempotencyKey: delivery.idempotencyKey, eventUuid: delivery.eventUuid }),
    );
    if (outcome.ok) {
      await store.webHooks.finishDelivery(delivery.id, "delivered", clock.now());
      return;
    }
    if (last) await giveUp();
    throw new Error(`the receiver answered ${outcome.log.responseStatus}`);
  };
}
