/**
 * Issue 9 §5: the real git CLI clones and pushes through the express example, with the banner's own
 * `git clone http://oauth2:<token>@…` command (run as printed, by a shell) and with a personal
 * access token under the user's name; the push shows up in the project's events.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-express-git-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = {
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: dir,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Alice Example",
  GIT_AUTHOR_EMAIL: "alice@example.com",
  GIT_COMMITTER_NAME: "Alice Example",
  GIT_COMMITTER_EMAIL: "alice@example.com",
};

function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }));
  });
}

describe("examples/express-sqlite: git over HTTP", () => {
  it("the banner's git clone command works as printed; the clone pushes back and the push is in the events", async () => {
    const example = await startExpressExample({ port: 0, database: "git.db", cwd: dir });
    try {
      const command = /^\s*(git clone \S+)$/m.exec(example.banner)?.[1];
      expect(command).toMatch(/^git clone 'http:\/\/oauth2:[^@]+@localhost:\d+\/alice\/notes\.git'$|^git clone http:\/\/oauth2:[^@]+@localhost:\d+\/alice\/notes\.git$/);
      const cloned = await run("sh", ["-c", `${command ?? "false"} banner-clone`], dir);
      expect(cloned.stderr).not.toContain("fatal");
      expect(cloned.code).toBe(0);

      const work = join(dir, "banner-clone");
      writeFileSync(join(work, "README.md"), "# Notes\n");
      expect((await run("git", ["add", "README.md"], work)).code).toBe(0);
      expect((await run("git", ["commit", "-q", "-m", "Add a README"], work)).code).toBe(0);
      const pushed = await run("git", ["push", "-q", "origin", "HEAD:main"], work);
      expect(pushed.stderr).toBe("");
      expect(pushed.code).toBe(0);

      const alice = example.seed.users.find((u) => u.username === "alice");
      const notes = example.seed.projects.find((p) => p.fullPath === "alice/notes");
      const events = await fetch(`${example.baseUrl}/api/v4/projects/${notes?.id ?? 0}/events?action=pushed`, { headers: { "PRIVATE-TOKEN": alice?.token ?? "" } });
      expect(await events.json()).toEqual([expect.objectContaining({ action_name: "pushed new", push_data: expect.objectContaining({ ref: "main", commit_count: 1, commit_title: "Add a README" }) })]);

      // A personal access token under the user's own name clones too (what `git` asks for after a 401).
      const url = new URL(`${example.baseUrl}/alice/notes.git`);
      url.username = "alice";
      url.password = alice?.token ?? "";
      const second = await run("git", ["clone", "-q", url.toString(), "pat-clone"], dir);
      expect(second.code).toBe(0);
      expect((await run("git", ["log", "-1", "--format=%s"], join(dir, "pat-clone"))).stdout.trim()).toBe("Add a README");
    } finally {
      await example.close();
    }
  });
});
