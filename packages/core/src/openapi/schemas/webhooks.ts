/** Schemas of hooks (reference `ProjectHook`, `GroupHook`, `Hook`), their recorded deliveries (`WebHookLog`) and the system hook test's sample. */
import * as z from "zod";
import type { SYSTEM_TEST_SAMPLE } from "../../webhooks/test-hook.js";
import { BRANCH_FILTER_STRATEGIES, GROUP_HOOK_EVENTS, PROJECT_HOOK_EVENTS, SYSTEM_HOOK_EVENTS } from "../../webhooks/types.js";
import { type Fits, type Holds, int, timestamp, url } from "./common.js";

/** What `POST /hooks/:id` sends the hook and answers with (reference `API::SystemHooks` test). */
export const systemHookTestSampleSchema = z
  .object({
    event_name: z.string(),
    name: z.string(),
    path: z.string(),
    project_id: int,
    owner_name: z.string(),
    owner_email: z.string(),
  })
  .meta({ description: "System hook test sample (reference `API::SystemHooks` test)" });

const switches = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, z.boolean()])) as Record<string, z.ZodBoolean>;

const hookFields = {
  id: int,
  url,
  name: z.string(),
  description: z.string(),
  created_at: timestamp,
  enable_ssl_verification: z.boolean(),
  alert_status: z.enum(["executable", "temporarily_disabled", "disabled"]),
  disabled_until: timestamp.nullable().meta({ description: "while temporarily disabled" }),
  url_variables: z.array(z.never()).meta({ description: "always empty: forgekit has no URL variables" }),
};
const ownedHookFields = {
  push_events_branch_filter: z.string().nullable(),
  branch_filter_strategy: z.enum(BRANCH_FILTER_STRATEGIES),
};

export const systemHookSchema = z.object({ ...hookFields, ...switches(SYSTEM_HOOK_EVENTS) }).meta({ description: "System hook (reference `Hook`); never its token" });
export const projectHookSchema = z.object({ ...hookFields, ...switches(PROJECT_HOOK_EVENTS), project_id: int, ...ownedHookFields }).meta({ description: "Project hook (reference `ProjectHook`); never its token" });
export const groupHookSchema = z.object({ ...hookFields, ...switches(GROUP_HOOK_EVENTS), group_id: int, ...ownedHookFields }).meta({ description: "Group hook (reference `GroupHook`); never its token" });

export const hookLogSchema = z
  .object({
    id: int,
    url,
    trigger: z.string().meta({ description: "e.g. `push_hooks`" }),
    request_headers: z.record(z.string(), z.string()).meta({ description: "the token shows as `[REDACTED]`" }),
    request_data: z.unknown().meta({ description: "the payload sent" }),
    response_headers: z.record(z.string(), z.string()),
    response_body: z.string().meta({ description: "trimmed" }),
    execution_duration: z.number().meta({ description: "seconds" }),
    response_status: z.string().meta({ description: "the HTTP status as text, or `internal error`" }),
  })
  .meta({ description: "A recorded hook delivery (reference `WebHookLog`)" });

/** Compile-time: the sample matches its schema (a mismatch fails `tsc`). */
export type WebhookSchemasHold = Holds<Fits<typeof systemHookTestSampleSchema, typeof SYSTEM_TEST_SAMPLE>>;
