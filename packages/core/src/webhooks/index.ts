/**
 * The webhooks capability (issue 20): project, group (premium) and system hooks, their routes,
 * the durable delivery of activity events to them (queued in the transaction of the change, sent
 * by the `webhooks.deliver` job) and the delivery log.
 */
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { JobsService } from "../jobs/index.js";
import { WEBHOOK_DELIVERY_ATTEMPTS, WEBHOOK_DELIVERY_BACKOFF, WEBHOOK_DELIVERY_JOB } from "./fanout.js";
import { deliveryJobHandler } from "./job.js";
import { hookRoutes } from "./routes/hooks.js";
import { groupOwner, projectOwner, systemOwner } from "./routes/owners.js";
import { webHooksService, type WebHooksService } from "./service.js";
import { hookTester } from "./test-hook.js";

export { hookEntity, hookLogEntity } from "./entities.js";
export { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LIMIT } from "./deliver.js";
export { FAILURE_THRESHOLD, PERMANENT_FAILURE_THRESHOLD, alertStatus } from "./failure-policy.js";
export { WEBHOOK_DELIVERY_ATTEMPTS, WEBHOOK_DELIVERY_JOB, queuePayloadDeliveries, type PayloadHookEvent } from "./fanout.js";
export { projectBlock } from "./payloads/project.js";
export { DELIVERY_LOG_DAYS, type HookInput, type WebHooksService } from "./service.js";
export * from "./types.js";

/** Builds the service, defines the delivery job kind on `jobs`, and returns the routes. */
export function webHooksCapability(config: ForgekitConfig, deps: { jobs: JobsService }): { webHooks: WebHooksService; routes: AnyRoute[] } {
  const webHooks = webHooksService(config);
  const defined = deps.jobs.define(WEBHOOK_DELIVERY_JOB, deliveryJobHandler(config, webHooks), { maxAttempts: WEBHOOK_DELIVERY_ATTEMPTS, backoff: WEBHOOK_DELIVERY_BACKOFF });
  if (defined.isErr()) throw new Error(`webhooks: job kind refused (${defined.error.code})`);
  const tester = hookTester(config, webHooks);
  const routes = [
    ...hookRoutes({ config, webHooks, tester, base: "/projects/:id/hooks", owner: projectOwner(config) }),
    ...hookRoutes({ config, webHooks, tester, base: "/groups/:id/hooks", owner: groupOwner(config) }),
    ...hookRoutes({ config, webHooks, tester, base: "/hooks", owner: systemOwner() }),
  ];
  return { webHooks, routes: tagRoutes("Webhooks", routes) };
}
