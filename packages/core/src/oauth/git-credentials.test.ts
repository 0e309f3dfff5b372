import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import type { GitCredentialsInput } from "./git-credentials.js";

let t: TestForgekit;
/** OAuth access tokens by scope set, for alice (owner of grp) and bob. */
const oauth: Record<string, string> = {};

async function oauthToken(userId: number, scopes: string[]): Promise<string> {
  const app = await must(t.fk.oauth.applications.create({ name: "git", redirectUris: ["https://a.example/cb"], scopes: ["api", "read_repository", "write_repository", "read_registry"], ropcEnabled: true }));
  const user = await t.store.users.findById(userId);
  await t.store.users.update(userId, { passwordHash: await t.fk.config.passwordHasher.hash("pw-for-git") });
  const body = new URLSearchParams({ grant_type: "password", username: user!.username, password: "pw-for-git", scope: scopes.join(" "), client_id: app.application.uid, client_secret: app.clientSecret });
  const r = await t.fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new TextEncoder().encode(body.toString()) });
  return (JSON.parse(String(r.body)) as { access_token: string }).access_token;
}

beforeAll(async () => {
  t = await createTestForgekit();
  oauth.aliceRead = await oauthToken(t.users.alice.id, ["read_repository"]);
  oauth.aliceWrite = await oauthToken(t.users.alice.id, ["write_repository"]);
  oauth.aliceApi = await oauthToken(t.users.alice.id, ["api"]);
  oauth.aliceRegistry = await oauthToken(t.users.alice.id, ["read_registry"]);
  oauth.bobWrite = await oauthToken(t.users.bob.id, ["write_repository"]);
});

const check = (input: GitCredentialsInput) => must(t.fk.git.checkCredentials(input));
const privatePath = () => t.projects.privateProject.fullPath;

