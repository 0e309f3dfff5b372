/** Row builders shared by the OAuth store conformance tests. */
import type { NewOAuthApplication, NewOAuthAuthorizationCode, NewOAuthToken, OAuthStore } from "../../ports/oauth-store.js";

/** How a conformance suite obtains a fresh, empty store for each test. */
export type MakeOAuthStore = () => Promise<OAuthStore> | OAuthStore;

/** A fixed instant the suites count from. */
export const T0 = new Date("2030-01-01T00:00:00.000Z");

/** `T0` plus `seconds`. */
export const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

let counter = 0;
/** A unique 64-hex-character digest-shaped string. */
export function digest(label: string): string {
  counter += 1;
  return (Buffer.from(`${label}:${counter}`).toString("hex") + "0".repeat(64)).slice(0, 64);
}

export function newApplication(overrides: Partial<NewOAuthApplication> = {}): NewOAuthApplication {
  return {
    uid: digest("uid"),
    secretDigest: digest("secret"),
    name: "Demo app",
    redirectUris: ["https://a.example/cb"],
    scopes: ["api", "read_user", "openid"],
    confidential: true,
    trusted: false,
    ropcEnabled: false,
    ownerId: 7,
    ...overrides,
  };
}

export function newCode(applicationId: number, overrides: Partial<NewOAuthAuthorizationCode> = {}): NewOAuthAuthorizationCode {
  return {
    digest: digest("code"),
    familyId: digest("family"),
    applicationId,
    userId: 7,
    redirectUri: "https://a.example/cb",
    scopes: ["api"],
    codeChallenge: null,
    nonce: null,
    expiresAt: at(600),
    ...overrides,
  };
}

export function newToken(applicationId: number | null, overrides: Partial<NewOAuthToken> = {}): NewOAuthToken {
  return {
    familyId: "family-1",
    applicationId,
    userId: 7,
    accessDigest: digest("access"),
    refreshDigest: digest("refresh"),
    scopes: ["api"],
    expiresIn: 7200,
    refreshExpiresAt: null,
    familyCreatedAt: T0,
    ...overrides,
  };
}

/** Runs `n` copies of `fn` concurrently. */
export function race<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}
