/** `forgekit jobs list|show|cancel`: background jobs with their state, attempts, last error and progress. */
import { JOB_STATES, type Job } from "@forgekit/core";
import type { CommandArgs } from "../command.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { oneOf, positiveInt } from "../values.js";
import type { Command } from "./context.js";

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** A job as printed (snake_case, as the REST API names things). */
export function jobRecord(job: Job): Record<string, unknown> {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    attempts: job.attempts,
    max_attempts: job.maxAttempts,
    run_after: iso(job.runAfter),
    last_error: job.lastError,
    progress: job.progress,
    cancel_requested: job.cancelRequested,
    payload: job.payload,
    created_at: iso(job.createdAt),
    updated_at: iso(job.updatedAt),
    finished_at: iso(job.finishedAt),
  };
}

/** `done / total` (or `done` when the total is unknown), as a percentage when it is known. */
function progressText(progress: Job["progress"]): string | null {
  if (progress === null) return null;
  if (progress.total === null) return `${progress.done} done`;
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  return `${progress.done}/${progress.total} (${percent}%)`;
}

export function jobLine(job: Job): string {
  const facts = [
    `attempt ${job.attempts} of ${job.maxAttempts}`,
    job.state === "queued" ? `runs after ${job.runAfter.toISOString()}` : null,
    progressText(job.progress),
    job.cancelRequested && job.state === "running" ? "cancel requested" : null,
    job.lastError === null ? null : `last error: ${job.lastError}`,
  ].filter((f) => f !== null);
  return `job ${job.id} ${job.kind} ${job.state} (${facts.join(", ")})`;
}

function jobId(args: CommandArgs, command: string): number {
  const text = args.positional(0);
  if (text === undefined) throw new UsageError("missing <id>", command);
  return positiveInt("<id>", text);
}

const jobsList: Command = {
  name: "jobs list",
  summary: "list background jobs, newest first, with state, attempts, progress and last error",
  options: {
    kind: { type: "string", placeholder: "<kind>", description: "only this kind (e.g. events.prune)" },
    state: { type: "string", placeholder: "<state>", description: `${JOB_STATES.join(", ")}` },
    page: { type: "string", placeholder: "<n>", description: "page number (default 1)" },
    "per-page": { type: "string", placeholder: "<n>", description: "entries per page, 1-100 (default 20)" },
  },
  run: (context, args) => {
    const state = args.string("state");
    const kind = args.string("kind");
    const page = positiveInt("--page", args.string("page") ?? "1");
    const perPage = positiveInt("--per-page", args.string("per-page") ?? "20");
    if (perPage > 100) throw new UsageError(`--per-page must be at most 100, got ${perPage}`, "jobs list");
    return context.fk.jobs
      .list({ page, perPage, ...(kind === undefined ? {} : { kind }), ...(state === undefined ? {} : { state: oneOf("--state", state, JOB_STATES) }) })
      .map((result): Output => {
        const lines = result.items.length === 0 ? ["no jobs"] : result.items.map(jobLine);
        return {
          json: result.items.map(jobRecord),
          text: result.hasNext ? [...lines, `more on the next page: --page ${page + 1}`] : lines,
        };
      });
  },
};

const jobsShow: Command = {
  name: "jobs show",
  summary: "show one background job",
  positionals: [{ name: "id", description: "job id" }],
  run: (context, args) => context.fk.jobs.find(jobId(args, "jobs show")).map((job): Output => ({ json: jobRecord(job), text: [jobLine(job)] })),
};

const jobsCancel: Command = {
  name: "jobs cancel",
  summary: "cancel a queued job, or ask a running one to stop at its next step",
  positionals: [{ name: "id", description: "job id" }],
  run: (context, args) => context.fk.jobs.cancel(jobId(args, "jobs cancel")).map((job): Output => ({ json: jobRecord(job), text: [jobLine(job)] })),
};

/** The jobs commands. */
export const jobsCommands: readonly Command[] = [jobsList, jobsShow, jobsCancel];
