/** The host with its own users: sign-in syncs the user, forgekit reads the host's cookie, CSRF guards writes, host changes flow through. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnUsersApp, type OwnUsersApp } from "./app.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-own-users-"));
let app: OwnUsersApp;
beforeAll(async () => {
  app = await startOwnUsersApp({ database: join(dir, "forgekit.db"), repositories: join(dir, "repositories") });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(login: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const r = await fetch(`${app.url}/login`, { method: "POST", body: new URLSearchParams({ login, password }) });
  expect(r.status).toBe(200);
  const cookie = (r.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { cookie, csrf: ((await r.json()) as { csrf_token: string }).csrf_token };
}

describe("a host with its own users", () => {
  it("knows nobody in forgekit before they sign in; signing in syncs the user under the host's id", async () => {
    expect((await app.fk.users.findByExternalId("u-1002")).isErr()).toBe(true);
    const { cookie } = await signIn("linus", "linus-password");
    const me = await fetch(`${app.url}/api/v4/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: "linus", name: "Linus" });
    expect((await app.fk.users.findByExternalId("u-1002"))._unsafeUnwrap().username).toBe("linus");
  });

  it("a wrong password signs nobody in, and a made-up cookie is anonymous", async () => {
    expect((await fetch(`${app.url}/login`, { method: "POST", body: new URLSearchParams({ login: "linus", password: "nope" }) })).status).toBe(401);
    expect((await fetch(`${app.url}/api/v4/user`, { headers: { cookie: "host.sid=forged" } })).status).toBe(401);
  });

  it("a write with the host's session needs the host's CSRF token", async () => {
    const { cookie, csrf } = await signIn("grace", "grace-password");
    const body = new URLSearchParams({ email: "grace.second@host.example" });
    expect((await fetch(`${app.url}/api/v4/user/emails`, { method: "POST", headers: { cookie }, body })).status).toBe(401);
    const written = await fetch(`${app.url}/api/v4/user/emails`, { method: "POST", headers: { cookie, "x-csrf-token": csrf }, body });
    expect(written.status).toBe(201);
  });

  it("the host's own changes (rename, admin, block) reach forgekit through sync", async () => {
    const { cookie } = await signIn("linus", "linus-password");
    await app.changeUser("u-1002", { login: "linus-t", name: "Linus T" });
    expect(await (await fetch(`${app.url}/api/v4/user`, { headers: { cookie } })).json()).toMatchObject({ username: "linus-t", name: "Linus T" });
    await app.changeUser("u-1002", { blocked: true });
    expect((await fetch(`${app.url}/api/v4/user`, { headers: { cookie } })).status).toBe(403);
  });
});
