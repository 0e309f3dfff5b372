/** What the OAuth services need: the store port, runtime ports and two small lookups into accounts. */
import type { User } from "../accounts/types.js";
import type { OAuthStore } from "../ports/oauth-store.js";
import type { Clock, Logger, Random } from "../ports/runtime.js";
import type { OAuthConfig } from "./config.js";
import type { IdTokenSigner } from "./id-token.js";
import type { KeyVault } from "./key-envelope.js";
import type { RateLimiter } from "./rate-limiter.js";

/** The user fields the OAuth services read; the accounts `User` satisfies it. */
export type OAuthUser = Pick<User, "id" | "username" | "state" | "twoFactorEnabled">;

export interface OAuthDeps {
  store: OAuthStore;
  clock: Clock;
  random: Random;
  /** Audit events (`oauth.*`); fields never carry secrets. */
  logger: Logger;
  config: OAuthConfig;
  rateLimiter: RateLimiter;
  idTokens: IdTokenSigner;
  /** Seals and opens the stored provider keys (`oauth.keyEncryption`); absent = plain text. */
  keyVault?: KeyVault;
  /** The user by id, or null when it no longer exists. */
  findUser(id: number): Promise<OAuthUser | null>;
  /**
   * The user whose login and password these are, or null. Implementations take the same time
   * for unknown users as for wrong passwords (hash a dummy; checklist E1).
   */
  verifyPassword(username: string, password: string): Promise<OAuthUser | null>;
}
