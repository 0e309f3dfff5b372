/**
 * Checklist H1 and H3 over a whole run of the services: no issued code, token, client secret or
 * password appears in the store's rows or in any log event.
 */
import { describe, expect, it } from "vitest";
import { obtainCode, TEST_VERIFIER } from "../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit } from "../testing/oauth-memory-store/harness.js";
import { exchangeAuthorizationCode } from "./grants/authorization-code.js";
import { passwordGrant } from "./grants/password.js";
import { refreshAccessToken } from "./grants/refresh-token.js";
import { secretDigest } from "./digest.js";
import { revokeToken } from "./revoke.js";

describe("secrets never stored or logged in plaintext", () => {
  it("holds after code, PKCE, refresh, reuse, replay, password and revoke flows", async () => {
    const kit = createOAuthTestKit();
    const plaintexts: string[] = [];
    const { application: app, clientSecret } = await kit.createApp({ ropcEnabled: true });
    const pub = (await kit.createApp({ confidential: false })).application;
    plaintexts.push(clientSecret);
    const alice = kit.addUser({ username: "alice", password: "hunter2-very-secret" });
    plaintexts.push(alice.password);
    const client = { clientId: app.uid, clientSecret, basic: false };

    const code = await obtainCode(kit.deps, app, alice.id, { scope: "api openid" });
    const tokens = (await exchangeAuthorizationCode(kit.deps, { client, code, redirectUri: "https://a.example/cb" }))._unsafeUnwrap();
    expect((await exchangeAuthorizationCode(kit.deps, { client, code, redirectUri: "https://a.example/cb" })).isErr()).toBe(true);
    const pubCode = await obtainCode(kit.deps, pub, alice.id);
    const pubTokens = (await exchangeAuthorizationCode(kit.deps, { client: { clientId: pub.uid, clientSecret: null, basic: false }, code: pubCode, redirectUri: "https://a.example/cb", codeVerifier: TEST_VERIFIER }))._unsafeUnwrap();
    // Another client presenting the public client's refresh token is refused without effect.
    expect((await refreshAccessToken(kit.deps, { client, refreshToken: pubTokens.refresh_token })).isErr()).toBe(true);
    const refreshed = (await refreshAccessToken(kit.deps, { client: { clientId: pub.uid, clientSecret: null, basic: false }, refreshToken: pubTokens.refresh_token }))._unsafeUnwrap();
    expect((await refreshAccessToken(kit.deps, { client: { clientId: pub.uid, clientSecret: null, basic: false }, refreshToken: pubTokens.refresh_token })).isErr()).toBe(true);
    expect((await passwordGrant(kit.deps, { client, username: "alice", password: "wrong-guess-123" })).isErr()).toBe(true);
    const pw = (await passwordGrant(kit.deps, { client, username: "alice", password: alice.password }))._unsafeUnwrap();
    expect((await revokeToken(kit.deps, { form: new URLSearchParams({ client_id: app.uid, client_secret: clientSecret, token: tokens.refresh_token! }) })).isOk()).toBe(true);
    plaintexts.push(code, pubCode, "wrong-guess-123", TEST_VERIFIER);
    for (const t of [tokens, pubTokens, refreshed, pw]) plaintexts.push(t.access_token, ...(t.refresh_token === undefined ? [] : [t.refresh_token]));

    const rows: unknown[] = [await kit.store.oauthApplications.list({})];
    for (const c of [code, pubCode]) rows.push(await kit.store.oauthCodes.findByDigest(secretDigest(c)));
    for (const t of [tokens, pubTokens, pw]) {
      const row = await kit.store.oauthTokens.findByAccessDigest(secretDigest(t.access_token));
      rows.push(await kit.store.oauthTokens.listByFamily(row!.familyId));
    }
    const dump = JSON.stringify(rows);
    const logs = JSON.stringify(kit.logs);
    expect(kit.logs.length).toBeGreaterThan(8);
    for (const secret of plaintexts) {
      expect(dump).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
