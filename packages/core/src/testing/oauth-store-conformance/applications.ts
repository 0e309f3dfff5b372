/** Conformance tests of `OAuthApplicationRepository`. */
import { expect, it } from "vitest";
import { T0, at, newApplication, newCode, newToken, type MakeOAuthStore } from "./fixtures.js";

export function applicationTests(make: MakeOAuthStore): void {
  it("oauthApplications.create - stores every field and finds by id and uid", async () => {
    const store = await make();
    const input = newApplication({ redirectUris: ["https://a.example/cb", "http://127.0.0.1/cb"], ropcEnabled: true, trusted: true });
    const app = await store.oauthApplications.create(input, T0);
    expect(app!.id).toBeTypeOf("number");
    expect(app).toEqual({ ...input, id: app!.id, createdAt: T0, updatedAt: T0 });
    expect(await store.oauthApplications.findById(app!.id)).toEqual(app);
    expect(await store.oauthApplications.findByUid(input.uid)).toEqual(app);
    expect(await store.oauthApplications.findByUid(input.uid.toUpperCase())).toBeNull();
    expect(await store.oauthApplications.findById(app!.id + 1000)).toBeNull();
  });

  it("oauthApplications.create - a taken uid gives null and writes nothing", async () => {
    const store = await make();
    const first = newApplication();
    await store.oauthApplications.create(first, T0);
    expect(await store.oauthApplications.create(newApplication({ uid: first.uid, name: "Other" }), T0)).toBeNull();
    expect(await store.oauthApplications.list({})).toHaveLength(1);
  });

  it("oauthApplications.list - ordered by id, filtered by owner", async () => {
    const store = await make();
    const a = await store.oauthApplications.create(newApplication({ ownerId: 1 }), T0);
    const b = await store.oauthApplications.create(newApplication({ ownerId: 2 }), T0);
    const c = await store.oauthApplications.create(newApplication({ ownerId: 1 }), T0);
    expect((await store.oauthApplications.list({})).map((x) => x.id)).toEqual([a!.id, b!.id, c!.id]);
    expect((await store.oauthApplications.list({ ownerId: 1 })).map((x) => x.id)).toEqual([a!.id, c!.id]);
    expect(await store.oauthApplications.list({ ownerId: 3 })).toEqual([]);
  });

  it("oauthApplications.update - applies the patch and sets updatedAt", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const patched = await store.oauthApplications.update(app!.id, { name: "Renamed", scopes: ["read_user"], secretDigest: "f".repeat(64), ropcEnabled: true }, at(5));
    expect(patched).toEqual({ ...app, name: "Renamed", scopes: ["read_user"], secretDigest: "f".repeat(64), ropcEnabled: true, updatedAt: at(5) });
    expect(await store.oauthApplications.findById(app!.id)).toEqual(patched);
    expect(await store.oauthApplications.update(app!.id + 1000, { name: "x" }, at(5))).toBeNull();
  });

  it("oauthApplications.delete - removes the application with its codes and tokens", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const other = await store.oauthApplications.create(newApplication(), T0);
    const code = newCode(app!.id);
    const token = newToken(app!.id);
    const otherToken = newToken(other!.id, { familyId: "family-other" });
    await store.oauthCodes.create(code, T0);
    await store.oauthTokens.create(token, T0);
    await store.oauthTokens.create(otherToken, T0);
    expect(await store.oauthApplications.delete(app!.id)).toBe(true);
    expect(await store.oauthApplications.findById(app!.id)).toBeNull();
    expect(await store.oauthCodes.findByDigest(code.digest)).toBeNull();
    expect(await store.oauthTokens.findByAccessDigest(token.accessDigest)).toBeNull();
    expect(await store.oauthTokens.findByAccessDigest(otherToken.accessDigest)).not.toBeNull();
    expect(await store.oauthApplications.delete(app!.id)).toBe(false);
  });
}
