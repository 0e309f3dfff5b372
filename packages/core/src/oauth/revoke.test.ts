import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../ports/oauth-store.js";
import { obtainTokens } from "../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../testing/oauth-memory-store/harness.js";
import { secretDigest } from "./digest.js";
import { passwordGrant } from "./grants/password.js";
import { refreshAccessToken } from "./grants/refresh-token.js";
import { tokenInfo } from "./introspect.js";
import { revokeToken } from "./revoke.js";
import type { TokenResponseBody } from "./token-response.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let alice: TestUser;
let tokens: TokenResponseBody;

beforeEach(async () => {
  kit = createOAuthTestKit();
  ({ application: app, clientSecret: secret } = await kit.createApp());
  alice = kit.addUser({ username: "alice" });
  tokens = await obtainTokens(kit.deps, app, secret, alice.id);
});

const revoke = (form: Record<string, string>, authorization?: string) =>
  revokeToken(kit.deps, { form: new URLSearchParams(form), ...(authorization === undefined ? {} : { authorization }) });
const own = (extra: Record<string, string>) => ({ client_id: app.uid, client_secret: secret, ...extra });
const active = async (t: string) => (await tokenInfo(kit.deps, t)).isOk();

describe("revokeToken (RFC 7009)", () => {
  it("revokes by access token and kills the refresh token too (F4)", async () => {
    expect((await revoke(own({ token: tokens.access_token })))._unsafeUnwrap()).toEqual({});
    expect(await active(tokens.access_token)).toBe(false);
    const refreshed = await refreshAccessToken(kit.deps, { client: { clientId: app.uid, clientSecret: secret, basic: false }, refreshToken: tokens.refresh_token });
    expect(refreshed._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect(kit.logs.find((l) => l.event === "oauth.token_revoked")).toMatchObject({ fields: { userId: alice.id } });
  });

  it("revokes by refresh token and kills the access token too, whatever the hint says (F1)", async () => {
    expect((await revoke(own({ token: tokens.refresh_token!, token_type_hint: "access_token" }))).isOk()).toBe(true);
    expect(await active(tokens.access_token)).toBe(false);
  });

  it("uses the hint to look at refresh tokens first", async () => {
    expect((await revoke(own({ token: tokens.refresh_token!, token_type_hint: "refresh_token" }))).isOk()).toBe(true);
    expect(await active(tokens.access_token)).toBe(false);
  });

  it("answers {} for unknown and already revoked tokens (F2)", async () => {
    expect((await revoke(own({ token: "12345" })))._unsafeUnwrap()).toEqual({});
    expect((await revoke({ token: "12345" }))._unsafeUnwrap()).toEqual({});
    expect((await revoke(own({ token: tokens.access_token }))).isOk()).toBe(true);
    expect((await revoke(own({ token: tokens.access_token })))._unsafeUnwrap()).toEqual({});
  });

  it("refuses another client's token with 403 and leaves it alive (F3)", async () => {
    const other = await kit.createApp();
    const result = await revoke({ client_id: other.application.uid, client_secret: other.clientSecret, token: tokens.access_token });
    expect(result._unsafeUnwrapErr()).toEqual({ code: "revoke_forbidden", description: "You are not authorized to revoke this token" });
    expect((await revoke({ token: tokens.access_token }))._unsafeUnwrapErr()).toMatchObject({ code: "revoke_forbidden" });
    expect(await active(tokens.access_token)).toBe(true);
  });

  it("a confidential client must authenticate; a public client revokes by client_id (F1)", async () => {
    expect((await revoke({ client_id: app.uid, token: tokens.access_token }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client" });
    const pub = (await kit.createApp({ confidential: false })).application;
    const pubTokens = await obtainTokens(kit.deps, pub, null, alice.id);
    expect((await revoke({ client_id: pub.uid, token: pubTokens.refresh_token! })).isOk()).toBe(true);
    expect(await active(pubTokens.access_token)).toBe(false);
  });

  it("accepts Basic credentials", async () => {
    const header = `Basic ${Buffer.from(`${app.uid}:${secret}`).toString("base64")}`;
    expect((await revoke({ token: tokens.access_token }, header)).isOk()).toBe(true);
  });

  it("lets anyone holding a client-less password token revoke it", async () => {
    const pw = (await passwordGrant(kit.deps, { client: { clientId: null, clientSecret: null, basic: false }, username: "alice", password: "correct horse" }))._unsafeUnwrap();
    expect((await revoke({ token: pw.access_token })).isOk()).toBe(true);
    expect((await kit.store.oauthTokens.findByAccessDigest(secretDigest(pw.access_token)))?.revokedAt).not.toBeNull();
  });

  it("requires token", async () => {
    expect((await revoke(own({})))._unsafeUnwrapErr()).toEqual({ code: "invalid_request", description: "Missing required parameter: token." });
  });
});
