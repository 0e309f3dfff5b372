/** The tables of webhooks and their delivery log (migration 0028_web_hooks). */
import type { Generated } from "kysely";
import type { DbBool, DbDate } from "./schema-values.js";

/** One hook: a project's, a group's or a system hook. */
export interface WebHooksTable {
  id: Generated<number>;
  /** `project` | `group` | `system`. */
  scope: string;
  project_id: number | null;
  group_id: number | null;
  url: string;
  name: string;
  description: string;
  /** Sealed with the instance key when one is configured. */
  token: string | null;
  enable_ssl_verification: DbBool;
  branch_filter: string | null;
  branch_filter_strategy: string;
  /** The switches that are on, comma-separated (`push_events,note_events`). */
  events: string;
  recent_failures: number;
  backoff_count: number;
  disabled_until: DbDate | null;
  created_at: DbDate;
  /** Who holds the sending lease (migration 0042), until when. */
  sender: string | null;
  sending_until: DbDate | null;
}

/** One delivery of a hook (reference `web_hook_logs`). */
export interface WebHookLogsTable {
  id: Generated<number>;
  hook_id: number;
  trigger_name: string;
  url: string;
  /** JSON text. */
  request_headers: string;
  /** JSON text. */
  request_data: string;
  /** JSON text. */
  response_headers: string;
  response_body: string;
  response_status: string;
  /** Microseconds. */
  execution_micros: number;
  idempotency_key: string;
  created_at: DbDate;
}

/** One queued delivery of an event to a hook (migration 0029_web_hook_deliveries). */
export interface WebHookDeliveriesTable {
  id: Generated<number>;
  hook_id: number;
  event_id: number;
  trigger_name: string;
  idempotency_key: string;
  event_uuid: string;
  /** `pending` | `delivered` | `failed`. */
  state: string;
  /** The request built in the transaction of the change, JSON text (migration 0042); null: built when sent. */
  payload: string | null;
  created_at: DbDate;
  finished_at: DbDate | null;
}

export interface WebHooksDatabase {
  forgekit_web_hooks: WebHooksTable;
  forgekit_web_hook_logs: WebHookLogsTable;
  forgekit_web_hook_deliveries: WebHookDeliveriesTable;
}

/** The tables in deletion order (dependants first). */
export const WEB_HOOKS_TABLES = ["forgekit_web_hook_deliveries", "forgekit_web_hook_logs", "forgekit_web_hooks"] as const;
