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
import type { DemoSeed } from "@forgekit/cli";
import { startKoaExample } from "./app.js";

/** The consent flow through the host's own sign-in: authorize → sign in → consent → approve → code. */
async function signInAndApprove(baseUrl: string, seed: DemoSeed): Promise<void> {
  const web = seed.oauth.apps.find((a) => a.confidential);
  const query = new URLSearchParams({ client_id: web?.clientId ?? "", redirect_uri: "http://127.0.0.1/callback", response_type: "code", scope: "read_user", state: "s-1" });
  const authorize = `${baseUrl}/oauth/authorize?${query.toString()}`;
  const toLogin = await fetch(authorize, { redirect: "manual" });
  expect(toLogin.status).toBe(302);
  const loginUrl = new URL(toLogin.headers.get("location") ?? "", baseUrl);
  expect(loginUrl.pathname).toBe("/users/sign_in");
  const form = await fetch(loginUrl);
  expect(await form.text()).toContain('action="/users/sign_in"');

  const returnTo = loginUrl.searchParams.get("return_to") ?? "";
  const credentials = (password: string) => new URLSearchParams({ username: "bob", password, return_to: returnTo });
  expect((await fetch(`${baseUrl}/users/sign_in`, { method: "POST", body: credentials("wrong"), redirect: "manual" })).status).toBe(401);
  const signedIn = await fetch(`${baseUrl}/users/sign_in`, { method: "POST", body: credentials("bob-demo-password"), redirect: "manual" });
  expect(signedIn.status).toBe(303);
  expect(signedIn.headers.get("location")).toBe(returnTo);
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  expect(cookie).toMatch(/^_service_session=/);

  const consent = await fetch(new URL(returnTo, baseUrl), { headers: { cookie } });
  expect(consent.status).toBe(200);
  const page = await consent.text();
  const fields = new URLSearchParams([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1] ?? "", (m[2] ?? "").replace(/&amp;/g, "&")] as [string, string]));
  fields.set("decision", "approve");
  const approved = await fetch(`${baseUrl}/oauth/authorize`, { method: "POST", body: fields, headers: { cookie }, redirect: "manual" });
  expect(approved.status).toBe(302);
  const landing = new URL(approved.headers.get("location") ?? "");
  expect(`${landing.origin}${landing.pathname}`).toBe("http://127.0.0.1/callback");
  expect(landing.searchParams.get("state")).toBe("s-1");
  expect(landing.searchParams.get("code")).toMatch(/^\S{20,}$/);
}

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
      await signInAndApprove(second.baseUrl, second.seed);
    } catch (error) {
      await second.close();
      throw error;
    }
    try {
      expect(second.seed.created).toBe(0);
      expect(second.seed.users.map((u) => u.token)).toEqual(tokens);
    } finally {
      await second.close();
    }
  });
});
