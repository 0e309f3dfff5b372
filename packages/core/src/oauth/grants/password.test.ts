import { beforeEach, describe, expect, it } from "vitest";
import type { OAuthApplication } from "../../ports/oauth-store.js";
import { createOAuthTestKit, type OAuthTestKit, type TestUser } from "../../testing/oauth-memory-store/harness.js";
import type { OAuthOptions } from "../config.js";
import { secretDigest } from "../digest.js";
import { passwordGrant, type PasswordGrantInput } from "./password.js";

let kit: OAuthTestKit;
let app: OAuthApplication;
let secret: string;
let alice: TestUser;

async function setup(options: OAuthOptions = {}) {
  kit = createOAuthTestKit(options);
  ({ application: app, clientSecret: secret } = await kit.createApp({ ropcEnabled: true, scopes: ["api", "read_user"] }));
  alice = kit.addUser({ username: "alice", password: "correct horse" });
}
beforeEach(() => setup());

const NO_CLIENT = { clientId: null, clientSecret: null, basic: false };
const grant = (input: Partial<PasswordGrantInput> = {}) =>
  passwordGrant(kit.deps, { client: { clientId: app.uid, clientSecret: secret, basic: true }, username: "alice", password: "correct horse", remoteAddress: "10.0.0.1", ...input });

