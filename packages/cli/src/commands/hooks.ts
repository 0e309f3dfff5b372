/** `forgekit hooks deliveries <hook_id>`: a webhook's recent deliveries (status, duration, response) for operators. */
import type { HookLog } from "@forgekit/core";
import { UsageError } from "../usage-error.js";
import type { Output } from "../output.js";
import { positiveInt } from "../values.js";
import type { Command } from "./context.js";

/** A delivery as printed (snake_case, as `GET …/hooks/:hook_id/events` names it, without the payload). */
export function deliveryRecord(log: HookLog): Record<string, unknown> {
  return {
    id: log.id,
    trigger: log.trigger,
    url: log.url,
    response_status: log.responseStatus,
    execution_duration: log.executionDuration,
    idempotency_key: log.idempotencyKey,
    response_body: log.responseBody,
    created_at: log.createdAt.toISOString(),
  };
}

const line = (log: HookLog) => `${log.createdAt.toISOString()} ${log.trigger} ${log.responseStatus} ${Math.round(log.executionDuration * 1000)} ms key ${log.idempotencyKey}`;

const hooksDeliveries: Command = {
  name: "hooks deliveries",
  summary: "list a webhook's deliveries of the last 7 days, newest first: trigger, status, duration, idempotency key",
  positionals: [{ name: "hook_id", description: "webhook id (project, group or system hook)" }],
  options: {
    page: { type: "string", placeholder: "<n>", description: "page number (default 1)" },
    "per-page": { type: "string", placeholder: "<n>", description: "entries per page, 1-100 (default 20)" },
  },
  run: (context, args) => {
    const text = args.positional(0);
    if (text === undefined) throw new UsageError("missing <hook_id>", "hooks deliveries");
    const id = positiveInt("<hook_id>", text);
    const page = positiveInt("--page", args.string("page") ?? "1");
    const perPage = positiveInt("--per-page", args.string("per-page") ?? "20");
    if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, "hooks deliveries");
    return context.fk.webHooks.deliveries(id, { page, perPage }).map((result): Output => {
      const lines = result.items.length === 0 ? [`no deliveries of hook ${id} in the last 7 days`] : result.items.map(line);
      return { json: result.items.map(deliveryRecord), text: result.hasNext ? [...lines, `more on the next page: --page ${page + 1}`] : lines };
    });
  },
};

/** The webhook commands. */
export const hooksCommands: readonly Command[] = [hooksDeliveries];
