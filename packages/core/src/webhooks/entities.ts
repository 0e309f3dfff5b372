/**
 * JSON shapes of hooks (reference `API::Entities::ProjectHook`, `GroupHook`, `Hook` for system
 * hooks) and of their recorded deliveries (`WebHookLog` in `GET …/hooks/:hook_id/events`). The
 * token is never part of them.
 */
import type { HookLog } from "../ports/webhooks-store.js";
import { alertStatus } from "./failure-policy.js";
import { hookEvents, type WebHook } from "./types.js";

/** The hook entity of its scope at `now` (alert status is computed from the failure state). */
export function hookEntity(hook: WebHook, now: Date): Record<string, unknown> {
  const on = new Set(hook.events);
  const switches = Object.fromEntries(hookEvents(hook.scope).map((name) => [name, on.has(name)]));
  const status = alertStatus(hook, now);
  const common = {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.createdAt.toISOString(),
    ...switches,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: status,
    disabled_until: status === "temporarily_disabled" && hook.disabledUntil !== null ? hook.disabledUntil.toISOString() : null,
    url_variables: [],
  };
  if (hook.scope === "system") return common;
  const owner = hook.scope === "project" ? { project_id: hook.projectId } : { group_id: hook.groupId };
  return { ...common, ...owner, push_events_branch_filter: hook.branchFilter, branch_filter_strategy: hook.branchFilterStrategy };
}

/** One recorded delivery (reference `GET /projects/:id/hooks/:hook_id/events`); the token shows as `[REDACTED]`. */
export function hookLogEntity(log: HookLog): Record<string, unknown> {
  return {
    id: log.id,
    url: log.url,
    trigger: log.trigger,
    request_headers: log.requestHeaders,
    request_data: log.requestData,
    response_headers: log.responseHeaders,
    response_body: log.responseBody,
    execution_duration: log.executionDuration,
    response_status: log.responseStatus,
  };
}
