/**
 * `forgekit worker`: runs background-job workers on the configured database in this process, until
 * SIGINT or SIGTERM (or, with `--drain`, until nothing is due). It prints each job it runs. Stopping
 * is graceful: running jobs finish, or are released back to the queue at their next step, so
 * another worker takes them over. Several `forgekit worker` processes (and hosts running
 * `fk.workers`) may share one PostgreSQL or MySQL database: each job runs once.
 */
import type { AttemptOutcome, Forgekit, ForgekitError, JobRecord } from "@forgekit/core";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { CommandArgs } from "../command.js";
import type { CliIo } from "../io.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { positiveInt } from "../values.js";
import type { Command } from "./context.js";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

interface WorkerSettings {
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  kinds: string[] | undefined;
  recurring: boolean;
  drain: boolean;
  stopTimeoutMs: number;
}

function settings(args: CommandArgs): WorkerSettings {
  const concurrency = positiveInt("--concurrency", args.string("concurrency") ?? "1");
  if (concurrency > 100) throw new UsageError(`--concurrency must be at most 100, got ${concurrency}`, "worker");
  const kinds = args.list("kind");
  return {
    concurrency,
    pollIntervalMs: positiveInt("--poll-interval", args.string("poll-interval") ?? "1000"),
    leaseMs: positiveInt("--lease", args.string("lease") ?? "60000"),
    kinds: kinds.length === 0 ? undefined : kinds,
    recurring: !args.flag("no-recurring"),
    drain: args.flag("drain"),
    stopTimeoutMs: positiveInt("--stop-timeout", args.string("stop-timeout") ?? "30000"),
  };
}

/** One printed line per attempt: what ran and how it ended. */
function attemptLine(job: JobRecord, outcome: AttemptOutcome): string {
  const what = `job ${job.id} ${job.kind} (attempt ${job.attempts} of ${job.maxAttempts})`;
  switch (outcome) {
    case "succeeded":
      return `${what} succeeded`;
    case "retry":
      return `${what} failed, will retry`;
    case "failed":
      return `${what} failed for good`;
    case "cancelled":
      return `${what} cancelled`;
    case "released":
      return `${what} released (worker stopping)`;
    case "lost":
      return `${what} lost its lease (another worker took it over)`;
  }
}

const worker: Command = {
  name: "worker",
  summary: "run background-job workers on the database until SIGINT / SIGTERM (graceful stop)",
  options: {
    concurrency: { type: "string", placeholder: "<n>", description: "jobs run at once, 1-100 (default 1)" },
    "poll-interval": { type: "string", placeholder: "<ms>", description: "pause between polls when nothing is due (default 1000)" },
    lease: { type: "string", placeholder: "<ms>", description: "how long a claim holds a job before another worker may take it over (default 60000)" },
    kind: { type: "string", placeholder: "<kind>", multiple: true, description: "run only this kind (repeatable; default every kind)" },
    "no-recurring": { type: "boolean", description: "do not schedule the recurring maintenance jobs (events.prune, oauth.purge_expired)" },
    drain: { type: "boolean", description: "stop once nothing is due and nothing runs, instead of waiting for more" },
    "stop-timeout": { type: "string", placeholder: "<ms>", description: "on a signal, longest wait for running jobs before returning them to the queue (default 30000)" },
  },
  notes: [
    "Prints one line per job attempt. Ctrl-C (SIGINT) or SIGTERM stops gracefully: running jobs finish or return to the queue.",
    "Run several on one PostgreSQL or MySQL database to share the work: each job runs once.",
    "With FORGEKIT_REDIS_URL set (and @forgekit/jobs-bullmq installed), jobs run on BullMQ in that Redis instead (key prefix FORGEKIT_REDIS_PREFIX, default forgekit); `forgekit jobs` reads them there too.",
  ],
  run: (context, args) => {
    const chosen = settings(args);
    return new ResultAsync(runWorkers(context.fk, chosen, context.io, context.json === true));
  },
};

/** Starts the workers, prints their attempts, stops on a signal (or when drained); the summary. */
async function runWorkers(fk: Forgekit, chosen: WorkerSettings, io: CliIo | undefined, json: boolean): Promise<Result<Output, ForgekitError>> {
  // With --json stdout holds the final summary only (one JSON document); progress goes to stderr as
  // one JSON object per line.
  const print = (line: string, record: Record<string, unknown>) => (json ? io?.stderr(`${JSON.stringify(record)}\n`) : io?.stdout(`${line}\n`));
  const counts: Record<AttemptOutcome, number> = { succeeded: 0, retry: 0, failed: 0, cancelled: 0, released: 0, lost: 0 };
  let stopRequested: (reason: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => (stopRequested = resolve));
  const onSignal = (signal: string) => () => stopRequested(signal);
  const handlers = SIGNALS.map((signal) => [signal, onSignal(signal)] as const);
  for (const [signal, handler] of handlers) process.once(signal, handler);
  try {
    const started = fk.workers.start({
      concurrency: chosen.concurrency,
      pollIntervalMs: chosen.pollIntervalMs,
      leaseMs: chosen.leaseMs,
      ...(chosen.kinds === undefined ? {} : { kinds: chosen.kinds }),
      ...(chosen.recurring ? {} : { recurring: false as const }),
      onAttempt: (job, outcome) => {
        counts[outcome] += 1;
        print(attemptLine(job, outcome), { event: "attempt", job_id: job.id, kind: job.kind, attempt: job.attempts, max_attempts: job.maxAttempts, outcome });
      },
      ...(chosen.drain ? { onIdle: () => stopRequested("drained") } : {}),
    });
    // Bad option values were refused while parsing; what is left is an unknown --kind.
    if (started.isErr()) return err(started.error);
    print(`worker ${fk.workers.owner} started: concurrency ${chosen.concurrency}, polling every ${chosen.pollIntervalMs} ms${chosen.drain ? ", until nothing is due" : "; SIGINT / SIGTERM stops"}`, {
      event: "started",
      owner: fk.workers.owner,
      concurrency: chosen.concurrency,
    });
    const reason = await stopped;
    print(reason === "drained" ? "nothing is due: stopping" : `${reason}: stopping (running jobs finish or return to the queue)`, { event: "stopping", reason });
    await fk.workers.stop({ timeoutMs: chosen.stopTimeoutMs });
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
  const ran = Object.values(counts).reduce((a, b) => a + b, 0);
  return ok({
    json: { event: "stopped", owner: fk.workers.owner, attempts: ran, outcomes: counts },
    text: [`worker stopped after ${ran} attempt${ran === 1 ? "" : "s"}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ")}`],
  });
}

/** The worker command. */
export const workerCommands: readonly Command[] = [worker];
