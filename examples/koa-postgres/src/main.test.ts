/**
 * Smoke test of the koa + PostgreSQL example. Runs only when FORGEKIT_TEST_POSTGRES_URL is set;
 * it creates a fresh database next to the one named there and drops it afterwards.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKoaExample } from "./app.js";

const adminUrl = process.env["FORGEKIT_TEST_POSTGRES_URL"];
if (adminUrl === undefined || adminUrl === "") {
  console.log("examples/koa-postgres smoke test skipped: FORGEKIT_TEST_POSTGRES_URL is not set");
}

describe.skipIf(adminUrl === undefined || adminUrl === "")("examples/koa-postgres (PostgreSQL)", () => {
  const database = `forgekit_example_${randomBytes(6).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "forgekit-koa-example-"));
  let url = "";

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const u = new URL(adminUrl ?? "");
    u.pathname = `/${database}`;
    url = u.toString();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it("serves the seeded demo through koa and re-seeds idempotently", async () => {
    const first = await startKoaExample({ port: 0, database: url, cwd: dir });
    let tokens: string[];
    try {
      expect(first.seed.created).toBeGreaterThan(0);
      const bob = first.seed.users.find((u) => u.username === "bob");
      tokens = first.seed.users.map((u) => u.token);
      const response = await fetch(`${first.baseUrl}/api/v4/user`, { headers: { "PRIVATE-TOKEN": bob?.token ?? "" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toMatchObject({ username: "bob" });

      const projects = await fetch(`${first.baseUrl}/api/v4/projects?membership=true`, { headers: { "PRIVATE-TOKEN": bob?.token ?? "" } });
      const paths = ((await projects.json()) as { path_with_namespace: string }[]).map((p) => p.path_with_namespace).sort();
      expect(paths).toEqual(["alice/notes", "demo/platform/api", "demo/website"]);

      const host = await fetch(`${first.baseUrl}/`);
      expect(await host.text()).toContain("host application");
    } finally {
      await first.close();
    }
    const second = await startKoaExample({ port: 0, database: url, cwd: dir });
    try {
      expect(second.seed.created).toBe(0);
      expect(second.seed.users.map((u) => u.token)).toEqual(tokens);
    } finally {
      await second.close();
    }
  });
});
