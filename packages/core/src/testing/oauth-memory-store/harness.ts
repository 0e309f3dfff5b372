/**
 * A ready-made `OAuthDeps` over the memory store for service and endpoint tests: a settable clock,
 * OS randomness, an in-memory user table with plaintext test passwords, a captured log, and one
 * RSA signing key shared by the whole test process (generating keys is slow).
 */
import { generateKeyPairSync } from "node:crypto";
import type { OAuthStore } from "../../ports/oauth-store.js";
import type { Clock, LogLevel } from "../../ports/runtime.js";
import { createApplication, type ApplicationWithSecret, type NewApplicationInput } from "../../oauth/applications.js";
import { resolveOAuthConfig, type OAuthOptions } from "../../oauth/config.js";
import type { OAuthDeps, OAuthUser } from "../../oauth/deps.js";
import { createIdTokenSigner } from "../../oauth/id-token.js";
import { createKeyVault } from "../../oauth/key-envelope.js";
import { createMemoryRateLimiter } from "../../oauth/rate-limiter.js";
import { createMemoryOAuthStore } from "./index.js";

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  set(date: Date): void;
  advance(seconds: number): void;
}

/** A {@link ManualClock} starting at `start` (default 2030-01-01 UTC). */
export function manualClock(start = new Date("2030-01-01T00:00:00.000Z")): ManualClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = d.getTime();
    },
    advance: (s) => {
      t += s * 1000;
    },
  };
}

let sharedPem: string | null = null;
/** One 2048-bit RSA key per test process. */
export function testSigningKeyPem(): string {
  sharedPem ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return sharedPem;
}

/** A user of the OAuth test kit, with the password it signs in with. */
export interface TestUser extends OAuthUser {
  password: string;
}

/**
 * The OAuth provider on an in-memory store with a manual clock: its dependencies, users, captured logs and
 * an application factory.
 */
export interface OAuthTestKit {
  deps: OAuthDeps;
  store: OAuthStore;
  clock: ManualClock;
  logs: { level: LogLevel; event: string; fields?: Record<string, unknown> }[];
  users: Map<number, TestUser>;
  addUser(input: Partial<TestUser> & { username: string }): TestUser;
  /** Registers an application (defaults: confidential, `api read_user openid`, `https://a.example/cb`). */
  createApp(input?: Partial<NewApplicationInput>): Promise<ApplicationWithSecret>;
}

/**
 * Builds an {@link OAuthTestKit} with `options` and `issuer` (an in-memory OAuth store, a manual clock, a
 * shared test signing key).
 */
export function createOAuthTestKit(options: OAuthOptions = {}, issuer = "https://code.example.com"): OAuthTestKit {
  const store = createMemoryOAuthStore();
  const clock = manualClock();
  const logs: OAuthTestKit["logs"] = [];
  const users = new Map<number, TestUser>();
  const config = resolveOAuthConfig(issuer, options)._unsafeUnwrap();
  const deps: OAuthDeps = {
    store,
    clock,
    random: { read: (bytes) => void globalThis.crypto.getRandomValues(bytes) },
    logger: { log: (level, event, fields) => void logs.push({ level, event, ...(fields === undefined ? {} : { fields }) }) },
    config,
    rateLimiter: createMemoryRateLimiter(config.rateLimit),
    idTokens: createIdTokenSigner({ keys: store.oauthKeys, clock, signingKeyPem: testSigningKeyPem() })._unsafeUnwrap(),
    keyVault: createKeyVault(config.keyEncryption),
    findUser: (id) => Promise.resolve(users.get(id) ?? null),
    verifyPassword: (username, password) => {
      const user = [...users.values()].find((u) => u.username.toLowerCase() === username.toLowerCase());
      return Promise.resolve(user !== undefined && user.password === password ? user : null);
    },
  };
  return {
    deps,
    store,
    clock,
    logs,
    users,
    addUser(input) {
      const user: TestUser = { id: users.size + 1, state: "active", twoFactorEnabled: false, password: "correct horse", ...input };
      users.set(user.id, user);
      return user;
    },
    async createApp(input = {}) {
      const created = await createApplication(deps, {
        name: "Demo app",
        redirectUris: ["https://a.example/cb"],
        scopes: ["api", "read_user", "openid"],
        ...input,
      });
      return created._unsafeUnwrap();
    },
  };
}
