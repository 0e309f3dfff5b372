/**
 * `POST /projects/:id/hooks/:hook_id/test/:trigger` (and the group and system variants; reference
 * `TestHooks::ProjectService`): sends the hook, at once, the payload of the project's latest event
 * of that kind — whatever the hook's switches and even while it is disabled — and answers
 * `201 {"message":"201 Created"}` when the receiver took it (2xx), else 422 with the status. A
 * successful test re-enables a disabled hook (deliver.ts clears the failure state). Triggers
 * forgekit has no events for answer 422 as the reference does for a project without data.
 */
import { randomUUID } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import { viewerOf } from "../access/permissions.js";
import type { User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { RouteResult } from "../http/types.js";
import { deliver } from "./deliver.js";
import { eventTrigger } from "./fanout.js";
import { eventPayload } from "./payloads/index.js";
import type { WebHooksService } from "./service.js";
import type { WebHook } from "./types.js";

/** The triggers the reference accepts (`TestHooks::ProjectService` triggers). */
export const TEST_TRIGGERS = [
  "push_events",
  "tag_push_events",
  "issues_events",
  "confidential_issues_events",
  "note_events",
  "confidential_note_events",
  "merge_requests_events",
  "job_events",
  "pipeline_events",
  "wiki_page_events",
  "releases_events",
  "emoji_events",
  "resource_access_token_events",
] as const;

/** Reference messages when the project has nothing to send. */
const NOTHING: Record<string, string> = {
  push_events: "Ensure the project has at least 1 commit.",
  tag_push_events: "Ensure the project has at least 1 commit.",
  issues_events: "Ensure the project has issues.",
  confidential_issues_events: "Ensure the project has issues.",
  note_events: "Ensure the project has notes.",
  confidential_note_events: "Ensure the project has notes.",
  merge_requests_events: "Ensure the project has merge requests.",
};

/** Sends test deliveries. */
export interface HookTester {
  test(hook: WebHook, trigger: string, user: User | null): Promise<Result<RouteResult, ForgekitError>>;
  /** `POST /hooks/:id`: sends a system hook the reference's sample `project_create` and answers it (201), whatever the receiver said. */
  testSystem(hook: WebHook): Promise<Result<RouteResult, ForgekitError>>;
}

/** The sample a system hook test sends (reference `API::SystemHooks` test). */
export const SYSTEM_TEST_SAMPLE = { event_name: "project_create", name: "Ruby", path: "ruby", project_id: 1, owner_name: "Someone", owner_email: "example@gitlabhq.com" } as const;

/** How many recent events are searched for one of the trigger's kind. */
const SEARCH = 100;

/** Builds the tester. */
export function hookTester(config: ForgekitConfig, webHooks: WebHooksService): HookTester {
  const { store, clock } = config;
  /** The latest event of a project that maps to `trigger`. */
  async function latestEvent(projectIds: readonly number[], trigger: string, user: User | null): Promise<number | null> {
    let best: { id: number; at: number } | null = null;
    for (const projectId of projectIds) {
      const page = await store.activity.events.list({ feed: { kind: "project", projectId }, viewer: viewerOf(user), now: clock.now(), sort: "desc" }, { kind: "offset", page: 1, perPage: SEARCH });
      const found = page.items.find((event) => eventTrigger(event)?.event === trigger);
      if (found !== undefined && (best === null || found.createdAt.getTime() > best.at)) best = { id: found.id, at: found.createdAt.getTime() };
    }
    return best?.id ?? null;
  }
  /** Where the sample comes from: the hook's project; a group hook's most recently active projects (reference `first_non_empty_project`). */
  async function projectsOf(hook: WebHook, user: User | null): Promise<number[]> {
    if (hook.projectId !== null) return [hook.projectId];
    if (hook.groupId === null) return [];
    const listed = await store.projects.list(
      { viewer: viewerOf(user), now: clock.now(), namespaceId: hook.groupId, includeSubgroups: true, orderBy: "last_activity_at", sort: "desc" },
      { kind: "offset", page: 1, perPage: 20 },
    );
    return listed.items.map((p) => p.id);
  }
  return {
    async test(hook, trigger, user) {
      if (!(TEST_TRIGGERS as readonly string[]).includes(trigger)) return err(errors.invalidParam("trigger", "does not have a valid value"));
      const eventId = await latestEvent(await projectsOf(hook, user), trigger, user);
      const built = eventId === null ? null : await eventPayload(config, eventId);
      if (built === null) return err(errors.unprocessable(NOTHING[trigger] ?? "Testing not available for this hook"));
      const key = randomUUID();
      const outcome = await deliver(config, hook, webHooks.tokenOf(hook), { trigger: trigger.replace(/_events$/, "_hooks"), eventHeader: built.header, payload: built.payload, idempotencyKey: key, eventUuid: randomUUID() });
      if (!outcome.ok) return err(errors.unprocessable(`Hook execution failed: ${outcome.log.responseStatus}`));
      return ok({ status: 201, body: { message: "201 Created" } });
    },
    async testSystem(hook) {
      const payload = { ...SYSTEM_TEST_SAMPLE };
      await deliver(config, hook, webHooks.tokenOf(hook), { trigger: "system_hooks", eventHeader: "System Hook", payload, idempotencyKey: randomUUID(), eventUuid: randomUUID() });
      return ok({ status: 201, body: payload });
    },
  };
}
