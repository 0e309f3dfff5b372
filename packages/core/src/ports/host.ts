/** Ports through which the host application plugs its own pieces into forgekit. */

/** Resolves the host's `_service_session` cookie to a forgekit user id (or null when signed out). */
export interface SessionResolver {
  resolve(cookieValue: string): Promise<number | null>;
  /**
   * Checks the `X-CSRF-Token` header of a non-GET/HEAD request made with the session (reference
   * §2.2: the session authenticates unsafe requests only with a valid CSRF token). Without this
   * method the session authenticates GET and HEAD requests only.
   */
  verifyCsrfToken?(cookieValue: string, token: string): Promise<boolean>;
}

/** Resolves a CI job token on routes that opt in (reference: `job_token_allowed`). */
export interface JobTokenResolver {
  resolve(token: string): Promise<{ userId: number; projectId: number } | null>;
}

export interface SpamCheckInput {
  userId: number | null;
  /** e.g. "snippet", "issue". */
  target: string;
  text: string;
  /** Present when the client retried with `X-Service-Captcha-Response` / `X-Service-Spam-Log-Id`. */
  captchaResponse?: string;
  spamLogId?: number;
}

export type SpamVerdict =
  | { spam: false }
  | { spam: true; message: string; captcha?: { spamLogId: number; siteKey: string } };

/** Classifies user content; when it flags a request the API answers as the spec's "Body shapes" 5. */
export interface SpamChecker {
  check(input: SpamCheckInput): Promise<SpamVerdict>;
}
