/**
 * A Vitest setup file (every project of vitest.workspace.ts): per test file, the CPU it cost — this
 * worker's own (user + system) and that of the child processes it waited for (git, tsx, python, …,
 * from /proc's cutime/cstime) — appended as one JSON line to test-results/file-costs.jsonl.
 * tools/test-costs/summary.mjs joins it with the report's wall times (issue #23: find the slowest files).
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "test-results", "file-costs.jsonl");
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

function childrenMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command name: field 3 is index 0; cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return 0;
  }
}

// Read when Vitest evaluates this setup file, before the test file itself is imported, so the
// costs include importing (and transforming) the file and what it loads.
const started = performance.now();
const cpu = process.cpuUsage();
const children = childrenMs();
let file = "";

// Vitest hands a hook its fixtures first (which must be destructured), then the suite: here, the file.
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, suite) => {
  const task = suite as { filepath?: string; file?: { filepath?: string } };
  file = relative(root, task.filepath ?? task.file?.filepath ?? "");
});

afterAll(() => {
  const used = process.cpuUsage(cpu);
  const line = {
    file,
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round((used.user + used.system) / 1000),
    childrenCpuMs: childrenMs() - children,
  };
  try {
    mkdirSync(dirname(out), { recursive: true });
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  } catch {
    // Recording costs never fails a test file.
  }
});
