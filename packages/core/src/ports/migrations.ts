/** What a store's `migrate` reports: the migrations applied, and progress as each runs. */

/** What `Store.migrate` applied. */
export interface MigrationReport {
  /** Names of the migrations applied by this call, in order; empty when none was pending. */
  applied: string[];
}

/** One migration of a `Store.migrate` call starting (`phase: "started"`) or done (`"finished"`). */
export interface MigrationProgress {
  /** The migration's name, e.g. `0003_events`. */
  name: string;
  /** Its position among the migrations this call applies, from 1. */
  index: number;
  /** How many migrations this call applies. */
  total: number;
  /** Whether the migration is starting or has finished. */
  phase: "started" | "finished";
  /** Milliseconds this migration took (0 when it starts). */
  elapsedMs: number;
  /** Milliseconds since the call began. */
  totalElapsedMs: number;
}

/** Options of `Store.migrate`. */
export interface MigrateOptions {
  /**
   * Called as each pending migration starts and finishes, in order (nothing when the schema is up
   * to date). A throwing callback does not stop the migration.
   */
  onProgress?: (progress: MigrationProgress) => void;
}
