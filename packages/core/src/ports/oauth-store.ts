/**
 * Storage ports of the OAuth 2.0 provider (DESIGN §5): applications, authorization codes, token
 * pairs and the provider's own keys. Secrets (client secrets, codes, access and refresh tokens)
 * are stored only as lower-case hex SHA-256 digests; lookups go by digest.
 *
 * Contract for every method: "not found" is `null`; infrastructure failures reject the promise;
 * every returned record is a copy the caller may keep. Methods called on the object
 * `transaction` hands out run inside that transaction. Single-use secrets get atomic primitives
 * (`consume`, `rotate`), never check-then-act: each states what happens under a race.
 */

/** A registered OAuth client. */
export interface OAuthApplication {
  id: number;
  /** The public client identifier (`client_id`, "Application ID"); unique. */
  uid: string;
  /** Hex SHA-256 of the client secret; the plaintext is shown once at registration. */
  secretDigest: string;
  name: string;
  /** Registered redirect URIs, each compared by exact string match (loopback: any port). */
  redirectUris: string[];
  /** Scopes the application may request. */
  scopes: string[];
  /** Confidential clients must authenticate with their secret; public ones use PKCE. */
  confidential: boolean;
  /** Trusted applications skip the consent page. */
  trusted: boolean;
  /** Whether the resource-owner password grant is allowed for this application (off by default). */
  ropcEnabled: boolean;
  /** Owning user, or null for instance-wide applications created by an administrator. */
  ownerId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What registering an OAuth application takes; the store assigns the id. */
export interface NewOAuthApplication {
  uid: string;
  secretDigest: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
  confidential: boolean;
  trusted: boolean;
  ropcEnabled: boolean;
  ownerId: number | null;
}

/** A change to an OAuth application: the fields given are written, the others kept. */
export type OAuthApplicationPatch = Partial<
  Pick<OAuthApplication, "name" | "redirectUris" | "scopes" | "confidential" | "trusted" | "ropcEnabled" | "secretDigest">
>;

/** The store's OAuth applications: create, find by id or client id (uid), list, update and delete. */
export interface OAuthApplicationRepository {
  /** Inserts an application; `null` when the uid is taken (the row is not written). */
  create(input: NewOAuthApplication, now: Date): Promise<OAuthApplication | null>;
  findById(id: number): Promise<OAuthApplication | null>;
  /** Exact (case-sensitive) lookup by client id. */
  findByUid(uid: string): Promise<OAuthApplication | null>;
  /** Ordered by id ascending; `ownerId` filters to one owner when given. */
  list(filter: { ownerId?: number }): Promise<OAuthApplication[]>;
  /** Applies the patch, sets `updatedAt = now`, returns the updated row; `null` when missing. */
  update(id: number, patch: OAuthApplicationPatch, now: Date): Promise<OAuthApplication | null>;
  /**
   * Removes the application together with its authorization codes and tokens (RFC 9700 §4.14.2:
   * removing a client ends its grants). Returns whether the application existed.
   */
  delete(id: number): Promise<boolean>;
}

/** An authorization code (RFC 6749 §4.1.2), bound to client, user, redirect URI, scopes and challenge. */
export interface OAuthAuthorizationCode {
  id: number;
  /** Hex SHA-256 of the code; unique. */
  digest: string;
  /** Grant family every token issued from this code belongs to; replay revokes the family. */
  familyId: string;
  applicationId: number;
  userId: number;
  /** The redirect URI exactly as sent in the authorization request. */
  redirectUri: string;
  scopes: string[];
  /** S256 PKCE challenge, or null when the request carried none. */
  codeChallenge: string | null;
  /** OpenID Connect nonce to copy into the id_token, or null. */
  nonce: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** When the code was redeemed (successfully or not); a consumed code never redeems again. */
  consumedAt: Date | null;
}

/** What storing an authorization code takes (the store assigns the id and creation time). */
export type NewOAuthAuthorizationCode = Omit<OAuthAuthorizationCode, "id" | "createdAt" | "consumedAt">;

/**
 * The store's authorization codes: create, find by digest, consume exactly once, and delete the expired
 * ones.
 */
export interface OAuthAuthorizationCodeRepository {
  /** Inserts a code. A digest collision rejects (it cannot happen with ≥ 160-bit codes). */
  create(input: NewOAuthAuthorizationCode, now: Date): Promise<OAuthAuthorizationCode>;
  /** The code whether consumed or not (replay detection needs consumed rows). */
  findByDigest(digest: string): Promise<OAuthAuthorizationCode | null>;
  /**
   * Atomically marks an unconsumed code consumed (`consumedAt = now`) and returns it. Expiry is
   * not checked here: the caller decides, and a failed redemption still burns the code.
   * Race: when N callers consume the same digest concurrently, exactly one gets the row; the
   * others (and every later caller) get `null`. Unknown digests give `null`.
   */
  consume(digest: string, now: Date): Promise<OAuthAuthorizationCode | null>;
  /** Deletes codes whose `expiresAt` is before `cutoff`; returns how many were deleted. */
  deleteExpired(cutoff: Date): Promise<number>;
}

/**
 * One issued access token and its refresh token (a pair: revoking either half revokes the row).
 * A grant family is the chain of pairs produced by one authorization and its refreshes.
 */
export interface OAuthToken {
  id: number;
  familyId: string;
  /** The client the pair was issued to; null for a password grant made without a client. */
  applicationId: number | null;
  userId: number;
  /** Hex SHA-256 of the access token; unique. */
  accessDigest: string;
  /** Hex SHA-256 of the refresh token; unique; null when no refresh token was issued (password grant). */
  refreshDigest: string | null;
  scopes: string[];
  /** Access-token lifetime in seconds; null = never expires. */
  expiresIn: number | null;
  /** `createdAt + expiresIn`, computed by the store; null = never expires. */
  expiresAt: Date | null;
  /** Refresh token expiry (idle and absolute limits); null = no expiry. */
  refreshExpiresAt: Date | null;
  /** When the family's first pair was issued (for the absolute refresh limit). */
  familyCreatedAt: Date;
  /** The pair this one replaced by refresh-token rotation, or null. */
  previousId: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** Set together with `revokedAt` when the refresh token was rotated (used up, not withdrawn). */
  rotatedAt: Date | null;
}

/** What storing an OAuth access token (with its refresh token) takes; the store fills the rest. */
export type NewOAuthToken = Omit<OAuthToken, "id" | "createdAt" | "expiresAt" | "revokedAt" | "rotatedAt" | "previousId">;

/**
 * The store's OAuth access and refresh tokens: create, find by id or digest, list a rotation family,
 * rotate, revoke and delete the inactive ones.
 */
export interface OAuthTokenRepository {
  /** Inserts a pair. A digest collision rejects (it cannot happen with 256-bit tokens). */
  create(input: NewOAuthToken, now: Date): Promise<OAuthToken>;
  findById(id: number): Promise<OAuthToken | null>;
  /** Finds the pair by access-token digest, revoked or not. */
  findByAccessDigest(digest: string): Promise<OAuthToken | null>;
  /** Finds the pair by refresh-token digest, revoked or not. */
  findByRefreshDigest(digest: string): Promise<OAuthToken | null>;
  /** The family's pairs, ordered by id ascending. */
  listByFamily(familyId: string): Promise<OAuthToken[]>;
  /**
   * Refresh-token rotation as one compare-and-swap: if pair `previousId` is not revoked, marks it
   * revoked and rotated at `now` and inserts `next` with `previousId` set; returns the new pair.
   * Otherwise writes nothing and returns `null`.
   * Race: when N callers rotate the same pair concurrently, exactly one gets the new pair; the
   * others get `null` and no row of theirs exists.
   */
  rotate(previousId: number, next: NewOAuthToken, now: Date): Promise<OAuthToken | null>;
  /**
   * Revokes the pair (`revokedAt = now`) if it is not revoked yet. Returns whether this call
   * revoked it; under a race exactly one caller gets `true`.
   */
  revoke(id: number, now: Date): Promise<boolean>;
  /** Revokes every unrevoked pair of the family at `now`; returns how many it revoked. Idempotent. */
  revokeFamily(familyId: string, now: Date): Promise<number>;
  /**
   * Deletes pairs that cannot authenticate anything since before `cutoff`: revoked before
   * `cutoff`, or with the access token expired before `cutoff` and no refresh token that is still
   * usable at `cutoff` (none, or `refreshExpiresAt` before `cutoff`). Live pairs survive.
   * Returns how many were deleted.
   */
  deleteInactive(cutoff: Date): Promise<number>;
}

/** Keys the provider creates once and keeps: the id_token RSA key and the consent-form HMAC key. */
export type OAuthKeyKind = "id_token_rsa" | "consent_hmac";

/** A key the OAuth provider keeps in the store: the id_token signing key or the consent-form HMAC key. */
export interface OAuthKey {
  kind: OAuthKeyKind;
  /**
   * `id_token_rsa`: PKCS#8 PEM private key. `consent_hmac`: base64url of 32 random bytes. With a
   * key-encryption key configured, either is stored as an envelope (`fkenc1.…`, oauth/key-envelope.ts);
   * the store keeps the string as given.
   */
  value: string;
  createdAt: Date;
}

/** The store's OAuth keys: read, store once (the first writer wins) and replace a value atomically. */
export interface OAuthKeyRepository {
  get(kind: OAuthKeyKind): Promise<OAuthKey | null>;
  /**
   * Stores the key unless one of that kind exists, and returns the stored key.
   * Race: when N callers put concurrently, all get the same (the first stored) key.
   */
  putIfAbsent(kind: OAuthKeyKind, value: string, now: Date): Promise<OAuthKey>;
  /**
   * Compare-and-swap of a stored key's value (start-up encrypts a plain-text key, or re-wraps it
   * under a new key-encryption key): sets `value` only if the stored value is still `expected`;
   * `createdAt` is kept. Returns whether this call replaced it.
   * Race: when N callers replace the same `expected` concurrently, exactly one gets `true`.
   */
  replace(kind: OAuthKeyKind, expected: string, value: string): Promise<boolean>;
}

/**
 * Used consent-form tokens: the form's CSRF token is stateless (an HMAC), so a record of the
 * tokens already posted is what makes each one approve or deny a single time.
 */
export interface OAuthConsentRepository {
  /**
   * Records that the consent token with this digest (hex SHA-256) was used. Returns `true` for the
   * first caller and `false` for every later one; the record is kept until `expiresAt` (when the
   * token stops verifying anyway) plus cleanup.
   * Race: when N callers mark the same digest concurrently (inside transactions or not), exactly
   * one gets `true`.
   */
  markUsed(digest: string, expiresAt: Date): Promise<boolean>;
  /** Deletes records whose `expiresAt` is before `cutoff`; returns how many were deleted. */
  deleteExpired(cutoff: Date): Promise<number>;
}

/** The OAuth repositories; a full `Store` may extend this to serve as an `OAuthStore`. */
export interface OAuthRepositories {
  oauthApplications: OAuthApplicationRepository;
  oauthCodes: OAuthAuthorizationCodeRepository;
  oauthTokens: OAuthTokenRepository;
  oauthKeys: OAuthKeyRepository;
  oauthConsents: OAuthConsentRepository;
}

/** The OAuth repositories plus a transaction (consume + issue, family revocation; checklist H6). */
export interface OAuthStore extends OAuthRepositories {
  /** Runs `fn` in one transaction: commits when it resolves, rolls back when it rejects. */
  transaction<T>(fn: (tx: OAuthRepositories) => Promise<T>): Promise<T>;
}
