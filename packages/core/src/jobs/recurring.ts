/**
 * Recurring jobs (event retention, OAuth cleanup): each is one job row under the unique key
 * `recurring:<kind>`, so however many processes start workers, one occurrence is queued at a time.
 * Starting workers seeds the occurrence when none is unfinished; finishing one queues the next,
 * `everyMs` later, in the same transaction.
 */
import type { JobRecord, JobRepository, NewJobRecord } from "../ports/jobs-store.js";
import type { Clock, Logger } from "../ports/runtime.js";
import type { JobRegistry } from "./registry.js";

/** A kind run every `everyMs`. */
export interface RecurringJob {
  kind: string;
  everyMs: number;
}

/** The unique key of a recurring kind's occurrence. */
export const recurringKey = (kind: string): string => `recurring:${kind}`;

interface Deps {
  jobs: JobRepository;
  clock: Clock;
  logger: Logger;
  registry: JobRegistry;
}

async function enqueueOccurrence(deps: Deps, recurring: RecurringJob, runAfter: Date): Promise<JobRecord | null> {
  const kind = deps.registry.get(recurring.kind);
  if (kind === undefined) return null;
  return deps.jobs.enqueue({ kind: recurring.kind, payload: "{}", maxAttempts: kind.maxAttempts, runAfter, uniqueKey: recurringKey(recurring.kind) }, deps.clock.now());
}

/** Queues each recurring kind's first occurrence (due now) unless one is already unfinished. */
export async function seedRecurring(deps: Deps, recurring: readonly RecurringJob[]): Promise<void> {
  for (const entry of recurring) {
    const created = await enqueueOccurrence(deps, entry, deps.clock.now());
    if (created !== null) deps.logger.log("info", "jobs.recurring_scheduled", { kind: entry.kind, jobId: created.id, runAfter: created.runAfter.toISOString() });
  }
}

/**
 * The next occurrence to enqueue when `finished` ends (succeeded or failed for good), `everyMs`
 * after now; undefined for a job that is not a recurring occurrence. The port enqueues it in the
 * same transaction that ends `finished`, handing the unique key over without a gap.
 */
export function nextOccurrence(deps: Deps, recurring: readonly RecurringJob[], finished: JobRecord): NewJobRecord | undefined {
  const entry = recurring.find((r) => r.kind === finished.kind);
  const kind = deps.registry.get(finished.kind);
  if (entry === undefined || kind === undefined || finished.uniqueKey !== recurringKey(entry.kind)) return undefined;
  return { kind: entry.kind, payload: "{}", maxAttempts: kind.maxAttempts, runAfter: new Date(deps.clock.now().getTime() + entry.everyMs), uniqueKey: recurringKey(entry.kind) };
}
