/** `forgekit errors list|events`: the errors the error-tracking collector grouped, with counts and first / last seen. */
import type { TrackedError, TrackedErrorEvent } from "@forgekit/core";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { oneOf, positiveInt } from "../values.js";
import type { CommandArgs } from "../command.js";
import type { Command } from "./context.js";

const SORTS = ["last_seen", "first_seen", "frequency"] as const;

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** An error group as printed (snake_case, as the REST API names things). */
export function errorRecord(error: TrackedError): Record<string, unknown> {
  return {
    id: error.id,
    project_id: error.projectId,
    name: error.name,
    description: error.description,
    actor: error.actor,
    platform: error.platform,
    event_count: error.eventCount,
    first_seen_at: iso(error.firstSeenAt),
    last_seen_at: iso(error.lastSeenAt),
    fingerprint: error.fingerprint,
  };
}

export function errorLine(error: TrackedError): string {
  const what = error.description === "" ? error.name : `${error.name}: ${error.description}`;
  const events = `${error.eventCount} event${error.eventCount === 1 ? "" : "s"}`;
  return `error ${error.id} ${what} (${events}, first seen ${error.firstSeenAt.toISOString()}, last seen ${error.lastSeenAt.toISOString()})`;
}

/** One event as printed; the stored payload is parsed back into JSON. */
export function eventRecord(event: TrackedErrorEvent): Record<string, unknown> {
  return {
    id: event.id,
    error_id: event.errorId,
    event_id: event.eventId,
    level: event.level,
    environment: event.environment,
    occurred_at: iso(event.occurredAt),
    received_at: event.receivedAt.toISOString(),
    payload: JSON.parse(event.payload) as unknown,
  };
}

export function eventLine(event: TrackedErrorEvent): string {
  const facts = [event.level, event.environment, event.eventId === null ? null : `event_id ${event.eventId}`].filter((f) => f !== null);
  return `event ${event.id} received ${event.receivedAt.toISOString()}${facts.length === 0 ? "" : ` (${facts.join(", ")})`}`;
}

/** `--page` and `--per-page` (1-100, default 20), checked while parsing. */
function pageOptions(args: CommandArgs, command: string): { page: number; perPage: number } {
  const perPage = positiveInt("--per-page", args.string("per-page") ?? "20");
  if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, command);
  return { page: positiveInt("--page", args.string("page") ?? "1"), perPage };
}

/** The list's lines, with a hint when another page follows. */
function paged<T>(items: readonly T[], hasNext: boolean, page: number, line: (item: T) => string, none: string): string[] {
  const lines = items.length === 0 ? [none] : items.map(line);
  return hasNext ? [...lines, `more on the next page: --page ${page + 1}`] : lines;
}

const PAGE_OPTIONS = {
  page: { type: "string", placeholder: "<n>", description: "page number (default 1)" },
  "per-page": { type: "string", placeholder: "<n>", description: "entries per page, 1-100 (default 20)" },
} as const;

const errorsList: Command = {
  name: "errors list",
  summary: "list a project's tracked errors (grouped by fingerprint) with counts and first / last seen",
  options: {
    project: { type: "string", placeholder: "<project>", description: "project id or full path", required: true },
    sort: { type: "string", placeholder: "<order>", description: `${SORTS.join(", ")} (default last_seen; newest or most first)` },
    ...PAGE_OPTIONS,
  },
  notes: ["Errors arrive through the collector behind a client key's Sentry DSN (POST /projects/:id/error_tracking/client_keys)."],
  run: ({ fk }, args) => {
    const sort = oneOf("--sort", args.string("sort") ?? "last_seen", SORTS);
    const page = pageOptions(args, "errors list");
    return fk.projects.findByIdOrPath(args.required("project")).andThen((project) =>
      fk.errorTracking.listErrors(project.id, { sort, ...page }).map(
        (result): Output => ({ json: result.items.map(errorRecord), text: paged(result.items, result.hasNext, page.page, errorLine, "no errors") }),
      ),
    );
  },
};

const errorsEvents: Command = {
  name: "errors events",
  summary: "list the events of one tracked error, newest first",
  options: {
    project: { type: "string", placeholder: "<project>", description: "project id or full path", required: true },
    error: { type: "string", placeholder: "<id>", description: "error id (see `errors list`)", required: true },
    ...PAGE_OPTIONS,
  },
  run: ({ fk }, args) => {
    const errorId = positiveInt("--error", args.required("error"));
    const page = pageOptions(args, "errors events");
    return fk.projects.findByIdOrPath(args.required("project")).andThen((project) =>
      fk.errorTracking.listErrorEvents(project.id, errorId, page).map(
        (result): Output => ({ json: result.items.map(eventRecord), text: paged(result.items, result.hasNext, page.page, eventLine, "no events") }),
      ),
    );
  },
};

/** The error-tracking commands. */
export const errorsCommands: Command[] = [errorsList, errorsEvents];
