import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../../ports/oauth-store.js";
import { obtainCode, TEST_VERIFIER } from "../../testing/oauth-memory-store/flows.js";
import { createOAuthTestKit, testSigningKeyPem, type OAuthTestKit, type TestUser } from "../../testing/oauth-memory-store/harness.js";
import type { ClientCredentials } from "../client-credentials.js";
import { secretDigest } from "../digest.js";
import { tokenInfo } from "../introspect.js";
import { signingKeyFromPem } from "../signing-key.js";
import { exchangeAuthorizationCode, type CodeGrantInput } from "./authorization-code.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let pub: OAuthApplication;
let alice: TestUser;

beforeEach(async () => {
  kit = createOAuthTestKit();
  ({ application: app, clientSecret: secret } = await kit.createApp());
  pub = (await kit.createApp({ confidential: false })).application;
  alice = kit.addUser({ username: "alice" });
});

const creds = (a: OAuthApplication, s: string | null, basic = false): ClientCredentials => ({ clientId: a.uid, clientSecret: s, basic });
const redeem = (input: Partial<CodeGrantInput> & { code: string }) =>
  exchangeAuthorizationCode(kit.deps, { client: creds(app, secret), redirectUri: "https://a.example/cb", ...input });
const errorOf = async (input: Partial<CodeGrantInput> & { code: string }) => (await redeem(input))._unsafeUnwrapErr();

describe("authorization_code with a client secret", () => {
  it("returns the spec's token response and stores only digests", async () => {
    const code = await obtainCode(kit.deps, app, alice.id, { scope: "api read_user" });
    const body = (await redeem({ code }))._unsafeUnwrap();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^fkoa_[A-Za-z0-9_-]{43}$/) as unknown,
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: expect.stringMatching(/^fkor_[A-Za-z0-9_-]{43}$/) as unknown,
      scope: "api read_user",
      created_at: Math.floor(kit.clock.now().getTime() / 1000),
    });
    const row = await kit.store.oauthTokens.findByAccessDigest(secretDigest(body.access_token));
    expect(row).toMatchObject({ applicationId: app.id, userId: alice.id, scopes: ["api", "read_user"], refreshDigest: secretDigest(body.refresh_token!) });
    const logged = JSON.stringify(kit.logs);
    for (const s of [code, body.access_token, body.refresh_token!, secret]) expect(logged).not.toContain(s);
  });

  it("adds an RS256 id_token for openid, with iss, aud, sub, nonce, iat and exp", async () => {
    const code = await obtainCode(kit.deps, app, alice.id, { scope: "openid api", nonce: "n-42" });
    const body = (await redeem({ code }))._unsafeUnwrap();
    const [header, payload] = body.id_token!.split(".").slice(0, 2).map((p) => JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: "RS256", typ: "JWT", kid: signingKeyFromPem(testSigningKeyPem())._unsafeUnwrap().kid });
    const iat = Math.floor(kit.clock.now().getTime() / 1000);
    expect(payload).toEqual({ iss: "https://code.example.com", sub: String(alice.id), aud: app.uid, iat, exp: iat + 3600, nonce: "n-42" });
  });

  it("issues no id_token without openid", async () => {
    const code = await obtainCode(kit.deps, app, alice.id, { scope: "api" });
    expect((await redeem({ code }))._unsafeUnwrap()).not.toHaveProperty("id_token");
  });

  it("requires code and redirect_uri", async () => {
    expect((await exchangeAuthorizationCode(kit.deps, { client: creds(app, secret), redirectUri: "x" }))._unsafeUnwrapErr()).toEqual({
      code: "invalid_request",
      description: "Missing required parameter: code.",
    });
    expect((await exchangeAuthorizationCode(kit.deps, { client: creds(app, secret), code: "c" }))._unsafeUnwrapErr()).toMatchObject({
      description: "Missing required parameter: redirect_uri.",
    });
  });

  it("refuses a missing client, an unknown client and a wrong secret with invalid_client", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    expect(await errorOf({ code, client: { clientId: null, clientSecret: null, basic: false } })).toMatchObject({ code: "invalid_client", basic: false });
    expect(await errorOf({ code, client: { clientId: "nope", clientSecret: "x", basic: true } })).toMatchObject({ code: "invalid_client", basic: true });
    expect(await errorOf({ code, client: creds(app, secret + "x") })).toMatchObject({ code: "invalid_client" });
    // Client failures come before the code is touched, so it still redeems.
    expect((await redeem({ code })).isOk()).toBe(true);
  });

  it("a confidential client must authenticate even with a code_verifier (checklist B4)", async () => {
    const code = await obtainCode(kit.deps, app, alice.id, { pkce: true });
    expect(await errorOf({ code, client: creds(app, null), codeVerifier: TEST_VERIFIER })).toMatchObject({ code: "invalid_client" });
    expect((await redeem({ code, codeVerifier: TEST_VERIFIER })).isOk()).toBe(true);
  });
});

