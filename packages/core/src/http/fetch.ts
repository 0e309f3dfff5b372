/**
 * `Request` → `Response` (WHATWG fetch), so Hono, Bun, Deno and Next.js route handlers can host
 * forgekit (DESIGN §2). Git over HTTP streams here too: the request's body stream goes to git and
 * git's output is the response's body stream (`node:stream` web-stream bridges; Bun and Deno have them).
 */
import { Readable } from "node:stream";
import { errors } from "../errors.js";
import { DEFAULT_LIMITS } from "./pipeline.js";
import { type HttpInstance, type MountOptions, servesGitPath, splitTarget } from "./instance.js";
import { aliasedTarget } from "./discovery-alias.js";
import { renderError } from "./render-error.js";
import { jsonResponse } from "./response.js";
import type { HttpRequest, HttpResponse } from "./types.js";

/** Options of {@link toFetchHandler}. */
export interface FetchHandlerOptions extends Pick<MountOptions, "prefix" | "maxBodyBytes" | "git"> {
  /** The peer address, when the host knows it (e.g. Bun's `server.requestIP`). */
  remoteAddress?: (request: Request) => string | undefined;
}

/** Wraps an instance (or a bare handler) as a fetch handler. Never rejects: failures become a generic 500. */
export function toFetchHandler(
  instance: HttpInstance | ((req: HttpRequest) => Promise<HttpResponse>),
  options: FetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const handle = typeof instance === "function" ? instance : instance.handle.bind(instance);
  const limit = options.maxBodyBytes ?? (typeof instance === "function" ? undefined : instance.maxBodyBytes) ?? DEFAULT_LIMITS.maxBodyBytes;
  const git = typeof instance === "function" || options.git === false ? undefined : instance.gitHttp;
  return async (request) => {
    if (git !== undefined) {
      const target = splitTarget(request.url, options.prefix);
      if (target !== null && servesGitPath(target.path, undefined) && git.matches(request.method, target.path)) return serveGit(git, request, target);
    }
    let response: HttpResponse;
    try {
      response = await serve(request);
    } catch {
      response = jsonResponse(500, { message: "500 Internal Server Error" });
    }
    const noBody = request.method === "HEAD" || response.status === 204 || response.status === 304;
    return new Response(noBody || response.body === undefined ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };

  async function serveGit(server: NonNullable<HttpInstance["gitHttp"]>, request: Request, target: { path: string; rawQuery: string }): Promise<Response> {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body === null ? Readable.from([]) : Readable.fromWeb(request.body);
    const remote = options.remoteAddress?.(request);
    try {
      const response = await server.handle({ method: request.method.toUpperCase(), ...target, headers, body, signal: request.signal, ...(remote === undefined ? {} : { remoteAddress: remote }) });
      const out = typeof response.body === "string" ? response.body : (Readable.toWeb(response.body) as unknown as ReadableStream<Uint8Array>);
      return new Response(request.method === "HEAD" ? null : out, { status: response.status, headers: response.headers });
    } catch {
      return new Response("500 Internal Server Error\n", { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }

  async function serve(request: Request): Promise<HttpResponse> {
    const target = aliasedTarget(request.method.toUpperCase(), request.url, typeof instance === "function" ? undefined : instance.discoveryAliases) ?? splitTarget(request.url, options.prefix);
    if (target === null) return renderError(errors.routeNotFound());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = await readBody(request, limit);
    if (body === "too_large") return renderError(errors.payloadTooLarge());
    const req: HttpRequest = { method: request.method.toUpperCase(), ...target, headers };
    if (body !== undefined) req.body = body;
    const remote = options.remoteAddress?.(request);
    if (remote !== undefined) req.remoteAddress = remote;
    return handle(req);
  }
}

/** Reads at most `limit` bytes; stops and cancels the stream as soon as it is exceeded. */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined | "too_large"> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) return "too_large";
  if (request.body === null) return undefined;
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // @types/node leaves ReadableStreamReadResult unresolved without the DOM lib.
    const chunk = (await reader.read()) as { done: true; value?: undefined } | { done: false; value: Uint8Array };
    if (chunk.done) break;
    const value = chunk.value;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return "too_large";
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
