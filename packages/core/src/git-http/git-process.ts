/**
 * Runs `git upload-pack` / `git receive-pack --stateless-rpc` for one HTTP request: the request
 * body streams into its stdin, its stdout streams out as the response body (never buffered whole).
 * The response starts only once git has printed something (or exited), so a git that fails at once
 * is a 500, not a truncated 200. A client that goes away stops git (SIGTERM, so receive-pack
 * removes its quarantine; SIGKILL if it is still there after a grace period).
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { PassThrough, pipeline, type Duplex, type Readable } from "node:stream";
import type { Logger } from "../ports/runtime.js";
import { CHECK_RECEIVED_OBJECTS, gitEnvironment } from "../repositories/git-command.js";

/** How long a stopped git may take to clean up before it is killed. */
const KILL_GRACE_MS = 5_000;
/** Default for {@link GitServiceRun.idleTimeoutMs}. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;
/** stderr kept for the log line of a failed git. */
const MAX_STDERR_BYTES = 16 * 1024;

/** Options of {@link runGitService}. */
export interface GitServiceRun {
  binary: string;
  service: "upload-pack" | "receive-pack";
  /** The bare repository. */
  directory: string;
  /** info/refs: `--advertise-refs` (no stdin). */
  advertise: boolean;
  /** The client's `Git-Protocol` header (`version=2`), already checked. */
  protocol?: string;
  /** The (decoded) request body for POSTs. */
  stdin?: Readable;
  /** Written before git's output (the info/refs `# service=` preamble). */
  preamble?: Buffer;
  signal?: AbortSignal;
  /**
   * Longest git and the client may go without moving a byte either way before git is stopped (a
   * client that stalls would otherwise hold a git process as long as its connection lives). Git
   * sends keep-alives and progress while it works, so a busy transfer is never idle. Default 5 min.
   */
  idleTimeoutMs?: number;
  logger: Logger;
  /**
   * Runs after git exited 0 and before the response ends (receive-pack: push events), so that a
   * client whose push returned sees them. Its failure is logged; the response still ends.
   */
  after?: () => Promise<void>;
  /**
   * receive-pack: run git's hooks from `hooksPath` and hand `onChannel` the socket the hooks reach
   * on their fd 3 (./ref-guard.ts).
   */
  guard?: { hooksPath: string; onChannel: (channel: Duplex) => void };
}

/**
 * What {@link runGitService} resolves: git's output as a stream, or the failure before any output;
 * `clientError` when the request was at fault (a body that could not be read or decoded, or one git
 * refused as not its protocol), so the answer is a 400, not a 500.
 */
export type GitServiceStart = { ok: true; body: Readable } | { ok: false; reason: string; clientError: boolean };

/**
 * What git prints when the request body is not a request of its protocol (bad pkt-line lengths,
 * unexpected lines, a body that ends early or is empty). Its messages quote the client's bytes,
 * so they are matched here and never logged.
 */
const PROTOCOL_ERROR = /^fatal: (?:.*protocol error|the remote end hung up unexpectedly|expected flush|git upload-pack: not our ref|bad pack header|unknown capability)/m;

