/**
 * How the clients of the outside world (the external forge, the external repository server) fail.
 * Like the repository storage port, their promises (and their page iterators) reject with one
 * error shape carrying a `reason`, checked with {@link externalFailureOf} rather than `instanceof`.
 * No message ever contains a token or a credential-bearing URL.
 */

/** Why a call to an external service failed. */
export type ExternalFailureReason =
  /** 401: the token (or username + token) is not accepted. */
  | "unauthorized"
  /** 403 (not a rate limit): the token is valid but may not read this. */
  | "forbidden"
  /** 404: no such repository / resource (or hidden from this token, as the forge does). */
  | "not_found"
  /** The service's rate limit is exhausted: wait until `resetAt`, then retry the same call. */
  | "rate_limited"
  /** The URL (or a redirect hop, or an address it resolved to) is refused by the URL guard. */
  | "blocked_url"
  /** No connection (DNS failure, refused, reset, timeout, TLS failure). */
  | "unreachable"
  /** Any other answer: an unexpected status or a body that is not what the API documents. */
  | "failed";

/** The error the clients reject with. */
export interface ExternalFailure extends Error {
  readonly name: "ExternalFailure";
  readonly reason: ExternalFailureReason;
  /** Which service answered: `extforge` or `extserver`. */
  readonly service: "extforge" | "extserver";
  /** The HTTP status, when the service answered. */
  readonly status?: number;
  /** `rate_limited`: when the limit resets (from `X-RateLimit-Reset` or `Retry-After`). */
  readonly resetAt?: Date;
  /** The service's own error text (its `message` / `errors[].message`), trimmed; never a secret. */
  readonly detail?: string;
}

const MARK = Symbol.for("forgekit.ExternalFailure");

/** Builds an {@link ExternalFailure}. `message` must not contain a secret (callers pass fixed texts). */
export function externalFailure(
  service: ExternalFailure["service"],
  reason: ExternalFailureReason,
  message: string,
  extra: { status?: number; resetAt?: Date; detail?: string; cause?: unknown } = {},
): ExternalFailure {
  const error = new Error(message, extra.cause === undefined ? undefined : { cause: extra.cause }) as Error & Record<string, unknown>;
  error["name"] = "ExternalFailure";
  Object.defineProperty(error, MARK, { value: true });
  error["reason"] = reason;
  error["service"] = service;
  if (extra.status !== undefined) error["status"] = extra.status;
  if (extra.resetAt !== undefined) error["resetAt"] = extra.resetAt;
  if (extra.detail !== undefined) error["detail"] = extra.detail;
  return error as unknown as ExternalFailure;
}

/** The failure inside `value` (a rejection of a client call), or `undefined` for anything else. */
export function externalFailureOf(value: unknown): ExternalFailure | undefined {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARK] === true ? (value as ExternalFailure) : undefined;
}

/** Resolver codes of a name that did not resolve (now): no such name yet, or the DNS server did not answer. */
const LOOKUP_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_NONAME", "EAI_FAIL", "ENODATA", "ESERVFAIL", "ETIMEOUT"]);

/**
 * The host name whose lookup failed, when `error` (or a cause it wraps: fetch's `TypeError`,
 * the REST client's fetch error) is a name-lookup failure; `undefined` otherwise. Such a failure is
 * `unreachable` (retried with backoff), never `blocked_url`: the URL guard refused nothing.
 */
export function unresolvedHostOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, hostname } = e as { code?: unknown; hostname?: unknown };
    if (typeof code === "string" && LOOKUP_CODES.has(code)) return typeof hostname === "string" ? hostname : "";
  }
  return undefined;
}

/**
 * Parses the rate-limit reset of a response: `Retry-After` (seconds or an HTTP date) wins, as the
 * forge documents for secondary limits; else `X-RateLimit-Reset` (Unix seconds). `undefined` when
 * neither is usable.
 */
export function rateLimitResetOf(headers: { get(name: string): string | null }, now: Date): Date | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter !== undefined && retryAfter !== "") {
    if (/^\d+$/.test(retryAfter)) return new Date(now.getTime() + Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return new Date(date);
  }
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset !== undefined && /^\d+$/.test(reset)) return new Date(Number(reset) * 1000);
  return undefined;
}

/** What a job needs to run `git clone --mirror` / `git fetch` against an external repository. */
export interface GitRemoteAccess {
  /** The remote URL, without credentials: safe to store and log. */
  url: string;
  /**
   * Environment variables to add to git's environment: `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` /
   * `GIT_CONFIG_VALUE_n` setting `http.extraHeader` (the Authorization header) and turning
   * redirects off, so the token never appears in a URL, on a command line or in a stored config.
   * Never log these values.
   */
  env: Record<string, string>;
}

/**
 * The {@link GitRemoteAccess} for `url` with an `Authorization` header. Redirects are not followed
 * (`http.followRedirects=false`): a redirect could take the header to another host and would skip
 * the URL guard.
 */
export function gitRemoteAccess(url: string, authorization: string): GitRemoteAccess {
  const settings: [string, string][] = [
    ["http.extraHeader", `Authorization: ${authorization}`],
    ["http.followRedirects", "false"],
    ["credential.helper", ""],
  ];
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length), GIT_TERMINAL_PROMPT: "0" };
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return { url, env };
}

/** `Basic base64(username:password)`. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}
