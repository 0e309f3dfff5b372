/**
 * Options of the OAuth provider: a zod schema meant to sit in the instance configuration as
 * `oauth: oauthOptionsSchema.prefault({})`, plus the resolved `OAuthConfig` the services read.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { decodeKeyEncryptionKey, KEY_ID_PATTERN } from "./key-envelope.js";

const DAY = 86_400;

const keyEncryptionKey = z
  .object({
    /** Names the key in every value it encrypts (letters, digits, `_`, `-`; at most 64). */
    keyId: z.string().regex(KEY_ID_PATTERN, "must be 1-64 letters, digits, _ or -"),
    /** 32 random bytes as base64 / base64url (43-44 characters) or hex (64 characters). */
    key: z.string().refine((text) => decodeKeyEncryptionKey(text) !== null, "must be 32 bytes as base64 or hex"),
  })
  .strict();

const keyEncryptionSchema = keyEncryptionKey
  .extend({ previousKeys: z.array(keyEncryptionKey).max(10).optional() })
  .strict()
  .refine((value) => new Set([value.keyId, ...(value.previousKeys ?? []).map((k) => k.keyId)]).size === 1 + (value.previousKeys?.length ?? 0), {
    message: "key ids must be distinct",
    path: ["previousKeys"],
  });

/** The input schema; defaults are the production defaults. */
export const oauthOptionsSchema = z
  .object({
    /** Access-token lifetime (spec default 7200 s; reference: all tokens expire). */
    accessTokenLifetimeSeconds: z.number().int().min(60).max(365 * DAY).default(7200),
    /** Authorization-code lifetime: 10 minutes or less (RFC 6749 §4.1.2). */
    authorizationCodeLifetimeSeconds: z.number().int().min(10).max(600).default(600),
    /** A refresh token unused this long expires (RFC 9700 §4.14.2 idle limit); null = never. */
    refreshTokenIdleSeconds: z.number().int().positive().nullable().default(90 * DAY),
    /** No refresh works this long after the grant began (absolute limit); null = never. */
    refreshTokenAbsoluteSeconds: z.number().int().positive().nullable().default(365 * DAY),
    /** Lifetime of id_tokens. */
    idTokenLifetimeSeconds: z.number().int().min(30).max(DAY).default(3600),
    /** How long a rendered consent form may be submitted. */
    consentLifetimeSeconds: z.number().int().min(60).max(DAY).default(3600),
    /**
     * Whether the password grant works without client credentials (spec: client authentication is
     * optional for it). With a client, the application's own switch (`ropcEnabled`) decides.
     */
    passwordGrantWithoutClient: z.boolean().default(true),
    /**
     * The host's sign-in page (absolute, or root-relative on the host). Signed-out visitors of the
     * authorization endpoint go there with the address to come back to in `returnToParam`.
     */
    loginUrl: z.string().min(1).default("/users/sign_in"),
    /** Query parameter of `loginUrl` that carries the return address. */
    returnToParam: z.string().regex(/^[A-Za-z0-9_.-]+$/).default("return_to"),
    /** PEM (PKCS#8 or PKCS#1) RSA private key for id_tokens; absent = generated once and stored. */
    signingKeyPem: z.string().min(1).optional(),
    /**
     * Retired id_token keys (PEM): never used to sign, but their public halves stay in the JWKS so
     * id_tokens they signed still verify. Keep one for `idTokenLifetimeSeconds` after rotating away.
     */
    previousSigningKeyPems: z.array(z.string().min(1)).max(10).optional(),
    /**
     * Key-encryption key (oauth/key-envelope.ts) that encrypts the stored id_token and consent keys
     * at rest; absent = stored in plain text. `previousKeys` still decrypt after a rotation.
     */
    keyEncryption: keyEncryptionSchema.optional(),
    /**
     * Brute-force throttling (checklist B5): failed attempts per client id and per username +
     * address before 429, failed attempts per address (client authentications and passwords
     * together), the window they count in, and how many keys the in-memory limiter may hold.
     */
    rateLimit: z
      .object({
        maxFailures: z.number().int().min(1).default(10),
        // Higher than per user: one address (a NAT, a proxy) speaks for many users at once.
        maxFailuresPerAddress: z.number().int().min(1).default(30),
        windowSeconds: z.number().int().min(1).default(300),
        maxKeys: z.number().int().min(100).default(100_000),
      })
      .prefault({}),
    /** How long revoked or expired codes and tokens are kept (replay and reuse detection) before cleanup deletes them. */
    retentionSeconds: z.number().int().min(0).default(7 * DAY),
  })
  .strict();

/**
 * The OAuth 2.0 provider's options as a host passes them in the configuration (token lifetimes, key-
 * encryption key, …).
 */
export type OAuthOptions = z.input<typeof oauthOptionsSchema>;

/** The resolved OAuth configuration. `issuer` is the instance base URL without a trailing slash. */
export type OAuthConfig = Readonly<z.output<typeof oauthOptionsSchema> & { issuer: string }>;

/** One configuration mistake: where and why. */
export interface OAuthOptionsIssue {
  path: string;
  message: string;
}

/** Resolves options against the instance base URL (already validated by the instance config). */
export function resolveOAuthConfig(baseUrl: string, options: OAuthOptions = {}): Result<OAuthConfig, OAuthOptionsIssue[]> {
  const parsed = oauthOptionsSchema.safeParse(options);
  if (!parsed.success) return err(parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  return ok(Object.freeze({ ...parsed.data, issuer: baseUrl.replace(/\/+$/, "") }));
}
