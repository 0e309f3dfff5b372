/** Schemas of the webhook entities that have one so far: the system hook test's sample. */
import * as z from "zod";
import type { SYSTEM_TEST_SAMPLE } from "../../webhooks/test-hook.js";
import { type Fits, type Holds, int } from "./common.js";

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

/** Compile-time: the sample matches its schema (a mismatch fails `tsc`). */
export type WebhookSchemasHold = Holds<Fits<typeof systemHookTestSampleSchema, typeof SYSTEM_TEST_SAMPLE>>;
