/**
 * What the `/oauth` endpoints log about a request: method, path, status and the query with every
 * credential-bearing value masked (RFC 6750 §2.3 and §5.3: a token in a URL must not reach logs;
 * checklist G1, H3).
 */

/** Query parameters whose values are secrets (tokens, codes, verifiers, client secrets, passwords). */
export const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set([
  "access_token",
  "bearer_token",
  "private_token",
  "refresh_token",
  "id_token",
  "id_token_hint",
  "code",
  "code_verifier",
  "client_secret",
  "password",
  "token",
  "job_token",
]);

/** The query string with the values of {@link SECRET_QUERY_PARAMS} replaced by `[REDACTED]`. */
export function redactQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  return rawQuery
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, " "));
      } catch {
        // An undecodable name could hide a secret parameter: mask it too.
        return `${pair.slice(0, eq)}=[REDACTED]`;
      }
      return SECRET_QUERY_PARAMS.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=[REDACTED]` : pair;
    })
    .join("&");
}
