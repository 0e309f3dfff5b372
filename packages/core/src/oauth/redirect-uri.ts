/**
 * Redirect URI rules (checklist A1–A4): registration validity, and matching a requested URI
 * against the registered ones by exact string comparison, with the RFC 8252 §7.3 exception that
 * an `http` loopback IP literal (127.0.0.1, [::1]) may use any port.
 */
import { err, ok, type Result } from "neverthrow";

/** Why a redirect URI is refused. */
export type RedirectUriProblem = "malformed" | "fragment" | "forbidden_scheme" | "credentials" | "missing_host";

/** Schemes that would run code in the browser (reference `forbid_redirect_uri`). */
const FORBIDDEN_SCHEMES = new Set(["data:", "javascript:", "vbscript:"]);

/**
 * Checks a redirect URI for registration or use: an absolute URI without whitespace or control
 * characters, without a fragment (RFC 6749 §3.1.2), without user info, with a host for http(s),
 * and not a `data:`, `javascript:` or `vbscript:` URI. Private-use schemes of native apps pass.
 */
export function validateRedirectUri(uri: string): Result<string, RedirectUriProblem> {
  // Also refuses any non-ASCII: the URI is compared byte for byte, so it must already be encoded.
  if (uri.length === 0 || uri.length > 2000 || /[^\x21-\x7e]/.test(uri)) return err("malformed");
  if (uri.includes("#")) return err("fragment");
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return err("malformed");
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return err("forbidden_scheme");
  if (url.username !== "" || url.password !== "") return err("credentials");
  // WHATWG URL repairs "https:///cb" and "http:a.example"; the raw string must name its host.
  const web = url.protocol === "http:" || url.protocol === "https:";
  if (web && (url.hostname === "" || !/^https?:\/\/[^/?#]/i.test(uri))) return err("missing_host");
  return ok(uri);
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?].*)?$/;

/** The URI without its port when it is an `http` loopback IP literal URI, else null. */
function loopbackWithoutPort(uri: string): string | null {
  const m = LOOPBACK.exec(uri);
  if (m === null) return null;
  if (m[2] !== undefined && Number(m[2]) > 65535) return null;
  return `http://${m[1]}${m[3] ?? ""}`;
}

/** Whether `requested` matches one registered URI (exact string, or loopback with another port). */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = loopbackWithoutPort(registered);
  return a !== null && a === loopbackWithoutPort(requested);
}

/**
 * Resolves the `redirect_uri` of an authorization request: it is required (spec; and A3 — never a
 * fallback to a registered URI), must be valid, and must match a registered URI. Returns the URI
 * exactly as requested (the loopback port the client chose is kept).
 */
export function resolveRedirectUri(registered: readonly string[], requested: string | undefined): Result<string, "missing" | "mismatch" | RedirectUriProblem> {
  if (requested === undefined || requested === "") return err("missing");
  const valid = validateRedirectUri(requested);
  if (valid.isErr()) return err(valid.error);
  return registered.some((r) => redirectUriMatches(r, requested)) ? ok(requested) : err("mismatch");
}