describe("password grant", () => {
  it("returns only access_token, token_type and expires_in, with default scope api", async () => {
    const body = (await grant())._unsafeUnwrap();
    expect(Object.keys(body)).toEqual(["access_token", "token_type", "expires_in"]);
    expect(body).toMatchObject({ token_type: "bearer", expires_in: 7200 });
    const row = await kit.store.oauthTokens.findByAccessDigest(secretDigest(body.access_token));
    expect(row).toMatchObject({ applicationId: app.id, userId: alice.id, scopes: ["api"], refreshDigest: null, refreshExpiresAt: null });
  });

  it("works without a client when the instance allows it (spec), and is refused when it does not", async () => {
    const body = (await grant({ client: NO_CLIENT }))._unsafeUnwrap();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(body.access_token))).toMatchObject({ applicationId: null, scopes: ["api"] });
    await setup({ passwordGrantWithoutClient: false });
    expect((await grant({ client: NO_CLIENT }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client" });
  });

  it("without a client, issues only the default scopes: no sudo, no admin_mode (issue 8)", async () => {
    for (const scope of ["sudo", "admin_mode", "api sudo", "read_user sudo", "read_user"]) {
      expect((await grant({ client: NO_CLIENT, scope }))._unsafeUnwrapErr(), scope).toMatchObject({ code: "invalid_scope" });
    }
    const body = (await grant({ client: NO_CLIENT, scope: "api" }))._unsafeUnwrap();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(body.access_token))).toMatchObject({ applicationId: null, scopes: ["api"] });
    // An authenticated application that was registered with sudo still gets it (its scopes cap the grant).
    const admin = await kit.createApp({ ropcEnabled: true, scopes: ["api", "sudo"] });
    const withClient = (await grant({ client: { clientId: admin.application.uid, clientSecret: admin.clientSecret, basic: false }, scope: "api sudo" }))._unsafeUnwrap();
    expect(await kit.store.oauthTokens.findByAccessDigest(secretDigest(withClient.access_token))).toMatchObject({ scopes: ["api", "sudo"] });
  });

  it("throttles per address across usernames, and a success does not reset the address (B5, issue 8)", async () => {
    await setup({ rateLimit: { maxFailures: 3, maxFailuresPerAddress: 5, windowSeconds: 60 } });
    for (let i = 0; i < 5; i++) expect((await grant({ client: NO_CLIENT, username: `user${i}` }))._unsafeUnwrapErr().code).toBe("invalid_grant");
    // The address has had its failures: the sixth username, and even a right password, are refused from it.
    expect((await grant({ client: NO_CLIENT, username: "user5" }))._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited", retryAfterSeconds: 60 });
    expect((await grant())._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited" });
    expect((await grant({ remoteAddress: "10.0.0.2" })).isOk()).toBe(true);
    kit.clock.advance(60);
    // A success from the address resets only that user's count, never the address's.
    for (let i = 0; i < 4; i++) expect((await grant({ client: NO_CLIENT, username: `again${i}` }))._unsafeUnwrapErr().code).toBe("invalid_grant");
    expect((await grant()).isOk()).toBe(true);
    expect((await grant({ client: NO_CLIENT, username: "again4" }))._unsafeUnwrapErr().code).toBe("invalid_grant");
    expect((await grant({ client: NO_CLIENT, username: "again5" }))._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited" });
  });

  it("is off for applications that did not enable it (unauthorized_client)", async () => {
    const off = await kit.createApp();
    expect((await grant({ client: { clientId: off.application.uid, clientSecret: off.clientSecret, basic: false } }))._unsafeUnwrapErr()).toEqual({
      code: "unauthorized_client",
      description: "The client is not authorized to perform this request using this method.",
    });
  });

  it("refuses bad client credentials with invalid_client", async () => {
    expect((await grant({ client: { clientId: app.uid, clientSecret: "nope", basic: true } }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_client", basic: true });
  });

  it("gives the same invalid_grant for a wrong password, an unknown user, a two-factor user and a blocked user (B6)", async () => {
    kit.addUser({ username: "tfa", twoFactorEnabled: true });
    kit.addUser({ username: "blocked", state: "blocked" });
    const answers = [
      await grant({ password: "wrong" }),
      await grant({ username: "nobody" }),
      await grant({ username: "tfa" }),
      await grant({ username: "blocked" }),
    ].map((r) => r._unsafeUnwrapErr());
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ code: "invalid_grant" });
  });

  it("caps scopes at the application's (E1) and refuses unknown ones", async () => {
    expect((await grant({ scope: "read_user" }))._unsafeUnwrap()).toBeDefined();
    expect((await grant({ scope: "write_repository" }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_scope" });
    expect((await grant({ client: NO_CLIENT, scope: "bogus" }))._unsafeUnwrapErr()).toMatchObject({ code: "invalid_scope" });
  });

  it("requires username and password", async () => {
    expect((await passwordGrant(kit.deps, { client: NO_CLIENT, password: "x" }))._unsafeUnwrapErr()).toMatchObject({ description: "Missing required parameter: username." });
    expect((await passwordGrant(kit.deps, { client: NO_CLIENT, username: "x" }))._unsafeUnwrapErr()).toMatchObject({ description: "Missing required parameter: password." });
  });

  it("throttles per username and address, lifts after the window, and never logs the password (B5, H3)", async () => {
    await setup({ rateLimit: { maxFailures: 3, windowSeconds: 60 } });
    for (let i = 0; i < 3; i++) expect((await grant({ password: "guess-" + i }))._unsafeUnwrapErr().code).toBe("invalid_grant");
    expect((await grant())._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited", retryAfterSeconds: 60 });
    expect((await grant({ username: "ALICE" }))._unsafeUnwrapErr()).toMatchObject({ code: "rate_limited" });
    expect((await grant({ remoteAddress: "10.0.0.2" })).isOk()).toBe(true);
    kit.clock.advance(60);
    expect((await grant()).isOk()).toBe(true);
    const logged = JSON.stringify(kit.logs);
    for (const p of ["correct horse", "guess-0", "guess-1", "guess-2"]) expect(logged).not.toContain(p);
  });

  it("a success resets the failure count", async () => {
    await setup({ rateLimit: { maxFailures: 2, windowSeconds: 60 } });
    expect((await grant({ password: "x" })).isErr()).toBe(true);
    expect((await grant()).isOk()).toBe(true);
    expect((await grant({ password: "y" })).isErr()).toBe(true);
    expect((await grant()).isOk()).toBe(true);
  });
});
