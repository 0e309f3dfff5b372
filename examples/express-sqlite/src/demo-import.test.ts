/**
 * Issue 10 §5, done means #1: start the quick start, run the printed import command as printed (by
 * a shell), and see the imported project: its issues, merge requests, notes through the API, and its
 * repository with `git clone`. A second start prints a command for a free name.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-express-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: dir, env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }));
  });
}

describe("examples/express-sqlite: the banner's import command", () => {
  it("imports octocat/hello-world from the forge stand-in: the project, its issues, merge request, notes and repository", async () => {
    const example = await startExpressExample({ port: 0, database: "import.db", cwd: dir });
    try {
      const alice = example.seed.users.find((u) => u.username === "alice");
      const headers = { "PRIVATE-TOKEN": alice?.token ?? "" };
      const api = `${example.baseUrl}/api/v4`;
      const get = async (path: string): Promise<unknown> => {
        const response = await fetch(`${api}${path}`, { headers });
        expect(response.status).toBe(200);
        return response.json();
      };

      // The one command the banner prints, run as printed.
      const command = /^\s*(curl -X POST .*\/api\/v4\/import\/github)$/m.exec(example.banner)?.[1];
      expect(command).toBeDefined();
      const started = await run("sh", ["-c", command ?? "false"]);
      expect(started.code).toBe(0);
      expect(JSON.parse(started.stdout)).toMatchObject({ name: "hello-world", full_path: "/alice/hello-world", import_source: "octocat/hello-world", import_status: "scheduled" });

      // The worker of the quick-start process runs it to the end.
      let status: { import_status?: string; import_error?: string | null } = {};
      for (let i = 0; i < 400 && status.import_status !== "finished" && status.import_status !== "failed"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await get("/projects/alice%2Fhello-world/import")) as typeof status;
      }
      expect(status).toMatchObject({ import_status: "finished", import_error: null });

      // Issues keep their numbers, labels, milestone and (mapped) assignee; octocat shows Alice's e-mail, hubot none.
      const issues = (await get("/projects/alice%2Fhello-world/issues?sort=asc")) as Record<string, unknown>[];
      expect(issues.map((i) => [i["iid"], i["title"], i["state"]])).toEqual([
        [1, "The greeting is missing a comma", "opened"],
        [2, "Greet in more languages", "opened"],
        [4, "Add a licence", "closed"],
      ]);
      expect(issues[0]).toMatchObject({ author: { username: "alice" }, labels: ["bug"], milestone: { title: "v1.0" }, assignees: [{ username: "alice" }] });

      // The screenshot the issue links (attachments_import) is stored with the project and served by forgekit.
      const screenshot = /^`hello\.txt` says \*Hello world\*: !\[screenshot\]\((\S+)\)$/.exec(String(issues[0]?.["description"]))?.[1] ?? "";
      expect(screenshot).toMatch(new RegExp(`^${example.baseUrl}/alice/hello-world/uploads/[0-9a-f]{32}/7d1c6a3e-hello\\.png$`));
      const image = await fetch(screenshot);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
      expect(issues[1]).toMatchObject({ author: { username: "alice" }, description: "*Created by: hubot*\n\nFrench first, then others.", milestone: { title: "v1.0" }, assignees: [] });

      // The pull request as a merge request, with its conversation as a note and its review comment as a diff note.
      const mrs = (await get("/projects/alice%2Fhello-world/merge_requests")) as Record<string, unknown>[];
      expect(mrs).toEqual([expect.objectContaining({ iid: 3, title: "Say hello in French", state: "opened", source_branch: "feature/bonjour", target_branch: "main" })]);
      const mrNotes = (await get("/projects/alice%2Fhello-world/merge_requests/3/notes?sort=asc")) as { body: string; type: string | null; position?: Record<string, unknown> }[];
      expect(mrNotes.map((n) => [n.type, n.body])).toEqual([
        [null, "Looks good to me."],
        ["DiffNote", "Maybe « Bonjour, le monde » ?"],
      ]);
      expect(mrNotes[1]?.position).toMatchObject({ position_type: "text", old_path: "hello-fr.txt", new_path: "hello-fr.txt", old_line: null, new_line: 1 });
      const issueNotes = (await get("/projects/alice%2Fhello-world/issues/1/notes?sort=asc")) as { body: string }[];
      expect(issueNotes.map((n) => n.body)).toEqual(["*Created by: hubot*\n\nConfirmed, and it is in the README too.", "Fixed on main."]);

      // The repository: the banner's clone command for it, as printed.
      const clone = example.banner.split("\n").find((line) => /^\s*git clone \S+\/alice\/hello-world\.git'?$/.test(line))?.trim();
      expect(clone).toBeDefined();
      const cloned = await run("sh", ["-c", `${clone ?? "false"} hello-clone`]);
      expect(cloned.code).toBe(0);
      expect(readFileSync(join(dir, "hello-clone", "hello.txt"), "utf8")).toBe("Hello, world\n");
      expect((await run("git", ["-C", join(dir, "hello-clone"), "branch", "-r"])).stdout).toContain("origin/feature/bonjour");
      expect((await run("git", ["-C", join(dir, "hello-clone"), "tag"])).stdout.trim()).toBe("v0.1.0");
    } finally {
      await example.close();
    }

    // Started again on the same database, the banner imports to a name that is still free.
    const again = await startExpressExample({ port: 0, database: "import.db", cwd: dir });
    try {
      expect(again.banner).toContain('"new_name":"hello-world-2"');
    } finally {
      await again.close();
    }
  });
});
