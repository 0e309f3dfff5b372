/**
 * `forgekit migrate` shows each migration as it runs (issue 13 "long-running CLI work shows
 * progress"): a redrawn bar on a terminal, one plain line per step otherwise, JSON lines on stderr
 * with `--json` — and nothing when the schema is already up to date.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATION_NAMES } from "@forgekit/store-kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "./io.js";
import { duration, migrationStatus } from "./migration-progress.js";
import { progressBar } from "./progress.js";
import { runCli } from "./run-cli.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-cli-migrate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function migrate(isTTY: boolean, ...flags: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: {}, cwd: dir, isTTY };
  const code = await runCli(["--database", join(dir, "forgekit.db"), ...flags, "migrate"], io);
  return { code, stdout, stderr };
}

const total = MIGRATION_NAMES.length;
const first = MIGRATION_NAMES[0]!;
const last = MIGRATION_NAMES[total - 1]!;

describe("forgekit migrate progress", () => {
  it("without a terminal: one plain line as each migration starts and finishes, then the summary", async () => {
    const run = await migrate(false);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(run.stdout).not.toContain("\r");
    expect(lines[0]).toBe(`migration 1/${total} ${first} …`);
    expect(lines[1]).toMatch(new RegExp(`^migration 1/${total} ${first} done in \\d+(\\.\\d)? m?s$`));
    expect(lines[2 * total - 1]).toMatch(new RegExp(`^migration ${total}/${total} ${last} done in `));
    expect(lines.slice(2 * total)).toEqual([`applied ${total} migrations: ${MIGRATION_NAMES.join(", ")}`, "database schema is up to date"]);
  });

  it("on a terminal: one line redrawn in place with a bar, ended before the summary", async () => {
    const run = await migrate(true);
    expect(run.code).toBe(0);
    const [progress, ...rest] = run.stdout.split("\n");
    expect(progress!.startsWith(`\r${progressBar(0)} migration 1/${total} ${first} …\u001b[K`)).toBe(true);
    expect(progress).toContain(`\r${progressBar(1)} migration ${total}/${total} ${last} done in `);
    expect(progress!.split("\r").length - 1).toBe(2 * total);
    expect(rest[0]).toBe(`applied ${total} migrations: ${MIGRATION_NAMES.join(", ")}`);
  });

  it("with --json: JSON lines on stderr per step; stdout keeps the one JSON result", async () => {
    const run = await migrate(true, "--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ migrated: true, applied: MIGRATION_NAMES });
    const steps = run.stderr.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps).toHaveLength(2 * total);
    expect(steps[0]).toMatchObject({ event: "progress", migration: first, index: 1, total, phase: "started", elapsed_ms: 0 });
    expect(steps[2 * total - 1]).toMatchObject({ event: "progress", migration: last, index: total, total, phase: "finished" });
  });

  it("an up-to-date schema shows no progress", async () => {
    expect((await migrate(false)).code).toBe(0);
    const again = await migrate(true);
    expect(again.stdout).toBe("database schema is up to date: nothing to apply\n");
  });
});

describe("migrationStatus", () => {
  it("names the migration and its position, and the time once it finished", () => {
    const base = { name: "0003_events", index: 3, total: 16, totalElapsedMs: 0 };
    expect(migrationStatus({ ...base, phase: "started", elapsedMs: 0 })).toBe("migration 3/16 0003_events …");
    expect(migrationStatus({ ...base, phase: "finished", elapsedMs: 35.4 })).toBe("migration 3/16 0003_events done in 35 ms");
    expect(duration(1250)).toBe("1.3 s");
  });
});
