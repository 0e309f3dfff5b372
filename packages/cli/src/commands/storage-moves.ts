/**
 * `forgekit storage moves schedule|list|show`: repository storage moves (spec "Repository storage
 * moves"). `schedule <kind> --from <shard> [--to <shard>]` moves every repository of the kind off a
 * shard as one background job; `--wait` also works the job in this process (next to any `forgekit
 * worker`) and shows its progress — moved / total, as a bar on a terminal and as plain lines
 * otherwise — until it ends.
 */
import { STORAGE_MOVE_KINDS, type Forgekit, type ForgekitError, type Job, type StorageMove, type StorageMoveKind } from "@forgekit/core";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { CommandArgs } from "../command.js";
import type { CliIo } from "../io.js";
import type { Output } from "../output.js";
import { fractionOf, statusLine } from "../progress.js";
import { UsageError } from "../usage-error.js";
import { oneOf, positiveInt } from "../values.js";
import type { CliContext, Command } from "./context.js";

const ACTIONS = ["schedule", "list", "show"] as const;
const NAME = "storage moves";
/** The job kinds `--wait` works in this process. */
const MOVE_KINDS = ["storage_moves.bulk", "storage_moves.move"];

/** A move as printed (snake_case, the API's names; `state` as the API shows it). */
export function moveRecord(move: StorageMove): Record<string, unknown> {
  return {
    id: move.id,
    kind: move.kind,
    container_id: move.containerId,
    state: move.state.replaceAll("_", " "),
    source_storage_name: move.sourceStorage,
    destination_storage_name: move.destinationStorage,
    error_message: move.errorMessage,
    job_id: move.jobId,
    created_at: move.createdAt.toISOString(),
    updated_at: move.updatedAt.toISOString(),
  };
}

export function moveLine(move: StorageMove): string {
  const error = move.errorMessage === null ? "" : ` (${move.errorMessage})`;
  return `move ${move.id} ${move.kind} ${move.containerId}: ${move.sourceStorage} → ${move.destinationStorage} ${move.state.replaceAll("_", " ")}${error}`;
}

const kindOf = (text: string | undefined): StorageMoveKind => (text === undefined ? "project" : oneOf("<kind>", text, STORAGE_MOVE_KINDS));

const storageMoves: Command = {
  name: NAME,
  summary: "schedule, list and show repository storage moves (project, snippet, group)",
  positionals: [
    { name: "action", description: "schedule | list | show" },
    { name: "kind", description: "project (default for list), snippet or group", optional: true },
    { name: "id", description: "the move (show)", optional: true },
  ],
  options: {
    from: { type: "string", placeholder: "<shard>", description: "schedule: the shard to move every repository of the kind off" },
    to: { type: "string", placeholder: "<shard>", description: "schedule: where they go (default: the first other configured shard)" },
    concurrency: { type: "string", placeholder: "<n>", description: "schedule: moves the job runs at once, 1-64 (default: twice the worker's CPUs)" },
    wait: { type: "boolean", description: "schedule: work the move in this process and show progress (moved / total) until it ends" },
    page: { type: "string", placeholder: "<n>", description: "list: page number (default 1)" },
    "per-page": { type: "string", placeholder: "<n>", description: "list: entries per page, 1-100 (default 20)" },
  },
  notes: [
    "forgekit storage moves schedule project --from default --to secondary --wait",
    "forgekit storage moves schedule project --from default --concurrency 16",
    "forgekit storage moves list snippet",
    "forgekit storage moves show project 3",
    "Scheduled moves are run by workers (`forgekit worker`, or fk.workers in the host); --wait runs them here too.",
  ],
  run: (context, args) => {
    const action = oneOf("<action>", args.positionals[0] ?? "", ACTIONS);
    switch (action) {
      case "schedule":
        return schedule(context, args);
      case "list":
        return list(context, args);
      case "show": {
        const kind = kindOf(args.positionals[1]);
        const text = args.positionals[2];
        if (text === undefined) throw new UsageError("missing <id>", NAME);
        return context.fk.storageMoves.find(kind, positiveInt("<id>", text)).map((move): Output => ({ json: moveRecord(move), text: [moveLine(move)] }));
      }
    }
  },
};

