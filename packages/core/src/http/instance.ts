/** What adapters mount: anything that handles framework-agnostic requests (a forgekit instance, or a bare handler). */
import type { GitHttpServer } from "../git-http/types.js";
import type { HttpRequest, HttpResponse } from "./types.js";

/** Request-target prefixes forgekit serves below its mount point (adapters pass everything else on). */
export const DEFAULT_MOUNT_PATHS: readonly string[] = Object.freeze([
  "/api/v4",
  "/oauth",
  "/.well-known/openid-configuration",
  "/.well-known/oauth-authorization-server",
  "/.well-known/webfinger",
]);

/** The object adapters mount; a forgekit instance is one. */
export interface HttpInstance {
  /** Never rejects: failures are rendered responses. */
  handle(req: HttpRequest): Promise<HttpResponse>;
  /** Largest body the instance accepts; adapters stop reading past it (413). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Git over HTTP (smart protocol). Hosts hand it the requests it `matches` (below the mount
   * prefix, outside {@link MountOptions.paths}) before reading their bodies, and stream both ways.
   */
  readonly gitHttp?: GitHttpServer;
  /**
   * Whether the instance has a route for `method` + `path` (below the mount; a path that exists
   * only for other methods counts). Lets {@link MountOptions.unknownRoutes} `"next"` hand the rest to the host.
   */
  serves?(method: string, path: string): boolean;
  /**
   * Root-relative discovery aliases (RFC 8414 §3.1 path-inserted form for an issuer with a path):
   * alias → the mount path it answers as (http/discovery-alias.ts).
   */
  readonly discoveryAliases?: Readonly<Record<string, string>>;
}

/** Options shared by the Node layer, the fetch handler and both adapters. */
export interface MountOptions {
  /** Path prefix to strip before routing (e.g. `/forge` when the host routes by full URL). Default none. */
  prefix?: string;
  /** Overrides the instance's body limit. */
  maxBodyBytes?: number;
  /**
   * Prefixes (below the mount) that go to forgekit; default {@link DEFAULT_MOUNT_PATHS}. Given, they
   * govern git over HTTP too: a git path is served only below one of them (`["/"]` serves every
   * one, `[]` none), so a root mount with `paths: []` next to a sub-path mount leaves the sub-path's
   * git requests to the sub-path mount.
   */
  paths?: readonly string[];
  /**
   * Serve git over HTTP (`/<namespace>/<project>(.git)/info/refs`, `…/git-upload-pack`,
   * `…/git-receive-pack`) when the instance has it: every git path by default, those below
   * {@link paths} when they are given. False leaves them all to the host.
   */
  git?: boolean;
  /**
   * What happens to a request below forgekit's paths that matches none of its routes
   * (`/api/v4/my-own-thing`): `"answer"` (default) answers 404 as the reference does; `"next"`
   * passes it to the host's next handler (express `next()`, koa `next()`; the bare node handler
   * still answers 404), so a host can add its own `/api/v4` routes after forgekit.
   */
  unknownRoutes?: "answer" | "next";
}

/** `true` when `path` is one of `prefixes` or below it (`/` covers every path). */
export function servesPath(path: string, prefixes: readonly string[] = DEFAULT_MOUNT_PATHS): boolean {
  return prefixes.some((p) => p === "/" || path === p || path.startsWith(`${p}/`));
}

/**
 * Whether a (possible) git path goes to forgekit: outside the API's own prefixes, and below
 * `paths` when a mount gives them (any git path otherwise).
 */
export function servesGitPath(path: string, paths: readonly string[] | undefined): boolean {
  return !servesPath(path, DEFAULT_MOUNT_PATHS) && (paths === undefined || servesPath(path, paths));
}

/**
 * Splits a request target into the percent-encoded path below `prefix` and the raw query; `null`
 * when the target is outside the prefix.
 */
export function splitTarget(target: string, prefix = ""): { path: string; rawQuery: string } | null {
  let rest = target;
  // Absolute-form targets (RFC 9112 §3.2.2) carry scheme and authority.
  if (!rest.startsWith("/")) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
    rest = m === null ? `/${rest}` : rest.slice(m[0].length) || "/";
  }
  const hash = rest.indexOf("#");
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf("?");
  let path = q === -1 ? rest : rest.slice(0, q);
  const rawQuery = q === -1 ? "" : rest.slice(q + 1);
  const base = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  if (base !== "") {
    if (path !== base && !path.startsWith(`${base}/`)) return null;
    path = path.slice(base.length) || "/";
  }
  return { path, rawQuery };
}
