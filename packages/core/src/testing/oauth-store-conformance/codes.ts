/** Conformance tests of `OAuthAuthorizationCodeRepository`. */
import { expect, it } from "vitest";
import { T0, at, newApplication, newCode, race, type MakeOAuthStore } from "./fixtures.js";

export function codeTests(make: MakeOAuthStore, races: number): void {
  it("oauthCodes.create - stores every field; findByDigest finds it", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const input = newCode(app!.id, { codeChallenge: "c".repeat(43), nonce: "n-1", scopes: ["api", "openid"] });
    const code = await store.oauthCodes.create(input, T0);
    expect(code.id).toBeTypeOf("number");
    expect(code).toEqual({ ...input, id: code.id, createdAt: T0, consumedAt: null });
    expect(await store.oauthCodes.findByDigest(input.digest)).toEqual(code);
    expect(await store.oauthCodes.findByDigest("0".repeat(64))).toBeNull();
  });

  it("oauthCodes.consume - returns the row once, then null; the row stays findable", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const input = newCode(app!.id);
    await store.oauthCodes.create(input, T0);
    const first = await store.oauthCodes.consume(input.digest, at(10));
    expect(first).toMatchObject({ digest: input.digest, consumedAt: at(10) });
    expect(await store.oauthCodes.consume(input.digest, at(11))).toBeNull();
    expect(await store.oauthCodes.findByDigest(input.digest)).toMatchObject({ consumedAt: at(10) });
  });

  it("oauthCodes.consume - an unknown digest gives null", async () => {
    const store = await make();
    expect(await store.oauthCodes.consume("a".repeat(64), T0)).toBeNull();
  });

  it("oauthCodes.consume - an expired code is still consumed (the caller checks expiry)", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const input = newCode(app!.id, { expiresAt: at(600) });
    await store.oauthCodes.create(input, T0);
    expect(await store.oauthCodes.consume(input.digest, at(700))).toMatchObject({ consumedAt: at(700) });
  });

  it(`oauthCodes.consume - only one of ${races} racing callers wins`, async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const input = newCode(app!.id);
    await store.oauthCodes.create(input, T0);
    const results = await race(races, () => store.oauthCodes.consume(input.digest, at(1)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it("oauthCodes.deleteExpired - deletes only codes that expired before the cutoff", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const old = newCode(app!.id, { expiresAt: at(100) });
    const edge = newCode(app!.id, { expiresAt: at(200) });
    const live = newCode(app!.id, { expiresAt: at(900) });
    for (const c of [old, edge, live]) await store.oauthCodes.create(c, T0);
    expect(await store.oauthCodes.deleteExpired(at(200))).toBe(1);
    expect(await store.oauthCodes.findByDigest(old.digest)).toBeNull();
    expect(await store.oauthCodes.findByDigest(edge.digest)).not.toBeNull();
    expect(await store.oauthCodes.findByDigest(live.digest)).not.toBeNull();
  });
}
