/**
 * Where git processes are started. Starting a process copies the starting process's page tables:
 * from a server holding a few hundred MB that took 3–4 ms of blocked event loop per git command
 * (measured: 3.6 ms per spawn in a test worker, 1.1 ms from a bare Node process), and the REST
 * routes run thousands of short git commands. So commands are handed to the spawn host: one small
 * Node process per forgekit process, started on first use, that runs each command with
 * {@link runChild} and sends back the outcome. The server's event loop only sends a message.
 *
 * - The host is started with `process.execPath -e <source>` (no file to find, nothing inherited but
 *   what the request says); it exits when this process goes away and kills the commands it runs.
 * - It never keeps this process alive: its channel is referenced only while a command is pending.
 * - If it cannot start (`process.execPath` is not Node, as in a single-file executable) or
 *   `FORGEKIT_GIT_SPAWN_HOST=off`, commands start here, as before. A host that dies fails its
 *   pending commands (`not_started`) and is started again by the next command.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { runChild, type ChildOutcome, type ChildRequest } from "./child-run.js";

/**
 * The host's program: receives `{ id, request }`, answers `{ id, outcome }`. It first runs one
 * command itself and says `{ ready: true }` only if that worked, so a {@link runChild} whose source
 * a build tool changed beyond use (it may wrap functions in its own helpers: `__name` is esbuild's
 * `keepNames`) leaves commands running here instead of failing them.
 */
const HOST_SOURCE = `"use strict";
var __name = (target) => target;
const { spawn } = require("node:child_process");
const runChild = ${runChild.toString()};
const live = new Set();
function run(request, done) {
  try {
    const child = runChild(spawn, request, (outcome) => {
      live.delete(child);
      done(outcome);
    });
    if (child !== null) live.add(child);
  } catch (error) {
    done({ kind: "not_started", message: "the git spawn host failed: " + (error && error.message) });
  }
}
process.on("message", (message) => run(message.request, (outcome) => {
  if (process.connected) process.send({ id: message.id, outcome });
}));
process.on("disconnect", () => {
  for (const child of live) child.kill("SIGKILL");
  process.exit(0);
});
run({ binary: process.execPath, args: ["-e", ""], env: {}, timeoutMs: 30000, maxStdoutBytes: 1024 }, (outcome) => {
  if (outcome.kind === "exited" && outcome.code === 0) process.send({ ready: true });
  else process.exit(70);
});
`;

interface Pending {
  request: ChildRequest;
  resolve: (outcome: ChildOutcome) => void;
  backstop: NodeJS.Timeout;
}

interface Host {
  child: ChildProcess;
  ready: boolean;
  pending: Map<number, Pending>;
}

/** Extra time the host gets beyond a command's own timeout before this side gives up on it. */
const BACKSTOP_MS = 10_000;

let host: Host | null = null;
let hostUnavailable = process.env["FORGEKIT_GIT_SPAWN_HOST"] === "off";
let nextId = 1;

const runHere = (request: ChildRequest) => new Promise<ChildOutcome>((resolve) => void runChild(spawn, request, resolve));

function settle(h: Host, id: number, outcome: ChildOutcome): void {
  const pending = h.pending.get(id);
  if (pending === undefined) return;
  h.pending.delete(id);
  clearTimeout(pending.backstop);
  if (h.pending.size === 0) h.child.channel?.unref();
  pending.resolve(outcome);
}

function send(h: Host, id: number, request: ChildRequest): void {
  h.child.send({ id, request }, (error) => {
    if (error !== null && error !== undefined) settle(h, id, { kind: "not_started", message: `the git spawn host is gone: ${error.message}` });
  });
}

function startHost(): Host {
  const child = spawn(process.execPath, ["-e", HOST_SOURCE], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced", env: {} });
  const h: Host = { child, ready: false, pending: new Map() };
  child.unref();
  child.on("message", (message: { ready?: true; id?: number; outcome?: ChildOutcome }) => {
    if (message.ready === true) {
      h.ready = true;
      for (const [id, pending] of h.pending) send(h, id, pending.request);
      if (h.pending.size === 0) child.channel?.unref();
      return;
    }
    if (message.id === undefined || message.outcome === undefined) return;
    const outcome = message.outcome;
    settle(h, message.id, outcome.kind === "exited" ? { ...outcome, stdout: Buffer.from(outcome.stdout.buffer, outcome.stdout.byteOffset, outcome.stdout.byteLength) } : outcome);
  });
  const gone = (why: string) => {
    if (host === h) host = null;
    if (!h.ready) {
      // It never ran a command: run here what waited for it, and from now on everything.
      hostUnavailable = true;
      process.emitWarning(`git commands start in this process: the git spawn host ${why}`, { code: "FORGEKIT_SPAWN_HOST" });
      for (const [id, pending] of h.pending) {
        h.pending.delete(id);
        clearTimeout(pending.backstop);
        void runHere(pending.request).then(pending.resolve);
      }
      return;
    }
    for (const id of [...h.pending.keys()]) settle(h, id, { kind: "not_started", message: `the git spawn host ${why}` });
  };
  child.on("error", (error) => gone(`failed: ${error.message}`));
  child.on("exit", (code, signal) => gone(`exited (${signal ?? code ?? "?"})`));
  return h;
}

/** This process's working directory; undefined when it was removed (`process.cwd()` throws then). */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** Runs one bounded command through the spawn host (or here, when there is none). */
export function runCommand(command: ChildRequest): Promise<ChildOutcome> {
  // Relative paths mean what they mean here, even after this process changed its directory.
  const request = { ...command, cwd: command.cwd ?? currentDirectory() };
  if (hostUnavailable) return runHere(request);
  if (host === null) host = startHost();
  const h = host;
  const id = nextId++;
  return new Promise<ChildOutcome>((resolve) => {
    const backstop = setTimeout(() => settle(h, id, { kind: "timed_out" }), request.timeoutMs + BACKSTOP_MS);
    backstop.unref();
    h.pending.set(id, { request, resolve, backstop });
    h.child.channel?.ref();
    if (h.ready) send(h, id, request);
  });
}

/** Where commands start now: `host` (the spawn host, started or not yet), `here` (this process). For tests and diagnostics. */
export function commandRunner(): "host" | "here" {
  return hostUnavailable ? "here" : "host";
}
