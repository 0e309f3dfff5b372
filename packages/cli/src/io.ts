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

const guarded = new WeakSet<NodeJS.WriteStream>();

/**
 * Ends the process quietly (exit 0) when the reader of `stream` has gone (`forgekit openapi | head`:
 * EPIPE): there is no one left to tell, so no stack trace. Other write errors still throw.
 */
function exitOnBrokenPipe(stream: NodeJS.WriteStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
}

/** The real process streams and environment; a closed stdout or stderr ends the process quietly. */
export function processIo(): CliIo {
  exitOnBrokenPipe(process.stdout);
  exitOnBrokenPipe(process.stderr);
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
