/**
 * Smoke test of the quick-start main job: boots it on port 0 with a temporary SQLite database,
 * calls the API with the printed demo tokens, re-runs it to check the seed is idempotent, and runs
 * main.ts itself as `pnpm start` does.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";

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
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const child = spawn(process.execPath, [tsx, "--conditions=@forgekit/source", join(import.meta.dirname, "main.ts")], {
      cwd: dir,
      env: { ...process.env, PORT: "0", DATABASE_URL: join(dir, "main.db"), FORGEKIT_BASE_URL: "" }, // "" = unset
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toMatch(/Try:[\s\S]*curl[\s\S]*curl[\s\S]*curl/);
      const url = /serving (http:\/\/localhost:\d+)\/api\/v4/.exec(output)?.[1];
      const token = /PRIVATE-TOKEN: (\S+)'/.exec(output)?.[1];
      expect(url).toBeDefined();
      const me = await getJson(`${url ?? ""}/api/v4/user`, { "PRIVATE-TOKEN": token ?? "" });
      expect(me).toMatchObject({ status: 200, body: { username: "alice" } });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
