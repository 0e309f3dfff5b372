/**
 * The order test files start in (vitest's `sequence.sequencer`): the longest first, by the wall
 * seconds each took in a whole run (expected.json, refreshed by `node tools/test-costs/refresh.mjs`).
 * Vitest's own order groups files by project name and, with no cache (a fresh clone, CI), puts the
 * largest files first: the HTTP-suite files on PostgreSQL and MySQL are three lines each, so they
 * started last, 450–650 s into a 1,245 s run, and the run ended on one of them (issue #23).
 * Longest first is the classic bound for filling a fixed number of workers. A file missing from the
 * table (a new one) starts before the known ones, as vitest starts files it has no record of; a
 * stale table only costs time, never a result.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const table = JSON.parse(readFileSync(new URL("./expected.json", import.meta.url), "utf8")) as { files: Record<string, number> };

export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (spec: TestSpecification) => table.files[relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return Promise.resolve(
      files
        .map((spec, index) => ({ spec, index, seconds: expected(spec) }))
        .sort((a, b) => (a.seconds === b.seconds ? a.index - b.index : b.seconds - a.seconds))
        .map(({ spec }) => spec),
    );
  }
}
