/** The example host's sign-in (login.ts): wrong passwords, where it sends you back to, signing out. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExpressExample, type RunningExample } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-login-"));
let example: RunningExample;

beforeAll(async () => {
  example = await startExpressExample({ port: 0, database: "forgekit.db", cwd: dir });
}, 240_000);
afterAll(async () => {
  await example.close();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = (form: Record<string, string>) =>
  fetch(`${example.baseUrl}/users/sign_in`, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });

describe("examples/express-sqlite sign-in", () => {
  it("the form carries the return address, escaped", async () => {
    const back = `${example.baseUrl}/oauth/authorize?client_id=x&state="><script>`;
    const page = await fetch(`${example.baseUrl}/users/sign_in?return_to=${encodeURIComponent(back)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="return_to"');
    expect(html).not.toContain("<script>");
  });

  it("a wrong password is 401 with the form again and no cookie", async () => {
    const r = await signIn({ username: "alice", password: "wrong", return_to: "/" });
    expect(r.status).toBe(401);
    expect(r.headers.get("set-cookie")).toBeNull();
    expect(await r.text()).toContain("Wrong username or password.");
  });

  it("signing in sets an HttpOnly session cookie that forgekit resolves, and returns only to the authorization page", async () => {
    const back = `${example.baseUrl}/oauth/authorize?client_id=x`;
    const good = await signIn({ username: "alice", password: "alice-demo-password", return_to: back });
    expect(good.status).toBe(303);
    expect(good.headers.get("location")).toBe(back);
    const cookie = good.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^_service_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const me = await fetch(`${example.baseUrl}/api/v4/user`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(((await me.json()) as { username: string }).username).toBe("alice");
    const elsewhere = await signIn({ username: "alice", password: "alice-demo-password", return_to: "https://evil.example/" });
    expect(elsewhere.headers.get("location")).toBe("/");
  });

  it("signing out ends the session", async () => {
    const cookie = (await signIn({ username: "bob", password: "bob-demo-password", return_to: "/" })).headers.get("set-cookie")!.split(";")[0]!;
    await fetch(`${example.baseUrl}/users/sign_out`, { method: "POST", headers: { cookie }, redirect: "manual" });
    const me = await fetch(`${example.baseUrl}/api/v4/user`, { headers: { cookie } });
    expect(me.status).toBe(401);
  });
});
