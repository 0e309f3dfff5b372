/** Conformance tests of `OAuthConsentRepository` (single-use consent-form tokens) and `OAuthKeyRepository.replace`. */
import { expect, it } from "vitest";
import { T0, at, digest, newApplication, newCode, race, type MakeOAuthStore } from "./fixtures.js";

export function consentTests(make: MakeOAuthStore, races: number): void {
  it("oauthConsents.markUsed - true the first time, false for every later call", async () => {
    const store = await make();
    const d = digest("consent");
    expect(await store.oauthConsents.markUsed(d, at(3600))).toBe(true);
    expect(await store.oauthConsents.markUsed(d, at(3600))).toBe(false);
    expect(await store.oauthConsents.markUsed(d, at(7200))).toBe(false);
    expect(await store.oauthConsents.markUsed(digest("consent"), at(3600))).toBe(true);
  });

  it(`oauthConsents.markUsed - ${races} racing callers: exactly one gets true`, async () => {
    const store = await make();
    const d = digest("consent");
    const results = await race(races, () => store.oauthConsents.markUsed(d, at(3600)));
    expect(results.filter((r) => r)).toHaveLength(1);
  });

  it(`oauthConsents.markUsed - inside ${races} racing transactions that also write a code: one winner, one code`, async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const d = digest("consent");
    const codes = Array.from({ length: races }, () => newCode(app!.id));
    const results = await race(races, (i) =>
      store.transaction(async (tx) => {
        if (!(await tx.oauthConsents.markUsed(d, at(3600)))) return false;
        await tx.oauthCodes.create(codes[i]!, T0);
        return true;
      }),
    );
    expect(results.filter((r) => r)).toHaveLength(1);
    const stored = await Promise.all(codes.map((c) => store.oauthCodes.findByDigest(c.digest)));
    expect(stored.filter((c) => c !== null)).toHaveLength(1);
  });

  it("oauthConsents.markUsed - a rolled-back transaction leaves the token unused", async () => {
    const store = await make();
    const d = digest("consent");
    const failure = new Error("boom");
    await expect(
      store.transaction(async (tx) => {
        await tx.oauthConsents.markUsed(d, at(3600));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.oauthConsents.markUsed(d, at(3600))).toBe(true);
  });

  it("oauthConsents.deleteExpired - deletes records that expired before the cutoff only", async () => {
    const store = await make();
    const old = digest("consent");
    const live = digest("consent");
    await store.oauthConsents.markUsed(old, at(10));
    await store.oauthConsents.markUsed(live, at(100));
    expect(await store.oauthConsents.deleteExpired(at(50))).toBe(1);
    expect(await store.oauthConsents.markUsed(live, at(100))).toBe(false);
    expect(await store.oauthConsents.deleteExpired(at(50))).toBe(0);
  });

  it("oauthKeys.replace - swaps the value only while it is still the expected one; createdAt is kept", async () => {
    const store = await make();
    expect(await store.oauthKeys.replace("consent_hmac", "x", "y")).toBe(false);
    await store.oauthKeys.putIfAbsent("consent_hmac", "plain", T0);
    expect(await store.oauthKeys.replace("consent_hmac", "other", "sealed")).toBe(false);
    expect(await store.oauthKeys.replace("consent_hmac", "plain", "sealed")).toBe(true);
    expect(await store.oauthKeys.get("consent_hmac")).toEqual({ kind: "consent_hmac", value: "sealed", createdAt: T0 });
    expect(await store.oauthKeys.replace("consent_hmac", "plain", "again")).toBe(false);
    expect(await store.oauthKeys.get("id_token_rsa")).toBeNull();
  });

  it(`oauthKeys.replace - ${races} racing callers with one expected value: exactly one wins`, async () => {
    const store = await make();
    await store.oauthKeys.putIfAbsent("id_token_rsa", "plain-pem", T0);
    const results = await race(races, (i) => store.oauthKeys.replace("id_token_rsa", "plain-pem", `sealed-${i}`));
    expect(results.filter((r) => r)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await store.oauthKeys.get("id_token_rsa"))?.value).toBe(`sealed-${winner}`);
  });
}
