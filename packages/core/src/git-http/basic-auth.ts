/** HTTP Basic credentials (RFC 7617), as git sends them after a 401 or from `http://user:pass@host/` URLs. */

/**
 * The username and password of an `Authorization: Basic …` header; `null` without one or for
 * another scheme (the reference then treats the request as anonymous). A user-pass without a
 * colon is a username with an empty password, which no check accepts.
 */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  if (header === undefined) return null;
  const m = /^Basic[ \t]+([A-Za-z0-9+/=_-]*)[ \t]*$/i.exec(header);
  if (m === null) return null;
  const decoded = Buffer.from(m[1] ?? "", "base64").toString("utf8");
  // RFC 7617 §2: the user-id cannot contain a colon; the password may.
  const colon = decoded.indexOf(":");
  return colon === -1 ? { username: decoded, password: "" } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
