/**
 * Workers for jobs kept apart from the store (`createForgekit({ jobs })`, e.g. BullMQ on Redis) that
 * also drain the store's own jobs table. Work that must be queued in the same transaction as the
 * change causing it (a webhook delivery, an automatic merge, a repository removal) is written to the
 * store's table, the only queue that can join that transaction: this table is then an outbox, and a
 * pool that read only the apart repository would never run those jobs.
 */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../errors.js";
import type { StopOptions, WorkerOptions, Workers } from "./workers.js";

/**
 * One `fk.workers` over two pools: `main` (the apart repository, which also schedules the recurring
 * jobs) and `outbox` (the store's table, no recurring jobs). `onIdle` fires when both are idle.
 */
export function withOutboxWorkers(main: Workers, outbox: Workers): Workers {
  return {
    start(options: WorkerOptions = {}): Result<void, ForgekitError> {
      const idle = { main: false, outbox: false };
      const onIdle = options.onIdle;
      const idleOf = (pool: keyof typeof idle) =>
        onIdle === undefined
          ? undefined
          : () => {
              idle[pool] = true;
              if (idle.main && idle.outbox) onIdle();
            };
      const onAttempt: WorkerOptions["onAttempt"] = (job, outcome) => {
        idle.main = false;
        idle.outbox = false;
        options.onAttempt?.(job, outcome);
      };
      const started = main.start({ ...options, onAttempt, ...withIdle(idleOf("main")) });
      if (started.isErr()) return started;
      const drained = outbox.start({ ...options, recurring: false, onAttempt, ...withIdle(idleOf("outbox")) });
      if (drained.isErr()) {
        void main.stop();
        return err(drained.error);
      }
      return ok(undefined);
    },
    async stop(options?: StopOptions): Promise<void> {
      await Promise.all([main.stop(options), outbox.stop(options)]);
    },
    get running() {
      return main.running;
    },
    get owner() {
      return main.owner;
    },
  };
}

const withIdle = (onIdle: (() => void) | undefined): Pick<WorkerOptions, "onIdle"> => (onIdle === undefined ? {} : { onIdle });
