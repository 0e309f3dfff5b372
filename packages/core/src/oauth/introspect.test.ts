import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { obtainTokens } from "../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../testing/oauth-memory-store/harness.js";
import { secretDigest } from "./digest.js";
import { authorizeUserinfo, createOAuthTokenLookup, readAccessToken, tokenInfo } from "./introspect.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let alice: TestUser;

beforeEach(async () => {
  kit = createOAuthTestKit();
  ({ application: app, clientSecret: secret } = await kit.createApp());
  alice = kit.addUser({ username: "alice" });
});

describe("readAccessToken", () => {
  it("reads access_token, then Bearer, then bearer_token", () => {
    expect(readAccessToken(new URLSearchParams("access_token=q&bearer_token=b"), "Bearer h")).toBe("q");
    expect(readAccessToken(new URLSearchParams("bearer_token=b"), "bearer h")).toBe("h");
    expect(readAccessToken(new URLSearchParams("bearer_token=b"), "Basic x")).toBe("b");
    expect(readAccessToken(new URLSearchParams("access_token="), undefined)).toBeUndefined();
  });
});

describe("tokenInfo", () => {
  it("returns the spec's token info", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "api read_user" });
    kit.clock.advance(100);
    expect((await tokenInfo(kit.deps, tokens.access_token))._unsafeUnwrap()).toEqual({
      resource_owner_id: alice.id,
      scope: ["api", "read_user"],
      expires_in: 7100,
      application: { uid: app.uid },
      created_at: tokens.created_at,
      scopes: ["api", "read_user"],
      expires_in_seconds: 7100,
    });
  });

  it("an access token works at 7199 s and not at 7201 s", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id);
    kit.clock.advance(7199);
    expect((await tokenInfo(kit.deps, tokens.access_token))._unsafeUnwrap().expires_in).toBe(1);
    kit.clock.advance(2);
    expect((await tokenInfo(kit.deps, tokens.access_token))._unsafeUnwrapErr()).toEqual({ code: "invalid_token", description: "The access token is invalid" });
  });

  it("refuses missing, unknown, revoked tokens and refresh tokens (F5)", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id);
    expect((await tokenInfo(kit.deps, undefined)).isErr()).toBe(true);
    expect((await tokenInfo(kit.deps, "fkoa_nope")).isErr()).toBe(true);
    expect((await tokenInfo(kit.deps, tokens.refresh_token)).isErr()).toBe(true);
    const row = await kit.store.oauthTokens.findByAccessDigest(secretDigest(tokens.access_token));
    await kit.store.oauthTokens.revoke(row!.id, kit.clock.now());
    expect((await tokenInfo(kit.deps, tokens.access_token)).isErr()).toBe(true);
  });
});

describe("createOAuthTokenLookup (the REST API's OAuthTokenLookup)", () => {
  it("finds tokens by raw value with state, and nothing for unknown values", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "read_user" });
    const lookup = createOAuthTokenLookup(kit.deps);
    const row = await kit.store.oauthTokens.findByAccessDigest(secretDigest(tokens.access_token));
    expect(await lookup.find(tokens.access_token)).toEqual({
      id: row!.id,
      userId: alice.id,
      scopes: ["read_user"],
      expiresAt: new Date(kit.clock.now().getTime() + 7_200_000),
      revokedAt: null,
      applicationId: app.id,
    });
    expect(await lookup.find(tokens.refresh_token!)).toBeNull();
    expect(await lookup.find("nope")).toBeNull();
  });
});

describe("authorizeUserinfo", () => {
  it("grants a token with openid", async () => {
    const tokens = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "openid" });
    expect((await authorizeUserinfo(kit.deps, tokens.access_token))._unsafeUnwrap().user.id).toBe(alice.id);
  });

  it("403 insufficient_scope without openid; 401 invalid_token for bad tokens and gone users", async () => {
    const apiOnly = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "api" });
    expect((await authorizeUserinfo(kit.deps, apiOnly.access_token))._unsafeUnwrapErr()).toMatchObject({ code: "insufficient_scope", scope: "openid" });
    expect((await authorizeUserinfo(kit.deps, undefined))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_token" });
    const oid = await obtainTokens(kit.deps, app, secret, alice.id, { scope: "openid" });
    kit.users.set(alice.id, { ...alice, state: "blocked" });
    expect((await authorizeUserinfo(kit.deps, oid.access_token))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_token" });
  });
});
