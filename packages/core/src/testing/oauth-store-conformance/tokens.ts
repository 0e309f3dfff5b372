/** Conformance tests of `OAuthTokenRepository`. */
import { expect, it } from "vitest";
import { T0, at, newApplication, newToken, race, type MakeOAuthStore } from "./fixtures.js";

export function tokenTests(make: MakeOAuthStore, races: number): void {
  const setup = async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    return { store, appId: app!.id };
  };

  it("oauthTokens.create - stores every field and computes expiresAt", async () => {
    const { store, appId } = await setup();
    const input = newToken(appId, { scopes: ["api", "openid"], refreshExpiresAt: at(9000) });
    const row = await store.oauthTokens.create(input, at(10));
    expect(row.id).toBeTypeOf("number");
    expect(row).toEqual({ ...input, id: row.id, createdAt: at(10), expiresAt: at(7210), revokedAt: null, rotatedAt: null, previousId: null });
    expect(await store.oauthTokens.findById(row.id)).toEqual(row);
    expect(await store.oauthTokens.findByAccessDigest(input.accessDigest)).toEqual(row);
    expect(await store.oauthTokens.findByRefreshDigest(input.refreshDigest!)).toEqual(row);
    expect(await store.oauthTokens.findByAccessDigest(input.refreshDigest!)).toBeNull();
  });

  it("oauthTokens.create - a pair without refresh token and without expiry", async () => {
    const { store } = await setup();
    const row = await store.oauthTokens.create(newToken(null, { refreshDigest: null, expiresIn: null }), T0);
    expect(row).toMatchObject({ applicationId: null, refreshDigest: null, expiresIn: null, expiresAt: null });
  });

  it("oauthTokens.revoke - revokes once; later calls and unknown ids give false", async () => {
    const { store, appId } = await setup();
    const row = await store.oauthTokens.create(newToken(appId), T0);
    expect(await store.oauthTokens.revoke(row.id, at(5))).toBe(true);
    expect(await store.oauthTokens.revoke(row.id, at(6))).toBe(false);
    expect(await store.oauthTokens.findById(row.id)).toMatchObject({ revokedAt: at(5), rotatedAt: null });
    expect(await store.oauthTokens.revoke(row.id + 1000, at(6))).toBe(false);
  });

  it(`oauthTokens.revoke - only one of ${races} racing callers gets true`, async () => {
    const { store, appId } = await setup();
    const row = await store.oauthTokens.create(newToken(appId), T0);
    const results = await race(races, () => store.oauthTokens.revoke(row.id, at(1)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("oauthTokens.rotate - revokes and marks the old pair, inserts the new one linked to it", async () => {
    const { store, appId } = await setup();
    const old = await store.oauthTokens.create(newToken(appId), T0);
    const nextInput = newToken(appId, { refreshExpiresAt: at(5000) });
    const next = await store.oauthTokens.rotate(old.id, nextInput, at(100));
    expect(next!.id).not.toBe(old.id);
    expect(next).toEqual({ ...nextInput, id: next!.id, createdAt: at(100), expiresAt: at(7300), revokedAt: null, rotatedAt: null, previousId: old.id });
    expect(await store.oauthTokens.findById(old.id)).toMatchObject({ revokedAt: at(100), rotatedAt: at(100) });
    expect(await store.oauthTokens.listByFamily("family-1")).toEqual([{ ...old, revokedAt: at(100), rotatedAt: at(100) }, next]);
  });

  it("oauthTokens.rotate - a revoked or unknown pair gives null and writes nothing", async () => {
    const { store, appId } = await setup();
    const old = await store.oauthTokens.create(newToken(appId), T0);
    await store.oauthTokens.revoke(old.id, at(1));
    const attempt = newToken(appId);
    expect(await store.oauthTokens.rotate(old.id, attempt, at(2))).toBeNull();
    expect(await store.oauthTokens.findByAccessDigest(attempt.accessDigest)).toBeNull();
    expect(await store.oauthTokens.findById(old.id)).toMatchObject({ revokedAt: at(1), rotatedAt: null });
    expect(await store.oauthTokens.rotate(old.id + 1000, newToken(appId), at(2))).toBeNull();
  });

  it(`oauthTokens.rotate - only one of ${races} racing refreshes wins`, async () => {
    const { store, appId } = await setup();
    const old = await store.oauthTokens.create(newToken(appId), T0);
    const attempts = Array.from({ length: races }, () => newToken(appId));
    const results = await race(races, (i) => store.oauthTokens.rotate(old.id, attempts[i]!, at(1)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await store.oauthTokens.listByFamily("family-1")).toHaveLength(2);
  });

  it("oauthTokens.revokeFamily - revokes every live pair of that family only", async () => {
    const { store, appId } = await setup();
    const a = await store.oauthTokens.create(newToken(appId, { familyId: "f-a" }), T0);
    const b = await store.oauthTokens.rotate(a.id, newToken(appId, { familyId: "f-a" }), at(1));
    const other = await store.oauthTokens.create(newToken(appId, { familyId: "f-b" }), T0);
    expect(await store.oauthTokens.revokeFamily("f-a", at(9))).toBe(1);
    expect(await store.oauthTokens.findById(b!.id)).toMatchObject({ revokedAt: at(9) });
    expect(await store.oauthTokens.findById(a.id)).toMatchObject({ revokedAt: at(1) });
    expect(await store.oauthTokens.findById(other.id)).toMatchObject({ revokedAt: null });
    expect(await store.oauthTokens.revokeFamily("f-a", at(10))).toBe(0);
  });

  it("oauthTokens.deleteInactive - deletes dead pairs, live pairs survive", async () => {
    const { store, appId } = await setup();
    const cutoff = at(10_000);
    const mk = (o: Parameters<typeof newToken>[1]) => store.oauthTokens.create(newToken(appId, o), T0);
    const revokedLongAgo = await mk({});
    await store.oauthTokens.revoke(revokedLongAgo.id, at(1));
    const revokedRecently = await mk({});
    await store.oauthTokens.revoke(revokedRecently.id, at(10_001));
    const expiredNoRefresh = await mk({ refreshDigest: null });
    const expiredRefreshExpired = await mk({ refreshExpiresAt: at(9_000) });
    const expiredRefreshLive = await mk({ refreshExpiresAt: at(20_000) });
    const expiredRefreshForever = await mk({ refreshExpiresAt: null });
    const neverExpires = await mk({ refreshDigest: null, expiresIn: null });
    const accessLive = await mk({ refreshDigest: null, expiresIn: 20_000 });
    expect(await store.oauthTokens.deleteInactive(cutoff)).toBe(3);
    const gone = [revokedLongAgo, expiredNoRefresh, expiredRefreshExpired];
    const kept = [revokedRecently, expiredRefreshLive, expiredRefreshForever, neverExpires, accessLive];
    for (const t of gone) expect(await store.oauthTokens.findById(t.id)).toBeNull();
    for (const t of kept) expect(await store.oauthTokens.findById(t.id)).not.toBeNull();
  });
}
