/**
 * Event retention (spec "Limits": 3 years; "Events" rule 3): a maintenance task removing events
 * created before the cutoff in bounded batches, each its own short statement, so a large backlog
 * never holds long locks. Call it from a scheduler (cron, a timer, the job runner once it exists).
 */
import { errors, type ForgekitError, type ValidationMessages } from "../errors.js";
import type { Clock } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import { EVENT_RETENTION_YEARS } from "./types.js";

/** Options of `fk.events.prune`. */
export interface PruneOptions {
  /** Events deleted per statement, 1…10,000 (default 1,000). */
  batchSize?: number;
  /** Stop after this many batches even if older events remain (default: until none remain). */
  maxBatches?: number;
  /** Called after every batch with the totals so far (a CLI shows progress with it). */
  onBatch?: (progress: { deleted: number; batches: number }) => void;
}

/** What one run removed. */
export interface PruneResult {
  /** Events created strictly before this instant were removed. */
  cutoff: Date;
  deleted: number;
  batches: number;
  /** False when `maxBatches` stopped the run before every expired event was gone. */
  complete: boolean;
}

/** `now` minus three calendar years (UTC); 29 February rolls over to 1 March. */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - EVENT_RETENTION_YEARS);
  return cutoff;
}

/** Checks the options: a validation error naming each bad one, or null. */
export function checkPruneOptions(options: PruneOptions): ForgekitError | null {
  const { batchSize, maxBatches } = options;
  const messages: ValidationMessages = {};
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)) messages["batch_size"] = ["must be an integer from 1 to 10000"];
  if (maxBatches !== undefined && (!Number.isInteger(maxBatches) || maxBatches < 1)) messages["max_batches"] = ["must be a positive integer"];
  return Object.keys(messages).length === 0 ? null : errors.validation(messages);
}

/** Deletes expired events batch by batch until a batch comes back short (or `maxBatches` is reached). */
export async function pruneEvents(store: Store, clock: Clock, options: PruneOptions = {}): Promise<PruneResult> {
  const cutoff = retentionCutoff(clock.now());
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  let deleted = 0;
  let batches = 0;
  for (;;) {
    if (batches >= maxBatches) return { cutoff, deleted, batches, complete: false };
    const removed = await store.activity.events.deleteCreatedBefore(cutoff, batchSize);
    batches += 1;
    deleted += removed;
    options.onBatch?.({ deleted, batches });
    if (removed < batchSize) return { cutoff, deleted, batches, complete: true };
  }
}
