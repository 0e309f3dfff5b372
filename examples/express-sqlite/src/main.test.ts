/**
 * Smoke test of the quick-start main job: boots it on port 0 with a temporary SQLite database,
 * calls the API with the printed demo tokens, re-runs it to check the seed is idempotent, and runs
 * main.ts itself as `pnpm start` does.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";
import { runMain } from "./run-main.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-express-example-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

describe("examples/express-sqlite", () => {
  it("serves the seeded demo and re-seeds idempotently", async () => {
    const first = await startExpressExample({ port: 0, database: "forgekit.db", cwd: dir });
    let tokens: string[];
    try {
      expect(first.seed.created).toBeGreaterThan(0);
      const alice = first.seed.users.find((u) => u.username === "alice");
      const bob = first.seed.users.find((u) => u.username === "bob");
      expect(alice?.token).toMatch(/\S{20,}/);
      tokens = first.seed.users.map((u) => u.token);

      const me = await getJson(`${first.baseUrl}/api/v4/user`, { "PRIVATE-TOKEN": alice?.token ?? "" });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: "alice" });

      const anonymous = await getJson(`${first.baseUrl}/api/v4/projects`);
      expect(anonymous.status).toBe(200);
      expect((anonymous.body as { path_with_namespace: string }[]).map((p) => p.path_with_namespace)).toEqual(["demo/website"]);

      const internal = await getJson(`${first.baseUrl}/api/v4/projects/demo%2Fplatform%2Fapi`, { Authorization: `Bearer ${bob?.token ?? ""}` });
      expect(internal.status).toBe(200);
      expect(internal.body).toMatchObject({ path_with_namespace: "demo/platform/api", visibility: "internal" });

      const host = await fetch(`${first.baseUrl}/`);
      expect(await host.text()).toContain("host application");
      expect(first.banner).toContain(`curl -H 'PRIVATE-TOKEN: ${alice?.token ?? ""}' ${first.baseUrl}/api/v4/user`);
    } finally {
      await first.close();
    }

    const second = await startExpressExample({ port: 0, database: "forgekit.db", cwd: dir });
    try {
      expect(second.seed.created).toBe(0);
      expect(second.seed.users.map((u) => u.token)).toEqual(tokens);
      expect(second.seed.projects).toHaveLength(3);
    } finally {
      await second.close();
    }
  });

  it("runs main.ts (PORT=0) and prints the URL, tokens and curl commands", async () => {
    const main = await runMain(join(dir, "main"));
    try {
      expect(main.output()).toMatch(/Try:[\s\S]*curl[\s\S]*curl[\s\S]*curl/);
      expect(main.output()).toContain("Listening on 127.0.0.1 only");
      const token = /PRIVATE-TOKEN: (\S+)'/.exec(main.output())?.[1];
      expect(token).toBe(main.token("alice"));
      const me = await getJson(`${main.baseUrl}/api/v4/user`, { "PRIVATE-TOKEN": token ?? "" });
      expect(me).toMatchObject({ status: 200, body: { username: "alice" } });
    } finally {
      await main.stopCleanly();
    }
  }, 300_000);

  it("listens only once it is ready: no request is ever answered 503 while it starts", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const statuses: number[] = [];
    let started = false;
    const poll = (async () => {
      while (!started) {
        try {
          statuses.push((await fetch(`http://127.0.0.1:${port}/api/v4/projects`)).status);
        } catch {
          // Refused: not listening yet, as it should be.
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const running = await startExpressExample({ port, host: "127.0.0.1", database: "ready.db", cwd: dir });
    started = true;
    await poll;
    try {
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/api/v4/projects`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  // Ctrl-C in a terminal sends SIGINT to the whole process group: pnpm, and the server under it.
  const pnpm = process.env["npm_execpath"];
  it.skipIf(pnpm === undefined || !/pnpm/.test(pnpm))("`pnpm start` stops cleanly on Ctrl-C (exit 0, no ELIFECYCLE)", async () => {
    const root = join(import.meta.dirname, "..", "..", "..");
    const command = pnpm?.endsWith("js") ? [process.execPath, pnpm] : [pnpm ?? "pnpm"];
    const child = spawn(command[0] ?? "pnpm", [...command.slice(1), "start"], {
      cwd: root,
      env: { ...process.env, PORT: "0", DATABASE_URL: join(dir, "ctrl-c.db"), FORGEKIT_BASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await expect.poll(() => output, { timeout: 150_000, interval: 100 }).toMatch(/git clone/);
    process.kill(-(child.pid ?? 0), "SIGINT");
    expect(await exited).toBe(0);
    expect(output).not.toContain("ELIFECYCLE");
  }, 300_000);
});
