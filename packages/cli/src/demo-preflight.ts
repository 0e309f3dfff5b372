/**
 * What the demo host checks before it touches the database, so a start that cannot succeed says
 * why in one line without leaving a migrated database behind: git is installed (the demo keeps its
 * repositories with it), and the port is free. Also where it listens, as the banner says it.
 */
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** The interface the demo listens on unless told otherwise: this machine only. */
export const DEFAULT_DEMO_HOST = "127.0.0.1";

/** A start-up failure the demo host reports as is: the cause, then `hint: …` on its own line (a DemoStartError). */
export class PreflightError extends Error {
  constructor(
    cause: string,
    readonly hint: string | undefined,
  ) {
    super(hint === undefined ? cause : `${cause}\nhint: ${hint}`);
    this.name = "DemoStartError";
  }
}

/** Resolves when `git --version` runs; rejects with a one-line PreflightError when git cannot be started. */
export function checkGit(binary = "git"): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(binary, ["--version"], (error) => {
      if (error === null) return resolve();
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? `${binary} was not found on PATH (spawn ${binary} ENOENT)` : `${binary} --version failed (${error.message.split("\n")[0] ?? ""})`;
      reject(new PreflightError(`${why}: the demo keeps its repositories with git; install git and start again`, undefined));
    });
  });
}

/**
 * Binds `port` on `host` for a moment and releases it: resolves to the port (the OS's pick for 0),
 * or rejects with a PreflightError whose hint is `PORT=0` when the port is in use.
 */
export function reservePort(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        reject(new PreflightError(`port ${port} on ${host} is already in use`, "stop what listens there, or set PORT to a free port (PORT=0 picks one)"));
      } else if (error.code === "EACCES") {
        reject(new PreflightError(`port ${port} on ${host} needs privileges this process does not have`, "use a port above 1023 (PORT=0 picks a free one)"));
      } else {
        reject(error);
      }
    });
    probe.listen({ port, host }, () => {
      const bound = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(bound));
    });
  });
}

/** The banner's line about who can connect. */
export function listenLine(host: string): string {
  return ["127.0.0.1", "::1", "localhost"].includes(host)
    ? `Listening on ${host} only: other machines cannot connect (HOST=0.0.0.0 opens it to the network).`
    : `Listening on ${host}: other machines can connect, and the demo passwords and tokens below are public.`;
}