describe("authorization_code with PKCE", () => {
  it("a public client redeems with client_id and verifier only", async () => {
    const code = await obtainCode(kit.deps, pub, alice.id);
    const body = (await exchangeAuthorizationCode(kit.deps, { client: creds(pub, null), code, redirectUri: "https://a.example/cb", codeVerifier: TEST_VERIFIER }))._unsafeUnwrap();
    expect(body).toMatchObject({ token_type: "bearer", scope: "api" });
  });

  it.each([
    ["no verifier", undefined],
    ["a wrong verifier", TEST_VERIFIER.replace("k", "K")],
    ["a malformed verifier", "short"],
    ["the challenge itself", "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U"],
  ])("%s gives invalid_grant and burns the code (checklist C5)", async (_label, codeVerifier) => {
    const code = await obtainCode(kit.deps, pub, alice.id);
    const input = { client: creds(pub, null), code, redirectUri: "https://a.example/cb" };
    expect((await exchangeAuthorizationCode(kit.deps, { ...input, ...(codeVerifier === undefined ? {} : { codeVerifier }) }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
    expect((await exchangeAuthorizationCode(kit.deps, { ...input, codeVerifier: TEST_VERIFIER }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_grant" });
  });

  it("a verifier for a code issued without a challenge gives invalid_grant (downgrade, C6)", async () => {
    const code = await obtainCode(kit.deps, app, alice.id, { pkce: false });
    expect(await errorOf({ code, codeVerifier: TEST_VERIFIER })).toMatchObject({ code: "invalid_grant" });
  });
});

describe("authorization_code: binding, expiry, single use", () => {
  it("expires at the code lifetime: 599 s accepted, 601 s refused (C4)", async () => {
    const early = await obtainCode(kit.deps, app, alice.id);
    const late = await obtainCode(kit.deps, app, alice.id);
    const edge = await obtainCode(kit.deps, app, alice.id);
    kit.clock.advance(599);
    expect((await redeem({ code: early })).isOk()).toBe(true);
    kit.clock.advance(1);
    expect(await errorOf({ code: edge })).toMatchObject({ code: "invalid_grant" });
    kit.clock.advance(1);
    expect(await errorOf({ code: late })).toMatchObject({ code: "invalid_grant" });
  });

  it("another client's code and another redirect_uri give invalid_grant (C3)", async () => {
    const other = await kit.createApp();
    const code = await obtainCode(kit.deps, app, alice.id);
    expect(await errorOf({ code, client: creds(other.application, other.clientSecret) })).toMatchObject({ code: "invalid_grant" });
    const code2 = await obtainCode(kit.deps, app, alice.id);
    expect(await errorOf({ code: code2, redirectUri: "https://a.example/cb/" })).toMatchObject({ code: "invalid_grant" });
  });

  it("an unknown code gives invalid_grant", async () => {
    expect(await errorOf({ code: "fkoc_unknown" })).toEqual({
      code: "invalid_grant",
      description: "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
    });
  });

  it("a user who is gone or blocked by redemption time gets invalid_grant", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    kit.users.set(alice.id, { ...alice, state: "blocked" });
    expect(await errorOf({ code })).toMatchObject({ code: "invalid_grant" });
  });

  it("a replayed code gives invalid_grant and revokes the tokens issued from it (C2)", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    const first = (await redeem({ code }))._unsafeUnwrap();
    expect((await tokenInfo(kit.deps, first.access_token)).isOk()).toBe(true);
    expect(await errorOf({ code })).toMatchObject({ code: "invalid_grant" });
    expect((await tokenInfo(kit.deps, first.access_token))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_token" });
    expect((await kit.store.oauthTokens.findByRefreshDigest(secretDigest(first.refresh_token!)))?.revokedAt).toEqual(kit.clock.now());
    const replay = kit.logs.find((l) => l.event === "oauth.code_replayed");
    expect(replay).toMatchObject({ level: "warn", fields: { tokensRevoked: 1 } });
  });

  it("50 simultaneous redemptions of one code: exactly one success (C1)", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    const results = await Promise.all(Array.from({ length: 50 }, () => redeem({ code })));
    expect(results.filter((r) => r.isOk())).toHaveLength(1);
    for (const r of results.filter((x) => x.isErr())) expect(r._unsafeUnwrapErr().code).toBe("invalid_grant");
  });

  it("throttles repeated client failures, then lifts the block after the window — never for the client with its secret (B5, issue 8)", async () => {
    const code = await obtainCode(kit.deps, app, alice.id);
    const wrong = creds(app, "wrong");
    for (let i = 0; i < 10; i++) expect(await errorOf({ code, client: wrong, remoteAddress: "203.0.113.7" })).toMatchObject({ code: "invalid_client" });
    // The id has had its failures: more wrong secrets are refused from any address…
    expect(await errorOf({ code, client: wrong, remoteAddress: "198.51.100.1" })).toEqual({ code: "rate_limited", description: "Too many failed attempts. Try again later.", retryAfterSeconds: 300 });
    expect(await errorOf({ code, client: wrong })).toMatchObject({ code: "rate_limited" });
    kit.clock.advance(300);
    expect(await errorOf({ code, client: wrong })).toMatchObject({ code: "invalid_client" });
    // …while the client that presents its secret was never locked out by them.
    const other = await obtainCode(kit.deps, app, alice.id);
    for (let i = 0; i < 10; i++) expect((await redeem({ code: other, client: wrong, remoteAddress: "203.0.113.8" })).isErr()).toBe(true);
    expect((await redeem({ code: other, remoteAddress: "192.0.2.10" })).isOk()).toBe(true);
  });
});
