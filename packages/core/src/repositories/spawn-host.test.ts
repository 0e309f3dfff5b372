import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runChild, type ChildOutcome, type ChildRequest } from "./child-run.js";
import { commandRunner, runCommand } from "./spawn-host.js";

const sh = (script: string, extra: Partial<ChildRequest> = {}): ChildRequest => ({ binary: "sh", args: ["-c", script], env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" }, timeoutMs: 30_000, maxStdoutBytes: 1024 * 1024, ...extra });
const text = (outcome: ChildOutcome) => (outcome.kind === "exited" ? Buffer.from(outcome.stdout).toString("utf8") : `(${outcome.kind})`);
const here = (request: ChildRequest) => new Promise<ChildOutcome>((resolve) => void runChild(spawn, request, resolve));

describe.each([
  ["the spawn host", runCommand],
  ["this process", here],
])("a command run by %s", (_, run) => {
  it("gets its stdin and hands back stdout, stderr and the exit code", async () => {
    const outcome = await run(sh("cat; echo oops >&2; exit 3", { input: Buffer.from([0, 1, 2, 255]) }));
    expect(outcome).toMatchObject({ kind: "exited", code: 3, stderr: "oops", tooLarge: false });
    expect(outcome.kind === "exited" && [...Buffer.from(outcome.stdout)]).toEqual([0, 1, 2, 255]);
  });

  it("sees only the environment the request names", async () => {
    expect(text(await run(sh('echo "$FORGEKIT_PROBE-$HOME"', { env: { PATH: process.env["PATH"] ?? "", FORGEKIT_PROBE: "x" } })))).toBe("x-\n");
  });

  it("is killed past its output limit and reported tooLarge, with what came first", async () => {
    const outcome = await run(sh("exec yes", { maxStdoutBytes: 10_000 }));
    expect(outcome).toMatchObject({ kind: "exited", tooLarge: true });
    expect(outcome.kind === "exited" && outcome.stdout.length).toBe(10_000);
  });

  it("is killed at its timeout and reported timed_out", async () => {
    expect(await run(sh("sleep 30", { timeoutMs: 200 }))).toEqual({ kind: "timed_out" });
  });

  it("that cannot start is reported not_started with the reason", async () => {
    expect(await run({ ...sh(""), binary: "/nonexistent/git" })).toMatchObject({ kind: "not_started", message: expect.stringContaining("ENOENT") });
  });
});

describe("the spawn host", () => {
  it("starts commands in a process of its own, not in this one", async () => {
    expect(commandRunner()).toBe("host");
    const parent = Number(text(await runCommand(sh("echo $PPID"))));
    expect(parent).not.toBe(process.pid);
    expect(parent).toBeGreaterThan(0);
  });

  it("fails the commands of a host that died, and the next command starts a new host", async () => {
    const first = Number(text(await runCommand(sh("echo $PPID"))));
    const waiting = runCommand(sh("exec sleep 20"));
    // The sleep is running once the host has started it: wait for it to show up as the host's child.
    await expect.poll(async () => text(await runCommand({ ...sh(`ps -o comm= --ppid ${first}`) })), { timeout: 20_000 }).toContain("sleep");
    process.kill(first, "SIGKILL");
    expect(await waiting).toMatchObject({ kind: "not_started", message: expect.stringContaining("spawn host") });
    const second = Number(text(await runCommand(sh("echo $PPID"))));
    expect(second).not.toBe(first);
    expect(second).not.toBe(process.pid);
  });

  it("runs a command in this process's working directory, or the one the request names", async () => {
    expect(text(await runCommand(sh("pwd")))).toBe(`${process.cwd()}\n`);
    expect(text(await runCommand(sh("pwd", { cwd: "/" })))).toBe("/\n");
  });

  it("runs many commands side by side", async () => {
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => runCommand(sh(`echo ${i}`))));
    expect(outcomes.map(text)).toEqual(Array.from({ length: 40 }, (_, i) => `${i}\n`));
  });
});
