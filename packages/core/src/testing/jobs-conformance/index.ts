/**
 * The jobs conformance suite (DESIGN §6, §8): the rules of the jobs port (ports/jobs-store.ts) and
 * of the worker pool over it, as vitest tests any implementation runs — the memory store, every SQL
 * dialect, and later a queue on another engine. Call it at the top level of a `*.test.ts` file.
 */
import { afterEach, beforeEach, describe } from "vitest";
import type { JobRepository } from "../../ports/jobs-store.js";
import { REAL_SLACK_MS, sleep, type JobsConformanceOptions, type JobsSuiteContext, type JobsTarget } from "./context.js";
import { deadWorkerTests } from "./dead-workers.js";
import { lifecycleTests } from "./lifecycle.js";
import { portTests } from "./port.js";
import { raceTests } from "./races.js";
import { workerTests } from "./workers.js";

export type { JobsConformanceOptions, JobsTarget } from "./context.js";

/**
 * Registers the suite under `describe(name)`. `open` is called before every test and must return a
 * migrated store with no jobs, and a rival store on the same database (the memory store passes
 * itself); the suite closes both after the test. A target whose jobs live elsewhere passes them as
 * `jobs` (and `close`). Cases that move time run against a `clock: "real"` repository too: they
 * wait real time past short leases and due times instead of moving the injected clock.
 */
export function runJobsConformance(name: string, open: () => Promise<JobsTarget>, options: JobsConformanceOptions = {}): void {
  // Limits past every `until` wait (60 s): a loaded machine makes a case slower, never failed.
  describe(name, { timeout: 180_000 }, () => {
    let current: JobsTarget | null = null;
    const target = (): JobsTarget => {
      if (current === null) throw new Error("the jobs target is only available while a conformance test runs");
      return current;
    };
    const ctx: JobsSuiteContext = {
      name,
      get target() {
        return target();
      },
      get jobs(): JobRepository {
        return target().jobs?.store ?? target().store.jobs;
      },
      get rivalJobs(): JobRepository {
        return target().jobs?.rival ?? target().rival.jobs;
      },
      options,
      get real() {
        return ctx.jobs.clock === "real";
      },
      async pass(ms) {
        if (ctx.real) await sleep(ms + REAL_SLACK_MS);
      },
    };
    beforeEach(async () => {
      current = await open();
    });
    afterEach(async () => {
      const opened = current;
      current = null;
      if (opened === null) return;
      await opened.store.close();
      if (opened.rival !== opened.store) await opened.rival.close();
      await opened.close?.();
    });
    portTests(ctx);
    workerTests(ctx);
    deadWorkerTests(ctx);
    lifecycleTests(ctx);
    raceTests(ctx);
  });
}
