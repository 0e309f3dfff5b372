/**
 * The OAuth services' dependencies built from an instance configuration: the OAuth view of the
 * instance store, the runtime ports, the id_token signer (configured key or one generated and
 * stored once), the rate limiter (configured, or in memory), and the two lookups into accounts.
 */
import type { ForgekitConfig } from "../config.js";
import { ForgekitConfigError } from "../domain/config-error.js";
import type { OAuthConfig } from "./config.js";
import type { OAuthDeps, OAuthUser } from "./deps.js";
import { createIdTokenSigner } from "./id-token.js";
import { createKeyVault } from "./key-envelope.js";
import { systemRandom } from "../runtime/defaults.js";
import { pooledRandom } from "./random-pool.js";
import { createMemoryRateLimiter } from "./rate-limiter.js";
import { oauthStoreFrom } from "./store-adapter.js";

/** Hashed once per instance and verified against for unknown users, so they cost what a wrong password costs. */
const DUMMY_PASSWORD = "forgekit: no such user";

/**
 * `verifyPassword` over the accounts store and the instance's `PasswordHasher`: the login is a
 * username (case-insensitive) or an email address. Unknown users and users without a password go
 * through one hash verification too (checklist E1: same path, same timing).
 */
export function passwordVerifier(config: Pick<ForgekitConfig, "store" | "passwordHasher">): OAuthDeps["verifyPassword"] {
  let dummy: Promise<string> | null = null;
  return async (login, password) => {
    // Started before the lookup, so the first call costs the same whether the user exists or not.
    // A refused hash (password hashing at capacity) is not kept: the next call hashes again.
    dummy ??= config.passwordHasher.hash(DUMMY_PASSWORD).catch((error: unknown) => {
      dummy = null;
      throw error;
    });
    const user = login.includes("@") ? await userByEmail(config, login) : await config.store.users.findByUsername(login);
    if (user === null || user.passwordHash === null) {
      await config.passwordHasher.verify(await dummy, password);
      return null;
    }
    return (await config.passwordHasher.verify(user.passwordHash, password)) ? user : null;
  };
}

async function userByEmail(config: Pick<ForgekitConfig, "store">, email: string) {
  const row = await config.store.emails.findByEmail(email);
  return row === null ? null : config.store.users.findById(row.userId);
}

/** The resolved OAuth configuration of an instance (`issuer` = the base URL). */
export function oauthConfigOf(config: Pick<ForgekitConfig, "oauth" | "baseUrl">): OAuthConfig {
  return Object.freeze({ ...config.oauth, issuer: config.baseUrl });
}

/**
 * Builds the OAuth dependencies of an instance. A signing key (current or retired) that does not
 * parse is a `ForgekitConfigError`.
 */
export function oauthDepsFrom(config: ForgekitConfig): OAuthDeps {
  const store = oauthStoreFrom(config.store);
  // The schema already checked ids and key lengths (oauth/config.ts).
  const keyVault = createKeyVault(config.oauth.keyEncryption);
  const signer = createIdTokenSigner({
    keys: store.oauthKeys,
    clock: config.clock,
    signingKeyPem: config.oauth.signingKeyPem,
    previousSigningKeyPems: config.oauth.previousSigningKeyPems,
    vault: keyVault,
  });
  if (signer.isErr()) {
    const path = signer.error === "invalid_signing_key" ? "oauth.signingKeyPem" : "oauth.previousSigningKeyPems";
    throw new ForgekitConfigError([{ path, message: "must be a PEM RSA private key of at least 2048 bits" }]);
  }
  return {
    keyVault,
    store,
    clock: config.clock,
    // The system CSPRNG is drawn from in blocks; a host's own Random (e.g. seeded in tests) is used as is.
    random: config.random === systemRandom ? pooledRandom(systemRandom) : config.random,
    logger: config.logger,
    config: oauthConfigOf(config),
    rateLimiter: config.rateLimiter ?? createMemoryRateLimiter(config.oauth.rateLimit),
    idTokens: signer.value,
    findUser: (id): Promise<OAuthUser | null> => config.store.users.findById(id),
    verifyPassword: passwordVerifier(config),
  };
}
