/**
 * RFC 8414 §3.1 path-inserted discovery: for an issuer with a path (`https://example.com/forge`),
 * OAuth clients fetch `https://example.com/.well-known/oauth-authorization-server/forge` — outside
 * the mount point. An instance lists such root-relative aliases; the Node layer and the fetch
 * handler answer them (method GET or HEAD, whatever the mount prefix) as the mount's own
 * `/.well-known/…` path. OpenID Connect's path-appended form (`/forge/.well-known/openid-configuration`)
 * is the ordinary path below the mount and needs no alias.
 */
import { splitTarget } from "./instance.js";

const DISCOVERY_PATHS = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] as const;

/** The aliases for an issuer: `/.well-known/<doc><issuer path>` → `/.well-known/<doc>`; none for an issuer without a path. */
export function discoveryAliases(issuer: string): Readonly<Record<string, string>> {
  const path = new URL(issuer).pathname.replace(/\/+$/, "");
  if (path === "") return Object.freeze({});
  return Object.freeze(Object.fromEntries(DISCOVERY_PATHS.map((doc) => [`${doc}${path}`, doc])));
}

/** The mount path a request target's alias stands for, with its raw query; null when it is no alias. */
export function aliasedTarget(method: string, target: string, aliases: Readonly<Record<string, string>> | undefined): { path: string; rawQuery: string } | null {
  if (aliases === undefined || (method !== "GET" && method !== "HEAD")) return null;
  const split = splitTarget(target);
  const path = split === null ? undefined : aliases[split.path];
  return split === null || path === undefined ? null : { path, rawQuery: split.rawQuery };
}
