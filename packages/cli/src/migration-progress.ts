/**
 * `forgekit migrate`'s progress: each migration of a big database as it starts and finishes, with
 * its position and time — a redrawn bar on a terminal, one plain line per step otherwise, JSON
 * lines on stderr with `--json` (progress.ts).
 */
import type { MigrationProgress } from "@forgekit/core";
import type { CliIo } from "./io.js";
import { statusLine } from "./progress.js";

/** `1.2 s` for 1200 ms, `35 ms` below a second. */
export const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The status text of one step, e.g. `migration 3/16 0003_events done in 35 ms`. */
export function migrationStatus(progress: MigrationProgress): string {
  const position = `migration ${progress.index}/${progress.total} ${progress.name}`;
  return progress.phase === "started" ? `${position} …` : `${position} done in ${duration(progress.elapsedMs)}`;
}

/** What `forgekit migrate` hands `fk.migrate({ onProgress })`, and the call that ends the display. */
export interface MigrationDisplay {
  /** Shows one step. */
  onProgress: (progress: MigrationProgress) => void;
  /** Ends the status line (before the command's own output). */
  end: () => void;
}

/** The display of migration steps on `io` (every step is printed: migrations are few and each may be long). */
export function migrationDisplay(io: CliIo | undefined, json: boolean): MigrationDisplay {
  const line = statusLine(io, { json, intervalMs: 0 });
  return {
    onProgress: (progress) =>
      line.update(migrationStatus(progress), (progress.phase === "finished" ? progress.index : progress.index - 1) / progress.total, {
        migration: progress.name,
        index: progress.index,
        total: progress.total,
        phase: progress.phase,
        elapsed_ms: Math.round(progress.elapsedMs),
      }),
    end: () => line.end(),
  };
}