function list(context: CliContext, args: CommandArgs): ResultAsync<Output, ForgekitError> {
  if (args.positionals.length > 2) throw new UsageError(`unexpected argument "${args.positionals[2] ?? ""}"`, NAME);
  const kind = kindOf(args.positionals[1]);
  const page = positiveInt("--page", args.string("page") ?? "1");
  const perPage = positiveInt("--per-page", args.string("per-page") ?? "20");
  if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, NAME);
  return context.fk.storageMoves.list(kind, { page, perPage }).map((result): Output => {
    const lines = result.items.length === 0 ? [`no ${kind} storage moves`] : result.items.map(moveLine);
    return { json: result.items.map(moveRecord), text: result.hasNext ? [...lines, `more on the next page: --page ${page + 1}`] : lines };
  });
}

function schedule(context: CliContext, args: CommandArgs): ResultAsync<Output, ForgekitError> {
  const text = args.positionals[1];
  if (text === undefined) throw new UsageError("missing <kind> (project, snippet or group)", NAME);
  if (args.positionals.length > 2) throw new UsageError(`unexpected argument "${args.positionals[2] ?? ""}"`, NAME);
  const kind = kindOf(text);
  const from = args.string("from");
  if (from === undefined) throw new UsageError("missing required option --from <shard>", NAME);
  const to = args.string("to");
  const concurrencyText = args.string("concurrency");
  const concurrency = concurrencyText === undefined ? undefined : positiveInt("--concurrency", concurrencyText);
  const scheduled = context.fk.storageMoves.scheduleBulk(kind, { source: from, ...(to === undefined ? {} : { destination: to }), ...(concurrency === undefined ? {} : { concurrency }) });
  if (!args.flag("wait")) {
    return scheduled.map((job): Output => ({
      json: { job_id: job.id, kind, source_storage_name: from, destination_storage_name: to ?? null, state: job.state },
      text: [`scheduled job ${job.id}: every ${kind} repository moves off ${from}${to === undefined ? "" : ` to ${to}`}; workers run it (follow it with: forgekit jobs show ${job.id})`],
    }));
  }
  return scheduled.andThen((job) => new ResultAsync(waitFor(context.fk, job, kind, context.io, context.json === true)));
}

/** Works the job here and prints its progress until it ends; the summary of its moves. */
async function waitFor(fk: Forgekit, job: Job, kind: StorageMoveKind, io: CliIo | undefined, json: boolean): Promise<Result<Output, ForgekitError>> {
  const startedHere = fk.workers.running ? false : fk.workers.start({ kinds: MOVE_KINDS, recurring: false, pollIntervalMs: 50, concurrency: 2 }).isOk();
  const status = statusLine(io, { json });
  const show = (done: number, total: number | null) =>
    status.update(total === null ? `moved ${done}` : `moved ${done}/${total}`, fractionOf(done, total), { job_id: job.id, done, total });
  try {
    for (;;) {
      const current = await fk.jobs.find(job.id);
      if (current.isErr()) return err(current.error);
      const { progress, state } = current.value;
      show(progress?.done ?? 0, progress?.total ?? null);
      if (state === "succeeded" || state === "failed" || state === "cancelled") {
        status.end();
        const moves = await fk.storageMoves.list(kind, { perPage: 100 });
        const mine = moves.isOk() ? moves.value.items.filter((m) => m.jobId === job.id) : [];
        const count = (state: StorageMove["state"]) => mine.filter((m) => m.state === state).length;
        const summary = `job ${job.id} ${state}: ${count("finished")} finished, ${count("failed")} failed, ${count("cleanup_failed")} cleanup failed${current.value.lastError === null || state === "succeeded" ? "" : ` (${current.value.lastError})`}`;
        return ok({ json: { job_id: job.id, state, progress, moves: mine.map(moveRecord) }, text: [summary] });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    if (startedHere) await fk.workers.stop();
  }
}

/** The storage-move commands. */
export const storageMoveCommands: readonly Command[] = [storageMoves];
