/** Ports through which the host application plugs its own pieces into forgekit. */

/** What a {@link SessionResolver} sees of a request: enough to find a session however the host keeps it. */
export interface SessionRequest {
  /** Upper-case method. */
  method: string;
  /** The path below forgekit's mount point (percent-encoded, no query). */
  path: string;
  /** Header names in lower case (repeated headers joined with ", "). */
  headers: Readonly<Record<string, string>>;
  /** The `Cookie` header parsed: name → value (percent-decoded when well formed; the first of repeated names). */
  cookies: Readonly<Record<string, string>>;
  /** The peer's address, when the adapter knows it. */
  remoteAddress?: string;
}

/**
 * The host's login session (the REST API's fourth way to authenticate, and who sees the OAuth
 * consent page). By default the session lives in the `_service_session` cookie: `resolve` gets that
 * cookie's value and the request, and returns the forgekit user id or null (signed out, unknown).
 * Hosts that name the cookie differently (`connect.sid`, `koa.sess`, a JWT cookie) set `cookieName`;
 * hosts whose session is not one cookie (a header, several cookies) set `cookieName: null`, and
 * `resolve` is then called with `""` for every request that carries no other credential — read
 * `request.headers` / `request.cookies` yourself.
 */
export interface SessionResolver {
  /** The session cookie's name (default `_service_session`); `null`: no cookie, `resolve` reads the request. */
  cookieName?: string | null;
  /** The forgekit user id the session belongs to, or null when signed out or unknown. */
  resolve(cookieValue: string, request: SessionRequest): Promise<number | null>;
  /**
   * Checks the `X-CSRF-Token` header of a non-GET/HEAD request made with the session (reference
   * §2.2: the session authenticates unsafe requests only with a valid CSRF token). Without this
   * method the session authenticates GET and HEAD requests only. `cookieValue` is what `resolve`
   * got (`""` with `cookieName: null`).
   */
  verifyCsrfToken?(cookieValue: string, token: string, request: SessionRequest): Promise<boolean>;
}

/** Resolves a CI job token on routes that opt in (reference: `job_token_allowed`). */
export interface JobTokenResolver {
  /** The user and project a CI job token belongs to, or null when it is not a valid running job's token. */
  resolve(token: string): Promise<{ userId: number; projectId: number } | null>;
}

/**
 * What the host's spam checker is asked about: who wrote which text for which kind of record, and any
 * CAPTCHA answer.
 */
export interface SpamCheckInput {
  /**  null;|The author, or null for an anonymous request. */
  userId: number | null;
  /** e.g. "snippet", "issue". */
  target: string;
  /** The text to classify. */
  text: string;
  /** Present when the client retried with `X-Service-Captcha-Response` / `X-Service-Spam-Log-Id`. */
  captchaResponse?: string;
  /** The spam log id of the refused request a CAPTCHA answer is for. */
  spamLogId?: number;
}

/**
 * The spam checker's answer: not spam, or spam with the message to show and optionally a CAPTCHA to solve.
 */
export type SpamVerdict =
  | { spam: false }
  | { spam: true; message: string; captcha?: { spamLogId: number; siteKey: string } };

/** Classifies user content; when it flags a request the API answers as the spec's "Body shapes" 5. */
export interface SpamChecker {
  /**
   * Classifies the content: not spam, or spam with the message to show (and a CAPTCHA, when the host
   * offers one).
   */
  check(input: SpamCheckInput): Promise<SpamVerdict>;
}
