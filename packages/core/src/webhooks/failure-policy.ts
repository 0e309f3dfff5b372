/**
 * The reference's auto-disabling of project and group hooks (`WebHooks::AutoDisabling`): four
 * consecutive failures disable a hook for one minute, each later failure while it keeps failing
 * doubles the wait up to one day, and forty consecutive failures disable it for good (until it is
 * edited or a test succeeds). System hooks are never disabled. A success clears everything.
 */
import type { HookAlertStatus, WebHook } from "./types.js";

/** Consecutive failures after which a hook is disabled for a while. */
export const FAILURE_THRESHOLD = 4;
/** Consecutive failures after which a hook is disabled until it is edited or a test succeeds. */
export const PERMANENT_FAILURE_THRESHOLD = 40;
/** The first wait, and the longest. */
export const INITIAL_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 24 * 60 * 60_000;

/** The failure fields of a hook. */
export type HookFailureState = Pick<WebHook, "recentFailures" | "backoffCount" | "disabledUntil">;

/** The state after a success: executable again. */
export const SUCCESS_STATE: HookFailureState = { recentFailures: 0, backoffCount: 0, disabledUntil: null };

/** Whether a hook's failure state is {@link SUCCESS_STATE} (a success then changes nothing). */
export function failureFree(hook: HookFailureState): boolean {
  return hook.recentFailures === 0 && hook.backoffCount === 0 && hook.disabledUntil === null;
}

/** The state after one more failed delivery at `now`. */
export function afterFailure(hook: Pick<WebHook, "scope"> & HookFailureState, now: Date): HookFailureState {
  const recentFailures = hook.recentFailures + 1;
  if (hook.scope === "system" || recentFailures < FAILURE_THRESHOLD) return { recentFailures, backoffCount: hook.backoffCount, disabledUntil: hook.disabledUntil };
  if (recentFailures >= PERMANENT_FAILURE_THRESHOLD) return { recentFailures, backoffCount: hook.backoffCount, disabledUntil: null };
  const wait = Math.min(INITIAL_BACKOFF_MS * 2 ** hook.backoffCount, MAX_BACKOFF_MS);
  return { recentFailures, backoffCount: hook.backoffCount + 1, disabledUntil: new Date(now.getTime() + wait) };
}

/** Reference `alert_status` at `now`. */
export function alertStatus(hook: Pick<WebHook, "scope"> & HookFailureState, now: Date): HookAlertStatus {
  if (hook.scope === "system") return "executable";
  if (hook.recentFailures >= PERMANENT_FAILURE_THRESHOLD) return "disabled";
  if (hook.disabledUntil !== null && hook.disabledUntil.getTime() > now.getTime()) return "temporarily_disabled";
  return "executable";
}

/** Whether a hook may be called at `now` (a test call is always allowed). */
export function executable(hook: Pick<WebHook, "scope"> & HookFailureState, now: Date): boolean {
  return alertStatus(hook, now) === "executable";
}
