import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { oauthStoreFrom } from "./store-adapter.js";
import { oauthService } from "./service.js";
import { oauthDepsFrom } from "./instance-deps.js";

describe("fk.oauth.applications", () => {
  it("create, get, findByClientId, list, rotateSecret, delete", async () => {
    const t = await createTestForgekit();
    const apps = t.fk.oauth.applications;
    const { application, clientSecret } = await must(apps.create({ name: "Svc", redirectUris: ["https://s.example/cb"], scopes: ["api"], ownerId: t.users.alice.id }));
    expect(clientSecret).toMatch(/^fkos_/);
    expect(await must(apps.get(application.id))).toEqual(application);
    expect(await must(apps.findByClientId(application.uid))).toEqual(application);
    expect((await must(apps.list({ ownerId: t.users.alice.id }))).map((a) => a.id)).toEqual([application.id]);
    const rotated = await must(apps.rotateSecret(application.id));
    expect(rotated.clientSecret).not.toBe(clientSecret);
    await must(apps.delete(application.id));
    expect((await apps.get(application.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
    expect((await apps.findByClientId("nope"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
    // Ids past the stores' 32-bit columns name nothing and never reach the store.
    for (const id of [0, -1, 2 ** 31, 1.5]) expect((await apps.get(id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
    expect((await apps.delete(application.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
    expect((await apps.create({ name: "", redirectUris: [], scopes: [] }))._unsafeUnwrapErr().code).toBe("validation");
  });

  it("a failing store is internal, never a rejected promise", async () => {
    const t = await createTestForgekit();
    const deps = oauthDepsFrom(t.fk.config);
    const broken = oauthStoreFrom(t.store);
    broken.oauthApplications.list = () => Promise.reject(new Error("database down"));
    broken.oauthCodes.deleteExpired = () => Promise.reject(new Error("database down"));
    const service = oauthService({ ...deps, store: broken });
    expect((await service.applications.list())._unsafeUnwrapErr()).toMatchObject({ code: "internal" });
    expect((await service.purgeExpired())._unsafeUnwrapErr()).toMatchObject({ code: "internal" });
  });

  it("purgeExpired deletes dead rows after the retention window and keeps live tokens", async () => {
    const t = await createTestForgekit({ oauth: { retentionSeconds: 60 } });
    const form = (body: Record<string, string>) => ({
      method: "POST",
      rawQuery: "",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new TextEncoder().encode(new URLSearchParams(body).toString()),
    });
    const issue = async () => {
      const r = await t.fk.handle({ ...form({ grant_type: "password", username: "alice", password: "alice-password" }), path: "/oauth/token" });
      return (JSON.parse(String(r.body)) as { access_token: string }).access_token;
    };
    const [dead, live] = [await issue(), await issue()];
    await t.fk.handle({ ...form({ token: dead }), path: "/oauth/revoke" });
    const info = (token: string) => t.fk.handle({ method: "GET", path: "/oauth/token/info", rawQuery: `access_token=${token}`, headers: {} });
    t.clock.advance(59_000);
    expect(await must(t.fk.oauth.purgeExpired())).toEqual({ codesDeleted: 0, tokensDeleted: 0, consentsDeleted: 0 });
    t.clock.advance(2_000);
    expect(await must(t.fk.oauth.purgeExpired())).toEqual({ codesDeleted: 0, tokensDeleted: 1, consentsDeleted: 0 });
    expect((await info(live)).status).toBe(200);
    expect(await t.store.oauth.oauthTokens.findById(1)).toBeNull();
  });
});
