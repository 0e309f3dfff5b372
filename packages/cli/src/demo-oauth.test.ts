/** The demo's OAuth applications and passwords: created once, printed again from the demo file, rotated when it is lost. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createForgekit } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import type { DemoSeed } from "./demo-seed.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

describe("seed-demo: OAuth", () => {
  let first: DemoSeed;

  it("registers a confidential and a public application and sets the demo passwords", async () => {
    const run = await sandbox.run("--json", "seed-demo");
    expect(run.code).toBe(0);
    first = run.json<DemoSeed>();
    expect(first.oauth.apps.map((a) => [a.name, a.confidential])).toEqual([["Demo web app", true], ["Demo single-page app", false]]);
    expect(first.oauth.apps[0]?.clientSecret).toMatch(/^fkos_/);
    expect(first.oauth.apps[1]?.clientSecret).toBeNull();
    expect(first.oauth.passwords.map((p) => p.username)).toEqual(["admin", "alice", "bob"]);
    expect(first.oauth.created).toBe(5);
    const text = await sandbox.run("seed-demo");
    expect(text.stdout).toContain(`client_secret: ${first.oauth.apps[0]?.clientSecret ?? "missing"}`);
    expect(text.stdout).toContain("alice / alice-demo-password");
    expect(text.stdout).toMatch(/\/oauth\/authorize\?client_id=[0-9a-f]{64}&redirect_uri=http%3A%2F%2F127\.0\.0\.1%2Fcallback/);
  });

  it("is idempotent, and rotates a secret it can no longer show", async () => {
    const again = (await sandbox.run("--json", "seed-demo")).json<DemoSeed>();
    expect(again.oauth.created).toBe(0);
    expect(again.oauth.apps).toEqual(first.oauth.apps);
    rmSync(join(sandbox.dir, "demo-oauth-apps.json"));
    const rotated = (await sandbox.run("--json", "seed-demo")).json<DemoSeed>();
    expect(rotated.oauth.apps.map((a) => a.clientId)).toEqual(first.oauth.apps.map((a) => a.clientId));
    expect(rotated.oauth.apps[0]?.clientSecret).not.toBe(first.oauth.apps[0]?.clientSecret);
    expect(rotated.oauth.created).toBe(2);
    expect((await sandbox.run("--json", "apps", "list")).json<unknown[]>()).toHaveLength(2);
  });

  it("the demo password is the user's password (password grant without a client)", async () => {
    const store = kyselyStore(fromUrl(sandbox.database));
    try {
      const fk = createForgekit({ baseUrl: "http://localhost:3000", store, logger: { log: () => undefined } });
      const grant = async (password: string) => {
        const body = new TextEncoder().encode(new URLSearchParams({ grant_type: "password", username: "alice", password }).toString());
        return (await fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body })).status;
      };
      expect(await grant("alice-demo-password")).toBe(200);
      expect(await grant("not-the-password")).toBe(400);
    } finally {
      await store.close();
    }
  });
});
