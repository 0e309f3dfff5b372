/**
 * The jobs conformance suite (DESIGN §6, §8): the rules of the jobs port (ports/jobs-store.ts) and
 * of the worker pool over it, as vitest tests any implementation runs — the memory store, every SQL
 * dialect, and later a queue on another engine. Call it at the top level of a `*.test.ts` file.
 */
import { afterEach, beforeEach, describe } from "vitest";
import type { JobRepository } from "../../ports/jobs-store.js";
import type { JobsConformanceOptions, JobsSuiteContext, JobsTarget } from "./context.js";
import { lifecycleTests } from "./lifecycle.js";
import { portTests } from "./port.js";
import { raceTests } from "./races.js";
import { workerTests } from "./workers.js";

export type { JobsConformanceOptions, JobsTarget } from "./context.js";

/**
 * Registers the suite under `describe(name)`. `open` is called before every test and must return a
 * migrated store with no jobs, and a rival store on the same database (the memory store passes
 * itself); the suite closes both after the test.
 */
export function runJobsConformance(name: string, open: () => Promise<JobsTarget>, options: JobsConformanceOptions = {}): void {
  describe(name, () => {
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
        return target().store.jobs;
      },
      options,
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
    });
    portTests(ctx);
    workerTests(ctx);
    lifecycleTests(ctx);
    raceTests(ctx);
  });
}