describe("fk.git.checkCredentials with OAuth tokens (username oauth2)", () => {
  it("read_repository reads, write_repository reads and writes, api does both", async () => {
    const read = await check({ username: "oauth2", password: oauth.aliceRead!, path: privatePath(), access: "read" });
    expect(read).toMatchObject({ allowed: true, via: "oauth", user: { id: t.users.alice.id }, project: { id: t.projects.privateProject.id } });
    expect(await check({ username: "oauth2", password: oauth.aliceRead!, path: privatePath(), access: "write" })).toEqual({ allowed: false, reason: "insufficient_scope" });
    for (const token of [oauth.aliceWrite!, oauth.aliceApi!]) {
      for (const access of ["read", "write"] as const) expect((await check({ username: "oauth2", password: token, projectId: t.projects.privateProject.id, access })).allowed).toBe(true);
    }
  });
  it("a token without a repository scope is refused; another username than oauth2 is not an OAuth login", async () => {
    expect(await check({ username: "oauth2", password: oauth.aliceRegistry!, path: privatePath(), access: "read" })).toEqual({ allowed: false, reason: "insufficient_scope" });
    expect(await check({ username: "alice", password: oauth.aliceWrite!, path: privatePath(), access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
  it("project permissions: invisible → not_found; write needs Developer; a read-only repository refuses writes", async () => {
    expect(await check({ username: "oauth2", password: oauth.bobWrite!, path: t.projects.hidden.fullPath, access: "read" })).toEqual({ allowed: false, reason: "not_found" });
    expect(await check({ username: "oauth2", password: oauth.bobWrite!, path: t.projects.internalProject.fullPath, access: "write" })).toEqual({ allowed: false, reason: "forbidden" });
    expect((await check({ username: "oauth2", password: oauth.bobWrite!, path: t.projects.internalProject.fullPath, access: "read" })).allowed).toBe(true);
    await t.store.projects.update(t.projects.personal.id, { repositoryReadOnly: true });
    expect(await check({ username: "oauth2", password: oauth.aliceWrite!, path: t.projects.personal.fullPath, access: "write" })).toEqual({ allowed: false, reason: "read_only" });
    expect(await check({ username: "oauth2", password: oauth.aliceWrite!, path: "no/such", access: "read" })).toEqual({ allowed: false, reason: "not_found" });
    expect(await check({ username: "oauth2", password: oauth.aliceWrite!, projectId: 99_999_999_999, access: "read" })).toEqual({ allowed: false, reason: "not_found" });
  });
  it("expired and unknown tokens are bad credentials", async () => {
    const fresh = await oauthToken(t.users.alice.id, ["read_repository"]);
    t.clock.advance(7201_000);
    expect(await check({ username: "oauth2", password: fresh, path: privatePath(), access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
    expect(await check({ username: "oauth2", password: "fkoa_nope", path: privatePath(), access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
});

describe("fk.git.checkCredentials with access tokens as passwords", () => {
  it("any username; read_repository, write_repository or api; revoked tokens are bad credentials", async () => {
    const { plaintext: readOnly } = await t.createToken(t.users.alice.id, { scopes: ["read_repository"] });
    expect((await check({ username: "whoever", password: readOnly, path: privatePath(), access: "read" })).allowed).toBe(true);
    expect(await check({ username: "whoever", password: readOnly, path: privatePath(), access: "write" })).toEqual({ allowed: false, reason: "insufficient_scope" });
    expect(await check({ username: "alice", password: t.tokens.alice, path: privatePath(), access: "write" })).toMatchObject({ allowed: true, via: "personal" });
    const { token, plaintext: doomed } = await t.createToken(t.users.alice.id, { scopes: ["api"] });
    await t.store.accessTokens.revoke(token.id);
    expect(await check({ username: "alice", password: doomed, path: privatePath(), access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
  it("a blocked user's token is bad credentials", async () => {
    const carol = await t.createUser({ username: "carol-git" });
    await t.addMember({ project: t.projects.hidden }, carol, AccessLevel.Developer);
    const { plaintext } = await t.createToken(carol.id, { scopes: ["api"] });
    expect((await check({ username: "carol-git", password: plaintext, path: t.projects.hidden.fullPath, access: "write" })).allowed).toBe(true);
    await t.store.users.update(carol.id, { state: "blocked" });
    expect(await check({ username: "carol-git", password: plaintext, path: t.projects.hidden.fullPath, access: "write" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
  it("bad input is an invalid_param error, not a denial", async () => {
    const r = await t.fk.git.checkCredentials({ username: "x", password: "y", path: "", access: "read" });
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "invalid_param", param: "project" });
    const a = await t.fk.git.checkCredentials({ username: "x", password: "y", projectId: 1, access: "delete" as never });
    expect(a._unsafeUnwrapErr()).toMatchObject({ code: "invalid_param", param: "access" });
  });
});

describe("fk.registry.checkCredentials", () => {
  it("OAuth tokens never log in to a registry, whatever their scopes or username", async () => {
    for (const username of ["oauth2", "alice"]) {
      expect(await must(t.fk.registry.checkCredentials({ username, password: oauth.aliceRegistry!, access: "pull" }))).toEqual({ allowed: false, reason: "oauth_not_allowed" });
    }
  });
  it("access tokens with read_registry pull, write_registry push, api both", async () => {
    const { plaintext: pull } = await t.createToken(t.users.bob.id, { scopes: ["read_registry"] });
    expect(await must(t.fk.registry.checkCredentials({ username: "bob", password: pull, access: "pull" }))).toMatchObject({ allowed: true, via: "personal" });
    expect(await must(t.fk.registry.checkCredentials({ username: "bob", password: pull, access: "push" }))).toEqual({ allowed: false, reason: "insufficient_scope" });
    expect((await must(t.fk.registry.checkCredentials({ username: "bob", password: t.tokens.bob, access: "push" }))).allowed).toBe(true);
    expect(await must(t.fk.registry.checkCredentials({ username: "bob", password: "nope", access: "pull" }))).toEqual({ allowed: false, reason: "bad_credentials" });
  });
});

describe("fk.git.checkCredentials with a username and password", () => {
  it("the user's password (username or e-mail) has every ability; a wrong one is bad credentials", async () => {
    await t.store.users.update(t.users.bob.id, { passwordHash: await t.fk.config.passwordHasher.hash("bob-git-pw") });
    expect(await check({ username: "bob", password: "bob-git-pw", path: t.projects.privateProject.fullPath, access: "write" })).toMatchObject({ allowed: true, via: "password", user: { id: t.users.bob.id } });
    expect((await check({ username: "bob@example.com", password: "bob-git-pw", path: t.projects.privateProject.fullPath, access: "read" })).allowed).toBe(true);
    expect(await check({ username: "bob", password: "nope", path: t.projects.privateProject.fullPath, access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
  it("passwords are refused when passwordAuthenticationForGit is off, and for two-factor users", async () => {
    const off = await createTestForgekit({ passwordAuthenticationForGit: false });
    const r = await must(off.fk.git.checkCredentials({ username: "alice", password: "alice-password", path: off.projects.personal.fullPath, access: "read" }));
    expect(r).toEqual({ allowed: false, reason: "bad_credentials" });
    const dave = await t.createUser({ username: "dave-2fa", password: "dave-password" });
    await t.store.users.update(dave.id, { twoFactorEnabled: true });
    expect(await check({ username: "dave-2fa", password: "dave-password", path: t.projects.publicProject.fullPath, access: "read" })).toEqual({ allowed: false, reason: "bad_credentials" });
  });
  it("failed passwords are throttled per username and address like the password grant (rate_limited with retryAfter)", async () => {
    const own = await createTestForgekit({ oauth: { rateLimit: { maxFailures: 2 } } });
    const attempt = (password: string) => must(own.fk.git.checkCredentials({ username: "alice", password, path: own.projects.personal.fullPath, access: "read", remoteAddress: "203.0.113.9" }));
    expect(await attempt("x1")).toEqual({ allowed: false, reason: "bad_credentials" });
    expect(await attempt("x2")).toEqual({ allowed: false, reason: "bad_credentials" });
    const limited = await attempt("alice-password");
    expect(limited).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect((limited as { retryAfter: number }).retryAfter).toBeGreaterThan(0);
    // Tokens are not passwords: they still work.
    expect((await must(own.fk.git.checkCredentials({ username: "alice", password: own.tokens.alice, path: own.projects.personal.fullPath, access: "read", remoteAddress: "203.0.113.9" }))).allowed).toBe(true);
  });
});

describe("fk.git.checkCredentials: roles and anonymous requests", () => {
  it("a Guest of a private project is forbidden to read its code; a Reporter reads; write needs Developer", async () => {
    const guest = await t.createUser({ username: "erin-guest" });
    await t.addMember({ project: t.projects.hidden }, guest, AccessLevel.Guest);
    const { plaintext } = await t.createToken(guest.id, { scopes: ["api"] });
    expect(await check({ username: "erin-guest", password: plaintext, path: t.projects.hidden.fullPath, access: "read" })).toEqual({ allowed: false, reason: "forbidden" });
    expect((await check({ username: "bob", password: t.tokens.bob, path: t.projects.internalProject.fullPath, access: "read" })).allowed).toBe(true);
    expect(await check({ username: "bob", password: t.tokens.bob, path: t.projects.internalProject.fullPath, access: "write" })).toEqual({ allowed: false, reason: "forbidden" });
  });
  it("without credentials: public projects can be read, nothing else (credentials_required, so that git asks)", async () => {
    expect(await check({ path: t.projects.publicProject.fullPath, access: "read" })).toMatchObject({ allowed: true, user: null, via: "anonymous" });
    for (const path of [t.projects.internalProject.fullPath, privatePath(), "no/such"]) expect(await check({ path, access: "read" })).toEqual({ allowed: false, reason: "credentials_required" });
    expect(await check({ path: t.projects.publicProject.fullPath, access: "write" })).toEqual({ allowed: false, reason: "credentials_required" });
  });
  it("a username without a password (or the reverse) is an invalid_param error", async () => {
    const r = await t.fk.git.checkCredentials({ username: "alice", path: privatePath(), access: "read" });
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "invalid_param", param: "password" });
  });
});
