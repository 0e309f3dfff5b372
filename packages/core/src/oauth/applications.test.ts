import { describe, expect, it } from "vitest";
import { createOAuthTestKit } from "../testing/oauth-memory-store/harness.js";
import { applicationEntity, createApplication, deleteApplication, listApplications, rotateApplicationSecret } from "./applications.js";
import { secretDigest } from "./digest.js";

describe("createApplication", () => {
  it("stores the secret's digest only and returns the secret once", async () => {
    const kit = createOAuthTestKit();
    const { application, clientSecret } = (await createApplication(kit.deps, { name: " Demo ", redirectUris: ["https://a.example/cb"], scopes: ["api", "api", "openid"] }))._unsafeUnwrap();
    expect(clientSecret).toMatch(/^fkos_[A-Za-z0-9_-]{43}$/);
    expect(application).toMatchObject({ name: "Demo", scopes: ["api", "openid"], confidential: true, trusted: false, ropcEnabled: false, ownerId: null });
    expect(application.uid).toMatch(/^[0-9a-f]{64}$/);
    expect(application.secretDigest).toBe(secretDigest(clientSecret));
    expect(JSON.stringify(await kit.store.oauthApplications.list({}))).not.toContain(clientSecret);
    expect(kit.logs.map((l) => l.event)).toEqual(["oauth.application_created"]);
  });

  it("keeps the given switches", async () => {
    const kit = createOAuthTestKit();
    const { application } = (await createApplication(kit.deps, { name: "P", redirectUris: ["http://127.0.0.1/cb"], scopes: ["read_user"], confidential: false, trusted: true, ropcEnabled: true, ownerId: 9 }))._unsafeUnwrap();
    expect(application).toMatchObject({ confidential: false, trusted: true, ropcEnabled: true, ownerId: 9 });
  });

  it("names every invalid field", async () => {
    const kit = createOAuthTestKit();
    const result = await createApplication(kit.deps, { name: "  ", redirectUris: ["https://a.example/cb#x", "javascript:alert(1)"], scopes: ["api", "nope"] });
    expect(result._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: {
        name: ["can't be blank"],
        redirect_uri: ["must not contain a fragment", "must not use the data, javascript or vbscript scheme"],
        scopes: ["don't exist: nope"],
      },
    });
    const empty = await createApplication(kit.deps, { name: "x".repeat(256), redirectUris: [], scopes: [] });
    expect(empty._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { name: ["is too long (maximum is 255 characters)"], redirect_uri: ["can't be blank"], scopes: ["can't be blank"] },
    });
    expect(await kit.store.oauthApplications.list({})).toEqual([]);
  });
});

describe("managing applications", () => {
  it("rotates the secret: the new one matches, the old one no longer does", async () => {
    const kit = createOAuthTestKit();
    const { application, clientSecret } = await kit.createApp();
    kit.clock.advance(10);
    const rotated = (await rotateApplicationSecret(kit.deps, application.id))._unsafeUnwrap();
    expect(rotated.clientSecret).not.toBe(clientSecret);
    expect(rotated.application.secretDigest).toBe(secretDigest(rotated.clientSecret));
    expect(rotated.application.updatedAt).toEqual(kit.clock.now());
    expect((await rotateApplicationSecret(kit.deps, 999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
  });

  it("lists by owner and deletes", async () => {
    const kit = createOAuthTestKit();
    const a = (await kit.createApp({ ownerId: 1 })).application;
    const b = (await kit.createApp({ ownerId: 2 })).application;
    expect((await listApplications(kit.deps))._unsafeUnwrap().map((x) => x.id)).toEqual([a.id, b.id]);
    expect((await listApplications(kit.deps, { ownerId: 2 }))._unsafeUnwrap().map((x) => x.id)).toEqual([b.id]);
    expect((await deleteApplication(kit.deps, a.id)).isOk()).toBe(true);
    expect((await deleteApplication(kit.deps, a.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Application" });
    expect(kit.logs.map((l) => l.event)).toContain("oauth.application_deleted");
  });

  it("renders the admin REST entity, with the secret only when given", async () => {
    const kit = createOAuthTestKit();
    const { application, clientSecret } = await kit.createApp({ redirectUris: ["https://a.example/cb", "https://b.example/cb"] });
    expect(applicationEntity(application, clientSecret)).toEqual({
      id: application.id,
      application_id: application.uid,
      application_name: "Demo app",
      secret: clientSecret,
      callback_url: "https://a.example/cb\nhttps://b.example/cb",
      confidential: true,
    });
    expect(applicationEntity(application)).not.toHaveProperty("secret");
  });
});
