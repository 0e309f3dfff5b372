/** A forgekit instance over a store under test, with a clock the test moves and the log it wrote. */
import { createForgekit, type Forgekit } from "../../forgekit.js";
import type { LogLevel } from "../../ports/runtime.js";
import type { JobRepository } from "../../ports/jobs-store.js";
import { fixedClock, type FixedClock } from "../fixtures.js";
import { REAL_SLACK_MS, sleep, T0, type JobsSuiteContext } from "./context.js";

export interface JobsInstance {
  fk: Forgekit;
  clock: FixedClock;
  /** The jobs repository the instance runs on. */
  jobs: JobRepository;
  logs: { level: LogLevel; event: string; fields?: Record<string, unknown> }[];
}

/**
 * An instance on the target's store (or, with `"rival"`, on the rival one, as a second process)
 * whose clock stands at T0 until the test moves it.
 */
export function instance(ctx: JobsSuiteContext, side: "store" | "rival" = "store", clock: FixedClock = fixedClock(T0)): JobsInstance {
  const logs: JobsInstance["logs"] = [];
  const store = side === "store" ? ctx.target.store : ctx.target.rival;
  const jobs = side === "store" ? ctx.jobs : ctx.rivalJobs;
  const fk = createForgekit({
    baseUrl: "https://forge.example.com",
    store,
    ...(ctx.target.jobs === undefined ? {} : { jobs }),
    clock,
    logger: { log: (level, event, fields) => void logs.push(fields === undefined ? { level, event } : { level, event, fields }) },
  });
  return { fk, clock, jobs, logs };
}

/** Moves the instance's clock by `ms`; on a `"real"` target also lets `ms` (and a margin) pass in real time. */
export async function elapse(ctx: JobsSuiteContext, t: JobsInstance, ms: number): Promise<void> {
  t.clock.advance(ms);
  if (ctx.real) await sleep(ms + REAL_SLACK_MS);
}

/** Worker options for tests: quick polls, no recurring maintenance jobs. */
export const FAST = { pollIntervalMs: 5, recurring: false } as const;

/** The job's state now. */
export async function stateOf(t: JobsInstance, id: number): Promise<string> {
  return (await t.fk.jobs.find(id))._unsafeUnwrap().state;
}
