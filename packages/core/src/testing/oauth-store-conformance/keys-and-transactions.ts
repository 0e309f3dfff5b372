/** Conformance tests of `OAuthKeyRepository` and `OAuthStore.transaction`. */
import { expect, it } from "vitest";
import { T0, at, newApplication, newCode, race, type MakeOAuthStore } from "./fixtures.js";

export function keyAndTransactionTests(make: MakeOAuthStore, races: number): void {
  it("oauthKeys.putIfAbsent - stores once; later puts return the first key", async () => {
    const store = await make();
    expect(await store.oauthKeys.get("id_token_rsa")).toBeNull();
    const first = await store.oauthKeys.putIfAbsent("id_token_rsa", "pem-1", T0);
    expect(first).toEqual({ kind: "id_token_rsa", value: "pem-1", createdAt: T0 });
    expect(await store.oauthKeys.putIfAbsent("id_token_rsa", "pem-2", at(1))).toEqual(first);
    expect(await store.oauthKeys.get("id_token_rsa")).toEqual(first);
    expect(await store.oauthKeys.get("consent_hmac")).toBeNull();
  });

  it(`oauthKeys.putIfAbsent - ${races} racing callers all get the same key`, async () => {
    const store = await make();
    const results = await race(races, (i) => store.oauthKeys.putIfAbsent("consent_hmac", `key-${i}`, T0));
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(await store.oauthKeys.get("consent_hmac")).toEqual(results[0]);
  });

  it("transaction - commits what fn wrote when it resolves", async () => {
    const store = await make();
    const app = await store.transaction(async (tx) => {
      const created = await tx.oauthApplications.create(newApplication(), T0);
      await tx.oauthCodes.create(newCode(created!.id), T0);
      return created;
    });
    expect(await store.oauthApplications.findById(app!.id)).toEqual(app);
  });

  it("transaction - rolls back every write when fn rejects", async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const code = newCode(app!.id);
    await store.oauthCodes.create(code, T0);
    const failure = new Error("boom");
    const attempt = store.transaction(async (tx) => {
      await tx.oauthCodes.consume(code.digest, at(1));
      await tx.oauthApplications.update(app!.id, { name: "changed" }, at(1));
      throw failure;
    });
    await expect(attempt).rejects.toBe(failure);
    expect(await store.oauthCodes.findByDigest(code.digest)).toMatchObject({ consumedAt: null });
    expect(await store.oauthApplications.findById(app!.id)).toMatchObject({ name: "Demo app" });
  });

  it(`transaction - consume inside ${races} racing transactions: one winner`, async () => {
    const store = await make();
    const app = await store.oauthApplications.create(newApplication(), T0);
    const code = newCode(app!.id);
    await store.oauthCodes.create(code, T0);
    const results = await race(races, () => store.transaction((tx) => tx.oauthCodes.consume(code.digest, at(1))));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
}