/** Starts git; resolves once it printed its first bytes or exited. Never rejects. */
export function runGitService(run: GitServiceRun): Promise<GitServiceStart> {
  return new Promise((resolve) => {
    // Pushed objects are checked (fsck) before receive-pack keeps them or moves a ref; protected refs by the guard's hook.
    const checks = run.service === "receive-pack" ? CHECK_RECEIVED_OBJECTS : [];
    const hooks = run.guard === undefined ? [] : ["-c", `core.hooksPath=${run.guard.hooksPath}`];
    const args = [...checks, ...hooks, run.service, "--stateless-rpc", ...(run.advertise ? ["--advertise-refs"] : []), run.directory];
    const env = gitEnvironment(tmpdir());
    if (run.protocol !== undefined) env["GIT_PROTOCOL"] = run.protocol;
    const child = spawn(run.binary, args, { env, stdio: run.guard === undefined ? ["pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe", "pipe"], shell: false });
    const channel = child.stdio[3];
    if (run.guard !== undefined && channel !== undefined && channel !== null) run.guard.onChannel(channel as Duplex);
    let stderr = "";
    let started = false;
    let exited = false;
    // An error of the request body itself (the client's stream, gzip decoding), even one raised before git started.
    let bodyError: Error | undefined = run.stdin?.errored ?? undefined;
    run.stdin?.on("error", (error) => {
      bodyError ??= error;
    });
    let bodySettled: Promise<void> = Promise.resolve();
    const out = new PassThrough();

    const stop = () => {
      if (exited) return;
      child.kill("SIGTERM");
      setTimeout(() => {
        if (!exited) child.kill("SIGKILL");
      }, KILL_GRACE_MS).unref();
    };
    const onAbort = () => {
      stop();
      out.destroy();
    };
    run.signal?.addEventListener("abort", onAbort, { once: true });
    if (run.signal?.aborted === true) onAbort();
    const idleMs = run.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      if (exited) return;
      idle = setTimeout(() => {
        run.logger.log("warn", "git_http.idle_timeout", { service: run.service, idleMs });
        onAbort();
      }, idleMs);
      idle.unref();
    };
    touch();
    // Observers only: the bytes still go through the pipes.
    child.stdout.on("data", touch);
    run.stdin?.on("data", touch);

    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString("utf8").slice(0, MAX_STDERR_BYTES - stderr.length);
    });
    child.stdin.on("error", () => undefined);
    if (run.stdin === undefined) child.stdin.end();
    else {
      // EPIPE when git exits before reading all of it; a broken request body (client gone, bad gzip) stops git.
      const stdin = run.stdin;
      bodySettled = new Promise((settled) => {
        if (bodyError !== undefined) stop();
        pipeline(stdin, child.stdin, (error) => {
          if (error && error.code !== "EPIPE" && !exited) stop();
          settled();
        });
      });
    }
    const begin = (first?: Buffer) => {
      started = true;
      if (run.preamble !== undefined) out.write(run.preamble);
      if (first !== undefined) out.write(first);
      child.stdout.pipe(out, { end: false });
      resolve({ ok: true, body: out });
    };
    child.stdout.once("data", (first: Buffer) => {
      child.stdout.pause();
      begin(first);
    });
    /** Logs git's failure; true when the request was at fault (then without git's words, which quote the client's bytes). */
    const logFailure = (code: number | null, signal: NodeJS.Signals | null): boolean => {
      const aborted = run.signal?.aborted === true;
      const level = aborted ? "info" : "warn";
      if (aborted || bodyError !== undefined || (!run.advertise && PROTOCOL_ERROR.test(stderr))) {
        const reason = aborted ? "the client went away" : bodyError === undefined ? "not git's protocol" : `the request body could not be read: ${bodyError.message.slice(0, 200)}`;
        run.logger.log(level, "git_http.bad_request", { service: run.service, code, signal, reason });
        return true;
      }
      run.logger.log(level, "git_http.git_failed", { service: run.service, code, signal, stderr: stderr.trim() });
      return false;
    };
    child.on("error", (error) => {
      exited = true;
      clearTimeout(idle);
      run.signal?.removeEventListener("abort", onAbort);
      run.logger.log("error", "git_http.spawn_failed", { service: run.service, message: error.message });
      if (started) out.destroy(error);
      else resolve({ ok: false, reason: `could not run ${run.binary}: ${error.message}`, clientError: false });
    });
    child.on("close", (code, signal) => {
      if (exited) return;
      exited = true;
      clearTimeout(idle);
      run.signal?.removeEventListener("abort", onAbort);
      if (code !== 0) {
        const reason = `git ${run.service} exited with ${code ?? signal ?? "?"}`;
        if (started) {
          logFailure(code, signal);
          out.destroy(new Error(reason));
          return;
        }
        // Git has gone: its stdin ends the body's pipeline, which then says whether the body failed.
        child.stdin.destroy();
        void bodySettled.then(() => resolve({ ok: false, reason, clientError: logFailure(code, signal) }));
        return;
      }
      if (!started) begin();
      const finish = () => out.end();
      if (run.after === undefined) finish();
      else
        run.after().then(finish, (error: unknown) => {
          run.logger.log("error", "git_http.after_push_failed", { message: error instanceof Error ? error.message : String(error) });
          finish();
        });
    });
  });
}
