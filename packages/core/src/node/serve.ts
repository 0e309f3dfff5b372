/**
 * The one Node request/response path both adapters and the bare `node:http` handler use
 * (DESIGN §2: written once, shared).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { errors } from "../errors.js";
import { DEFAULT_MOUNT_PATHS, type HttpInstance, type MountOptions, servesGitPath, servesPath, splitTarget } from "../http/instance.js";
import { aliasedTarget } from "../http/discovery-alias.js";
import { renderError } from "../http/render-error.js";
import { jsonResponse } from "../http/response.js";
import type { HttpRequest, HttpResponse } from "../http/types.js";
import { serveGitRequest } from "./git.js";
import { toHttpRequest } from "./request.js";
import { writeHttpResponse } from "./response.js";

/** Instance or bare handler. */
export type Servable = HttpInstance | ((req: HttpRequest) => Promise<HttpResponse>);

/**
 * Serves one request if its path is forgekit's (`options.paths`, below `options.prefix`, or a git
 * smart-HTTP request the instance's `gitHttp` matches) and resolves `true`; resolves `false`
 * without touching the request otherwise, so the host's `next()` can run. Git requests are
 * streamed (no body limit) and resolve when their response has ended. Never rejects: a throw
 * becomes a generic 500.
 */
export async function serveNodeRequest(
  servable: Servable,
  nodeReq: IncomingMessage,
  nodeRes: ServerResponse,
  options: MountOptions & { parsedBody?: unknown } = {},
): Promise<boolean> {
  const instance = typeof servable === "function" ? undefined : servable;
  const handle = typeof servable === "function" ? servable : servable.handle.bind(servable);
  // RFC 8414 path-inserted discovery (`/.well-known/oauth-authorization-server/<issuer path>`) lives outside any prefix.
  const alias = aliasedTarget((nodeReq.method ?? "GET").toUpperCase(), nodeReq.url ?? "/", instance?.discoveryAliases);
  if (alias !== null) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(nodeReq.headers)) if (typeof value === "string") headers[name] = value;
    writeHttpResponse(nodeRes, await handle({ method: (nodeReq.method ?? "GET").toUpperCase(), ...alias, headers }).catch(() => jsonResponse(500, { message: "500 Internal Server Error" })));
    nodeReq.resume();
    return true;
  }
  const target = splitTarget(nodeReq.url ?? "/", options.prefix);
  // Decide before reading: a request that is not forgekit's keeps its body for the host.
  if (target === null) return false;
  // Git paths (`/<namespace>/<project>(.git)/info/refs`, …) are outside the API's own prefixes;
  // given `paths` govern them too (`paths: []` serves no git, `["/"]` all of it).
  const git = options.git === false ? undefined : instance?.gitHttp;
  if (git !== undefined && servesGitPath(target.path, options.paths) && git.matches(nodeReq.method ?? "GET", target.path)) {
    try {
      await serveGitRequest(git, nodeReq, nodeRes, target, options.parsedBody);
    } catch {
      if (!nodeRes.headersSent) writeHttpResponse(nodeRes, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" }, body: "500 Internal Server Error\n" });
      else nodeRes.destroy();
    }
    return true;
  }
  if (!servesPath(target.path, options.paths ?? DEFAULT_MOUNT_PATHS)) return false;
  if (options.unknownRoutes === "next" && instance?.serves !== undefined && !instance.serves((nodeReq.method ?? "GET").toUpperCase(), target.path)) return false;
  try {
    const read = await toHttpRequest(nodeReq, {
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
      ...(options.parsedBody === undefined ? {} : { parsedBody: options.parsedBody }),
      maxBodyBytes: options.maxBodyBytes ?? instance?.maxBodyBytes ?? 1024 * 1024,
    });
    if (read.isErr()) {
      if (read.error.kind === "outside_prefix") return false;
      // The rest of the body is discarded, not buffered; closing the connection ends it.
      const response = renderError(read.error.error);
      response.headers["connection"] = "close";
      writeHttpResponse(nodeRes, response);
      nodeReq.resume();
      return true;
    }
    writeHttpResponse(nodeRes, await handle(read.value));
  } catch {
    writeHttpResponse(nodeRes, jsonResponse(500, { message: "500 Internal Server Error" }));
  }
  return true;
}

/**
 * A `node:http` request listener serving everything through `servable` (paths outside
 * forgekit's get `{"error":"404 Not Found"}`).
 */
export function createNodeHandler(servable: Servable, options: MountOptions = {}): RequestListener {
  return (req, res) => {
    void serveNodeRequest(servable, req, res, { paths: ["/"], ...options }).then((served) => {
      if (!served) writeHttpResponse(res, renderError(errors.routeNotFound()));
    });
  };
}
