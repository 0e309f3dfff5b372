import { describe, expect, it } from "vitest";
import { obtainCode, obtainTokens } from "../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit } from "../testing/oauth-memory-store/harness.js";
import { purgeExpiredOAuthRows } from "./cleanup.js";
import { secretDigest } from "./digest.js";
import { passwordGrant } from "./grants/password.js";
import { revokeToken } from "./revoke.js";

describe("purgeExpiredOAuthRows (checklist H5)", () => {
  it("deletes dead codes and tokens after the retention window; live tokens survive", async () => {
    const kit = createOAuthTestKit({ retentionSeconds: 3600, refreshTokenIdleSeconds: null, refreshTokenAbsoluteSeconds: null });
    const { application: app, clientSecret: secret } = await kit.createApp();
    const alice = kit.addUser({ username: "alice" });
    const staleCode = await obtainCode(kit.deps, app, alice.id);
    const live = await obtainTokens(kit.deps, app, secret, alice.id);
    const revoked = await obtainTokens(kit.deps, app, secret, alice.id);
    expect((await revokeToken(kit.deps, { form: new URLSearchParams({ client_id: app.uid, client_secret: secret, token: revoked.access_token }) })).isOk()).toBe(true);
    const password = (await passwordGrant(kit.deps, { client: { clientId: null, clientSecret: null, basic: false }, username: "alice", password: "correct horse" }))._unsafeUnwrap();

    kit.clock.advance(3000);
    expect((await purgeExpiredOAuthRows(kit.deps))._unsafeUnwrap()).toEqual({ codesDeleted: 0, tokensDeleted: 0, consentsDeleted: 0 });

    kit.clock.advance(7200 + 3600);
    const fresh = await obtainTokens(kit.deps, app, secret, alice.id);
    expect((await purgeExpiredOAuthRows(kit.deps))._unsafeUnwrap()).toEqual({ codesDeleted: 3, tokensDeleted: 2, consentsDeleted: 0 });
    expect(await kit.store.oauthCodes.findByDigest(secretDigest(staleCode))).toBeNull();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(revoked.access_token))).toBeNull();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(password.access_token))).toBeNull();
    // Expired access token, but its refresh token never expires: kept.
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(live.access_token))).not.toBeNull();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(fresh.access_token))).not.toBeNull();
    expect(kit.logs.filter((l) => l.event === "oauth.cleanup")).toHaveLength(2);
  });
});

describe("purgeExpiredOAuthRows: used consent tokens", () => {
  it("deletes a used token's record once the token has expired, not before", async () => {
    const kit = createOAuthTestKit({ consentLifetimeSeconds: 600 });
    await kit.store.oauthConsents.markUsed("a".repeat(64), new Date(kit.clock.now().getTime() + 660_000));
    kit.clock.advance(659);
    expect((await purgeExpiredOAuthRows(kit.deps))._unsafeUnwrap().consentsDeleted).toBe(0);
    kit.clock.advance(2);
    expect((await purgeExpiredOAuthRows(kit.deps))._unsafeUnwrap().consentsDeleted).toBe(1);
  });
});
