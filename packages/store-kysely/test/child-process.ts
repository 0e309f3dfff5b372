/**
 * Test helper: runs a TypeScript file of this folder as a separate Node process (through tsx, on
 * the workspace sources like the tests themselves) and reads what it prints line by line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** A running child: wait for a line it prints, write to its stdin, wait for it to exit. */
export interface Child {
  /** Resolves with the first line (from now or already printed) that `match` accepts. */
  line(match: (line: string) => boolean): Promise<string>;
  send(line: string): void;
  /** Resolves when the child exits with code 0; rejects with its stderr otherwise. */
  exited: Promise<void>;
  /** Sends `signal` (default SIGTERM); SIGKILL is a crash: the child runs no more code. */
  kill(signal?: NodeJS.Signals): void;
}

/** Starts `node --conditions=@forgekit/source --import tsx <script> ...args` in this folder. */
export function startChild(script: string, args: readonly string[]): Child {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--conditions=@forgekit/source", "--import", "tsx", join(here, script), ...args], {
    cwd: here,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const seen: string[] = [];
  const waiting: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let pending = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    for (let at = pending.indexOf("\n"); at >= 0; at = pending.indexOf("\n")) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      seen.push(line);
      for (const waiter of waiting.filter((w) => w.match(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve, reject) => {
    child.on("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code ?? signal}: ${stderr}`))));
  });
  // A waiter must not hang when the child dies first: fail it with the child's error.
  const died = exited.then(() => Promise.reject(new Error(`${script} exited before printing the expected line: ${stderr}`)));
  died.catch(() => undefined);
  return {
    line(match) {
      const found = seen.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return Promise.race([new Promise<string>((resolve) => waiting.push({ match, resolve })), died]);
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    exited,
    kill(signal) {
      child.kill(signal);
    },
  };
}
