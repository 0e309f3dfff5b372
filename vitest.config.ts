import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./tools/test-costs/sequencer.js";
import projects from "./vitest.workspace.js";

/**
 * Test files run side by side in this many worker processes: FORGEKIT_TEST_WORKERS, or one more than
 * the CPU count. Vitest's own default (CPUs − 1) runs one file at a time on a 2-core machine, yet
 * much of the suite waits on PostgreSQL, MariaDB and git rather than on this process's CPU.
 */
const workers = Number(process.env["FORGEKIT_TEST_WORKERS"] ?? "") || availableParallelism() + 1;

export default defineConfig({
  test: {
    projects,
    reporters: ["default"],
    maxWorkers: workers,
    // The longest files start first (tools/test-costs/sequencer.ts). The seed orders the shuffled
    // HTTP suites (describeHttpSuite); FORGEKIT_TEST_SEED tries another order.
    sequence: { sequencer: LongestFirstSequencer, seed: Number(process.env["FORGEKIT_TEST_SEED"] ?? "") || 23 },
  },
});
