/**
 * Sending one webhook request (reference `WebHookService#execute`): POST of the JSON payload with
 * the reference's headers, through the imports URL guard at connect time (no loopback, private,
 * link-local or metadata address unless the instance allows local network; the checked address is
 * the connected one), redirects not followed, a 10-second timeout, the response body read up to
 * 8 KiB. Every attempt is recorded in the hook's delivery log (token shown as `[REDACTED]`) and
 * moves the hook's failure state (failure-policy.ts); one metric-friendly log line per delivery,
 * without user data.
 */
import { randomUUID } from "node:crypto";
import type { ForgekitConfig } from "../config.js";
import { displayUrl, guardedFetch } from "../imports/index.js";
import { FORGEKIT_VERSION } from "../instance/index.js";
import type { HookLog } from "../ports/webhooks-store.js";
import { afterFailure, failureFree, SUCCESS_STATE } from "./failure-policy.js";
import type { WebHook } from "./types.js";

/** Longest wait for the receiver (reference: 10 seconds). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Response bytes kept in the log (reference `RESPONSE_BODY_SIZE_LIMIT`). */
export const RESPONSE_BODY_LIMIT = 8 * 1024;

/** One request to send. */
export interface Delivery {
  /** Reference trigger name, e.g. `push_hooks`. */
  trigger: string;
  /** `X-Gitlab-Event`, e.g. `Push Hook`. */
  eventHeader: string;
  payload: unknown;
  /** Stable across retries of the same delivery. */
  idempotencyKey: string;
  /** Shared by every hook that receives the same event. */
  eventUuid: string;
}

/** What came of it. */
export interface DeliveryOutcome {
  /** 2xx from the receiver. */
  ok: boolean;
  log: HookLog;
}

const redact = (headers: Record<string, string>) => (headers["X-Gitlab-Token"] === undefined ? headers : { ...headers, "X-Gitlab-Token": "[REDACTED]" });

/** Reads at most `limit` bytes of a body, then stops reading. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (response.body === null) return "";
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/** Sends `delivery` to `hook` and records it; `token` is the hook's plain token. */
export async function deliver(config: ForgekitConfig, hook: WebHook, token: string | null, delivery: Delivery): Promise<DeliveryOutcome> {
  const { clock, store, logger } = config;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": `GitLab/${FORGEKIT_VERSION}`,
    "Idempotency-Key": delivery.idempotencyKey,
    "X-Gitlab-Event": delivery.eventHeader,
    "X-Gitlab-Webhook-UUID": randomUUID(),
    "X-Gitlab-Instance": config.baseUrl,
    "X-Gitlab-Event-UUID": delivery.eventUuid,
    ...(token === null ? {} : { "X-Gitlab-Token": token }),
  };
  const fetcher = guardedFetch({
    allowLocalNetwork: config.imports.allowLocalNetwork,
    ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }),
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const started = performance.now();
  let status = "internal error";
  let responseHeaders: Record<string, string> = {};
  let responseBody = "";
  let ok = false;
  const body = JSON.stringify(delivery.payload);
  try {
    const response = await fetcher(hook.url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    status = String(response.status);
    responseHeaders = Object.fromEntries(response.headers.entries());
    responseBody = await readLimited(response, RESPONSE_BODY_LIMIT);
    ok = response.status >= 200 && response.status < 300;
  } catch (error) {
    responseBody = error instanceof Error ? error.message.slice(0, RESPONSE_BODY_LIMIT) : "request failed";
  }
  const seconds = (performance.now() - started) / 1000;
  const now = clock.now();
  const log = await store.webHooks.addLog({
    hookId: hook.id,
    trigger: delivery.trigger,
    url: displayUrl(hook.url),
    requestHeaders: redact(headers),
    requestData: delivery.payload,
    responseHeaders,
    responseBody,
    responseStatus: status,
    executionDuration: seconds,
    idempotencyKey: delivery.idempotencyKey,
    createdAt: now,
  });
  // A success to a hook read without failures changes nothing; otherwise the state is read again
  // (a test request may run beside the delivery job).
  if (!ok || !failureFree(hook)) {
    const current = (await store.webHooks.findById(hook.id)) ?? hook;
    if (!ok) await store.webHooks.update(hook.id, afterFailure(current, now));
    else if (!failureFree(current)) await store.webHooks.update(hook.id, SUCCESS_STATE);
  }
  logger.log(ok ? "info" : "warn", "webhooks.delivery", { hook_id: hook.id, trigger: delivery.trigger, status, ok, duration_ms: Math.round(seconds * 1000) });
  return { ok, log };
}
