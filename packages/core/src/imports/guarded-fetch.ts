/**
 * A `fetch` for the import clients that only ever connects to addresses the URL guard allows: it
 * runs on node:http / node:https with a `lookup` that resolves through the guard and refuses a
 * disallowed address at connect time (so the checked address is the connected one: no DNS
 * rebinding between check and use), and follows redirects itself, re-checking every hop and
 * dropping `Authorization` when a hop leaves the original origin. Octokit takes it as
 * `request.fetch`; the repository-server client calls it directly.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { resolveAllowed, type UrlGuardOptions } from "./url-guard.js";

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions extends UrlGuardOptions {
  /** Redirects followed before failing (default 5). */
  maxRedirects?: number;
  /** Longest time to the response headers, in ms (default 30 000); the body is the caller's to time. */
  timeoutMs?: number;
}

/** The error a refused address or redirect raises (a `TypeError` like fetch's network errors, with `blocked`). */
export interface BlockedUrlError extends TypeError {
  readonly blocked: true;
  readonly url: string;
}

const blockedError = (url: string, why: string): BlockedUrlError => {
  const error = new TypeError(`fetch refused: ${why}`) as TypeError & { blocked: true; url: string };
  error.blocked = true;
  error.url = url;
  return error;
};

/** Whether `error` (or its cause) is a refusal of {@link guardedFetch}. */
export function isBlockedUrlError(error: unknown): error is BlockedUrlError {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { blocked?: unknown }).blocked === true) return true;
  }
  return false;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** A node:net `lookup` that answers only addresses the guard allows. */
function guardedLookup(options: UrlGuardOptions): LookupFunction {
  return ((hostname: string, lookupOptions: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    resolveAllowed(hostname, options).then(
      (result) => {
        if (result.isErr()) {
          // A name that does not resolve is a connection failure (retried), not a refusal of the guard.
          const code = result.error.code ?? "ENOTFOUND";
          const error =
            result.error.reason === "unresolvable"
              ? Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname })
              : Object.assign(new Error(`address of ${hostname} refused (${result.error.reason})`), { code: "EBLOCKED", blocked: true });
          callback(error, lookupOptions.all === true ? [] : "", 4);
          return;
        }
        const wanted = lookupOptions.family === 6 || lookupOptions.family === "IPv6" ? 6 : lookupOptions.family === 4 || lookupOptions.family === "IPv4" ? 4 : 0;
        const addresses = result.value.filter((a) => wanted === 0 || a.family === wanted);
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`no address of family ${wanted} for ${hostname}`), { code: "ENOTFOUND" }), lookupOptions.all === true ? [] : "", 4);
        } else if (lookupOptions.all === true) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error, lookupOptions.all === true ? [] : "", 4),
    );
  }) as unknown as LookupFunction;
}

/** Body bytes of a fetch `body` (the clients send strings or nothing). */
async function bodyBytes(body: unknown): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(await new Response(body as ConstructorParameters<typeof Response>[0]).arrayBuffer());
}

/** One HTTP exchange, no redirects. */
function exchange(url: URL, method: string, headers: Headers, body: Buffer | undefined, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string> = {};
    headers.forEach((value, name) => {
      outgoing[name] = value;
    });
    if (body !== undefined) outgoing["content-length"] = String(body.length);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, { method, headers: outgoing, lookup, signal, agent: false });
    req.on("response", resolve);
    req.on("error", (error: Error & { blocked?: boolean }) => {
      reject(error.blocked === true ? blockedError(url.href, error.message) : new TypeError("fetch failed", { cause: error }));
    });
    req.end(body);
  });
}

/** Converts a node response into a WHATWG `Response`. */
function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const status = message.statusCode ?? 500;
  if (NULL_BODY.has(status)) {
    message.resume();
    return new Response(null, { status, statusText: message.statusMessage ?? "", headers });
  }
  return new Response(Readable.toWeb(message) as ReadableStream<Uint8Array>, { status, statusText: message.statusMessage ?? "", headers });
}

/**
 * A fetch-compatible function bound to the guard. Only http(s) URLs; redirects are followed
 * (`redirect: "manual"` returns them instead) and re-checked hop by hop.
 */
export function guardedFetch(options: GuardedFetchOptions): typeof fetch {
  const lookup = guardedLookup(options);
  const maxRedirects = options.maxRedirects ?? 5;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const guarded = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const first = input instanceof Request ? input : undefined;
    let url = new URL(first?.url ?? (input instanceof URL ? input.href : input));
    let method = (init.method ?? first?.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers ?? first?.headers);
    let body = await bodyBytes(init.body ?? (first?.body === null ? undefined : first?.body));
    const origin = url.origin;
    // The timeout covers the wait for response headers only: a long body (a large page or
    // attachment) streams for as long as the caller reads it, under the caller's own signal.
    const headersTimeout = new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, headersTimeout.signal]) : headersTimeout.signal;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") throw blockedError(url.href, `scheme ${url.protocol} is not http(s)`);
      if (url.username !== "" || url.password !== "") throw blockedError(url.origin, "URLs with credentials are not followed");
      // node:net connects to an address literal without calling `lookup`: check it here.
      if (isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) {
        const literal = await resolveAllowed(url.hostname, options);
        if (literal.isErr()) throw blockedError(url.href, `address ${url.hostname} refused (${literal.error.reason})`);
      }
      const timer = setTimeout(() => headersTimeout.abort(new DOMException(`no response within ${timeoutMs} ms`, "TimeoutError")), timeoutMs);
      let message: IncomingMessage;
      try {
        message = await exchange(url, method, headers, body, lookup, signal);
      } finally {
        clearTimeout(timer);
      }
      const status = message.statusCode ?? 0;
      const location = message.headers.location;
      if (!REDIRECTS.has(status) || location === undefined || init.redirect === "manual") return toResponse(message);
      message.resume();
      if (init.redirect === "error") throw new TypeError(`fetch failed: redirect to ${location} not allowed`);
      if (hop >= maxRedirects) throw new TypeError(`fetch failed: more than ${maxRedirects} redirects`);
      url = new URL(location, url);
      // Fetch standard §4.4 (HTTP-redirect fetch): 303, and 301/302 after POST, become GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers.delete("content-type");
      }
      // Credentials never follow a redirect to another origin.
      if (url.origin !== origin) {
        headers.delete("authorization");
        headers.delete("cookie");
      }
    }
  };
  return guarded;
}
