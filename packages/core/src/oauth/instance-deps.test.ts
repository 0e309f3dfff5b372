import { describe, expect, it } from "vitest";
import { createForgekit, ForgekitConfigError } from "../forgekit.js";
import type { PasswordHasher } from "../ports/runtime.js";
import { memoryStore } from "../memory-store/index.js";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { passwordVerifier } from "./instance-deps.js";
import { rateLimitKeys } from "./rate-limiter.js";

/** A hasher that records which hashes it verified against (plain text "hash:<password>"). */
function recordingHasher(): PasswordHasher & { verified: string[] } {
  const verified: string[] = [];
  return {
    verified,
    hash: (password) => Promise.resolve(`hash:${password}`),
    verify: (hash, password) => {
      verified.push(hash);
      return Promise.resolve(hash === `hash:${password}`);
    },
  };
}

describe("passwordVerifier", () => {
  it("verifies by username (any case) or email; unknown and passwordless users verify a dummy hash once", async () => {
    const hasher = recordingHasher();
    const t = await createTestForgekit({ passwordHasher: hasher });
    await t.createUser({ username: "sso", password: null });
    const verify = passwordVerifier({ store: t.store, passwordHasher: hasher });
    hasher.verified.length = 0;
    expect((await verify("ALICE", "alice-password"))?.id).toBe(t.users.alice.id);
    expect((await verify("alice@example.com", "alice-password"))?.id).toBe(t.users.alice.id);
    expect(await verify("alice", "wrong")).toBeNull();
    expect(await verify("nobody", "alice-password")).toBeNull();
    expect(await verify("nobody@example.com", "x")).toBeNull();
    expect(await verify("sso", "anything")).toBeNull();
    // One verification per attempt, whatever the outcome (equal work for unknown users).
    expect(hasher.verified).toHaveLength(6);
    expect(hasher.verified.slice(3).every((h) => h.startsWith("hash:forgekit: no such user"))).toBe(true);
  });
});

describe("OAuth configuration of an instance", () => {
  it("a signing key that is not an RSA private key is a ForgekitConfigError naming oauth.signingKeyPem", () => {
    for (const signingKeyPem of ["not a key", "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"]) {
      let thrown: unknown = null;
      try {
        createForgekit({ baseUrl: "https://x.example", store: memoryStore(), oauth: { signingKeyPem } });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ForgekitConfigError);
      expect((thrown as ForgekitConfigError).issues).toEqual([{ path: "oauth.signingKeyPem", message: "must be a PEM RSA private key of at least 2048 bits" }]);
    }
  });

  it("unknown oauth options and out-of-range lifetimes are refused", () => {
    expect(() => createForgekit({ baseUrl: "https://x.example", store: memoryStore(), oauth: { authorizationCodeLifetimeSeconds: 3600 } })).toThrow(/oauth.authorizationCodeLifetimeSeconds/);
    expect(() => createForgekit({ baseUrl: "https://x.example", store: memoryStore(), oauth: { bogus: 1 } as never })).toThrow(ForgekitConfigError);
  });

  it("a configured rate limiter is the one the OAuth endpoints use", async () => {
    const keys: string[] = [];
    const t = await createTestForgekit({
      rateLimiter: { retryAfter: (key) => (keys.push(key), Promise.resolve(42)), recordFailure: () => Promise.resolve(), reset: () => Promise.resolve() },
    });
    const app = await must(t.fk.oauth.applications.create({ name: "a", redirectUris: ["https://a.example/cb"], scopes: ["api"] }));
    const body = new TextEncoder().encode(`grant_type=refresh_token&refresh_token=x&client_id=${app.application.uid}&client_secret=${app.clientSecret}`);
    const r = await t.fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body, remoteAddress: "10.0.0.9" });
    expect(r.status).toBe(429);
    expect(r.headers["Retry-After"]).toBe("42");
    expect(keys).toContain(rateLimitKeys.address("10.0.0.9"));
  });

  it("by default OAuth access tokens are looked up in the instance store; a host lookup replaces it", async () => {
    const t = await createTestForgekit();
    expect(await t.fk.config.oauthTokens.find("fkoa_unknown")).toBeNull();
    const hosted = await createTestForgekit({
      oauthTokens: { find: () => Promise.resolve({ id: 1, userId: 2, scopes: ["api"], expiresAt: null, revokedAt: null, applicationId: null }) },
    });
    const r = await hosted.fk.handle({ method: "GET", path: "/api/v4/user", rawQuery: "", headers: { authorization: "Bearer anything" } });
    expect(r.status).toBe(200);
  });
});
