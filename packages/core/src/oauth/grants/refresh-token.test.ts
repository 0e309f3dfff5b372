import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../../ports/oauth-store.js";
import { obtainTokens } from "../../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../../testing/oauth-memory-store/harness.js";
import type { OAuthOptions } from "../config.js";
import { secretDigest } from "../digest.js";
import { tokenInfo } from "../introspect.js";
import type { TokenResponseBody } from "../token-response.js";
import { refreshAccessToken, type RefreshGrantInput } from "./refresh-token.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let alice: TestUser;
let first: TokenResponseBody;

async function setup(options: OAuthOptions = {}) {
  kit = createOAuthTestKit(options);
  ({ application: app, clientSecret: secret } = await kit.createApp());
  alice = kit.addUser({ username: "alice" });
  first = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "api read_user" });
}
beforeEach(() => setup());

const refresh = (input: Partial<RefreshGrantInput> = {}) =>
  refreshAccessToken(kit.deps, { client: { clientId: app.uid, clientSecret: secret, basic: false }, refreshToken: first.refresh_token, ...input });
const active = async (accessToken: string) => (await tokenInfo(kit.deps, accessToken)).isOk();

describe("refresh_token: rotation (D1)", () => {
  it("returns a new pair with the same scopes; the old access and refresh tokens stop working at once", async () => {
    kit.clock.advance(60);
    const next = (await refresh())._unsafeUnwrap();
    expect(next).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "api read_user", created_at: Math.floor(kit.clock.now().getTime() / 1000) });
    expect(next.access_token).not.toBe(first.access_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect(await active(first.access_token)).toBe(false);
    expect(await active(next.access_token)).toBe(true);
    const oldRow = await kit.store.oauthTokens.findByAccessDigest(secretDigest(first.access_token));
    const newRow = await kit.store.oauthTokens.findByAccessDigest(secretDigest(next.access_token));
    expect(newRow).toMatchObject({ previousId: oldRow!.id, familyId: oldRow!.familyId, familyCreatedAt: oldRow!.familyCreatedAt });
  });

  it("works after the access token expired", async () => {
    kit.clock.advance(7300);
    expect((await refresh()).isOk()).toBe(true);
  });

  it("carries an id_token when openid was granted", async () => {
    first = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "openid" });
    expect((await refresh())._unsafeUnwrap().id_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("requires refresh_token", async () => {
    expect((await refreshAccessToken(kit.deps, { client: { clientId: app.uid, clientSecret: secret, basic: false } }))._unsafeUnwrapErr()).toEqual({
      code: "invalid_request",
      description: "Missing required parameter: refresh_token.",
    });
  });
});

describe("refresh_token: reuse is theft (D2, D3)", () => {
  it("a rotated-out refresh token gives invalid_grant and revokes the whole family", async () => {
    const second = (await refresh())._unsafeUnwrap();
    expect((await refresh())._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect(await active(second.access_token)).toBe(false);
    expect((await refresh({ refreshToken: second.refresh_token }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect(kit.logs.find((l) => l.event === "oauth.refresh_reuse_detected")).toMatchObject({ level: "warn", fields: { tokensRevoked: 1 } });
  });

  it("leaves other families alone", async () => {
    const other = await obtainTokens(kit.deps, app, secret, alice.id);
    expect((await refresh()).isOk()).toBe(true);
    expect((await refresh()).isErr()).toBe(true);
    expect(await active(other.access_token)).toBe(true);
  });

  it("50 simultaneous refreshes: exactly one success, and the family revoked", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => refresh()));
    const wins = results.filter((r) => r.isOk());
    expect(wins).toHaveLength(1);
    expect(await active(wins[0]!._unsafeUnwrap().access_token)).toBe(false);
    const family = await kit.store.oauthTokens.listByFamily((await kit.store.oauthTokens.findByAccessDigest(secretDigest(first.access_token)))!.familyId);
    expect(family).toHaveLength(2);
    expect(family.every((t) => t.revokedAt !== null)).toBe(true);
  });

  it("a revoked (not rotated) refresh token gives invalid_grant", async () => {
    const row = await kit.store.oauthTokens.findByRefreshDigest(secretDigest(first.refresh_token!));
    await kit.store.oauthTokens.revoke(row!.id, kit.clock.now());
    expect((await refresh())._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect(kit.logs.some((l) => l.event === "oauth.refresh_reuse_detected")).toBe(false);
  });

  it("an unknown refresh token gives invalid_grant", async () => {
    expect((await refresh({ refreshToken: "fkor_nope" }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
  });
});

describe("refresh_token: client binding (D4) and scope (D5)", () => {
  it("another client gets invalid_grant; no client gets invalid_grant", async () => {
    const other = await kit.createApp();
    expect((await refresh({ client: { clientId: other.application.uid, clientSecret: other.clientSecret, basic: false } }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect((await refresh({ client: { clientId: null, clientSecret: null, basic: false } }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect((await refresh()).isOk()).toBe(true);
  });

  it("a confidential client must send its secret", async () => {
    expect((await refresh({ client: { clientId: app.uid, clientSecret: null, basic: false } }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client" });
    expect((await refresh({ client: { clientId: app.uid, clientSecret: "bad", basic: true } }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client", basic: true });
  });

  it("a public client refreshes with its client_id", async () => {
    const pub = (await kit.createApp({ confidential: false })).application;
    const tokens = await obtainTokens(kit.deps, pub, null, alice.id);
    const next = await refreshAccessToken(kit.deps, { client: { clientId: pub.uid, clientSecret: null, basic: false }, refreshToken: tokens.refresh_token });
    expect(next.isOk()).toBe(true);
  });

  it("narrows to a subset, refuses a wider scope, keeps the original when omitted", async () => {
    expect((await refresh({ scope: "api write_repository" }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_scope" });
    const narrowed = (await refresh({ scope: "read_user" }))._unsafeUnwrap();
    expect(narrowed.scope).toBe("read_user");
    const again = (await refresh({ refreshToken: narrowed.refresh_token, scope: "api" }))._unsafeUnwrapErr();
    expect(again).toMatchObject({ code: "invalid_scope" });
  });

  it("a user who is gone or blocked gets invalid_grant", async () => {
    kit.users.delete(alice.id);
    expect((await refresh())._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
  });
});

describe("refresh_token lifetime (D6)", () => {
  it("expires after the idle limit: just before works, just after does not", async () => {
    await setup({ refreshTokenIdleSeconds: 1000 });
    kit.clock.advance(999);
    const next = (await refresh())._unsafeUnwrap();
    kit.clock.advance(1001);
    expect((await refresh({ refreshToken: next.refresh_token }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
  });

  it("stops at the absolute limit however often it is rotated", async () => {
    await setup({ refreshTokenIdleSeconds: 1000, refreshTokenAbsoluteSeconds: 2500 });
    let token = first.refresh_token;
    for (let i = 0; i < 3; i++) {
      kit.clock.advance(800);
      token = (await refresh({ refreshToken: token }))._unsafeUnwrap().refresh_token;
    }
    kit.clock.advance(101);
    expect((await refresh({ refreshToken: token }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
  });

  it("never expires when both limits are off", async () => {
    await setup({ refreshTokenIdleSeconds: null, refreshTokenAbsoluteSeconds: null });
    kit.clock.advance(10 * 365 * 86400);
    expect((await refresh()).isOk()).toBe(true);
  });
});
