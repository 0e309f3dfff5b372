/**
 * Issue 11: real clients run a developer's whole day against the quick-start server, started as
 * `pnpm start` starts it (main.ts, a temporary data folder): @gitbeaker/rest runs day-of-work.ts and
 * python-gitlab (Debian's `python3-gitlab`) runs day-of-work.py, one after the other on the same
 * server (each names its records uniquely). The python-gitlab case is skipped, with a line saying
 * so, where no Python with the `gitlab` module is installed.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, type RunningMain } from "../run-main.js";
import { dayOfWork } from "./day-of-work.js";

const python = ["python3", "/usr/bin/python3"].find((candidate) => spawnSync(candidate, ["-c", "import gitlab"]).status === 0);
if (python === undefined) console.log("examples/express-sqlite: no python3 with the gitlab module (python3-gitlab) — the python-gitlab day of work is skipped");

describe("a day of work against the quick-start server", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-day-of-work-"));
  let server: RunningMain | undefined;
  const baseUrl = () => server?.baseUrl ?? "";
  const adminToken = () => server?.token("admin") ?? "";
  beforeAll(async () => {
    server = await runMain(join(dir, "data"));
  });
  afterAll(async () => {
    await server?.stopCleanly();
    rmSync(dir, { recursive: true, force: true });
  });

  it("@gitbeaker/rest: group, project, member, git push, issue, comment, close, branch, merge request, merge, events, snippets, token rotation: no error", async () => {
    const username = await dayOfWork(baseUrl(), adminToken());
    expect(username).toMatch(/^tsdev\d{8}$/);
    // The developer's day is in their own event feed, seen by the administrator.
    const feed = await fetch(`${baseUrl()}/api/v4/users/${username}/events?per_page=100`, { headers: { "PRIVATE-TOKEN": adminToken() } });
    const actions = ((await feed.json()) as { action_name: string }[]).map((e) => e.action_name);
    expect(actions).toEqual(expect.arrayContaining(["created", "pushed new", "opened", "commented on", "closed", "accepted", "pushed to", "deleted"]));
  });

  it.skipIf(python === undefined)("python-gitlab: the same day, without an error", async () => {
    const script = join(import.meta.dirname, "day-of-work.py");
    // Asynchronous: the test waits for the script without blocking its own event loop.
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(python ?? "python3", [script, baseUrl(), adminToken()], { timeout: 240_000 }, (error, out, err) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err });
      });
    });
    expect({ code, stderr: stderr.split("\n").slice(-8).join("\n") }).toEqual({ code: 0, stderr: "" });
    expect(stdout.trim()).toBe("OK");
  });
});
