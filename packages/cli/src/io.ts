/** What the CLI talks to: output streams, environment and working directory (injected for tests). */
export interface CliIo {
  /** Writes one chunk of normal output (already newline-terminated). */
  stdout(text: string): void;
  /** Writes one chunk of diagnostics (already newline-terminated). */
  stderr(text: string): void;
  /** Environment variables (`DATABASE_URL`, `FORGEKIT_BASE_URL`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative SQLite paths are resolved against. */
  cwd: string;
  /** Whether stdout is a terminal (progress bars are drawn only there). */
  isTTY?: boolean;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
  };
}

/** Exit codes: 0 success, 1 the operation failed (validation, not found, …), 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
