/**
 * Route matching over the route table (DESIGN §3; spec "Endpoints" preamble, reference §3.3).
 * `:name` matches one non-empty segment and is percent-decoded, so `grp%2Fproj` is the single
 * value `grp/proj`; an un-encoded `/` never matches. A `.json` suffix is tolerated when the route's
 * last segment is a literal (inside a placeholder it stays part of the value, like the reference).
 * One trailing slash is tolerated (Sentry SDKs post to `…/envelope/`).
 * Paths outside the root — `/api/v3/*` included — are `not_found` (rendered 404
 * `{"error":"404 Not Found"}`; the reference's 410 for v3 has no ForgekitError code, and the
 * spec says only v4 exists). The adapters pass such paths to the host anyway.
 */
import { decodeComponent } from "./query.js";
import type { HttpMethod, Route } from "./types.js";

/** The REST root every route lives under (spec "Versioning" 1). */
export const API_ROOT = "/api/v4";

/** A route of any parameter type; the router only needs its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = Route<any>;

interface Node {
  literals: Map<string, Node>;
  param?: { name: string; node: Node };
  routes: Map<HttpMethod, AnyRoute>;
  /** Placeholder names along the path, in order (one name list per terminal node). */
  names?: string[];
}

/** What a lookup found. */
export type RouteMatch =
  | { kind: "matched"; route: AnyRoute; pathParams: Record<string, string> }
  /** The path exists but not for this method; `allow` lists its methods (with HEAD and OPTIONS). */
  | { kind: "method_not_allowed"; allow: string[] }
  /** `OPTIONS` on a known path. */
  | { kind: "options"; allow: string[] }
  | { kind: "not_found" };

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const newNode = (): Node => ({ literals: new Map(), routes: new Map() });

/** A compiled route table. */
export interface Router {
  /** Looks up `method` + a percent-encoded `path` (below the mount point, including `/api/v4`). */
  match(method: string, path: string): RouteMatch;
}

/** Compiles the table once. Two routes with the same method and shape are a programming error. */
export function createRouter(routes: readonly AnyRoute[], root: string = API_ROOT): Router {
  const tree = newNode();
  for (const route of routes) {
    let node = tree;
    const names: string[] = [];
    for (const segment of route.path.split("/").filter((s) => s !== "")) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param !== undefined && node.param.name !== name) {
          throw new Error(`route ${route.method} ${route.path}: placeholder :${name} conflicts with :${node.param.name}`);
        }
        node.param ??= { name, node: newNode() };
        names.push(name);
        node = node.param.node;
      } else {
        let next = node.literals.get(segment);
        if (next === undefined) {
          next = newNode();
          node.literals.set(segment, next);
        }
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
    node.names = names;
  }

  const walk = (segments: string[], literalLast: boolean): { node: Node; values: string[] } | null => {
    const values: string[] = [];
    const visit = (node: Node, i: number): Node | null => {
      if (i === segments.length) return node.routes.size > 0 ? node : null;
      const segment = segments[i] as string;
      const literal = node.literals.get(segment);
      if (literal !== undefined) {
        const found = visit(literal, i + 1);
        if (found !== null) return found;
      }
      if (node.param !== undefined && segment !== "" && !(literalLast && i === segments.length - 1)) {
        values.push(segment);
        const found = visit(node.param.node, i + 1);
        if (found !== null) return found;
        values.pop();
      }
      return null;
    };
    const node = visit(tree, 0);
    return node === null ? null : { node, values };
  };

  return {
    match(method, path) {
      const upper = method.toUpperCase();
      if (path !== root && !path.startsWith(`${root}/`)) return { kind: "not_found" };
      let rest = path.slice(root.length);
      if (rest.length > 1 && rest.endsWith("/")) rest = rest.slice(0, -1);
      const segments = rest.split("/").slice(1).map(decodeComponentStrict);
      let found = walk(segments, false);
      const last = segments[segments.length - 1];
      if (found === null && last !== undefined && last.endsWith(".json") && last.length > 5) {
        // Only a literal last segment may carry the suffix (reference §3.3: `/projects/5.json` is id "5.json").
        found = walk([...segments.slice(0, -1), last.slice(0, -5)], true);
      }
      if (found === null) return { kind: "not_found" };
      const { node, values } = found;
      const allow = METHOD_ORDER.filter(
        (m) => m === "OPTIONS" || node.routes.has(m as HttpMethod) || (m === "HEAD" && node.routes.has("GET")),
      );
      if (upper === "OPTIONS") return { kind: "options", allow };
      const route = node.routes.get((upper === "HEAD" ? "GET" : upper) as HttpMethod);
      if (route === undefined) return { kind: "method_not_allowed", allow };
      const pathParams: Record<string, string> = {};
      (node.names ?? []).forEach((name, i) => {
        pathParams[name] = values[i] as string;
      });
      return { kind: "matched", route, pathParams };
    },
  };
}

/** Path segments decode `%XX` only; `+` stays a plus (it is a space only in queries and forms). */
function decodeComponentStrict(segment: string): string {
  return segment.includes("%") ? decodeComponent(segment.replace(/\+/g, "%2B")) : segment;
}
