/**
 * The request pipeline (DESIGN §3): limits → route match → parameter decoding → authenticate →
 * parameter validation → handler → response. Errors render through the one table in
 * render-error.ts; anything thrown becomes one generic 500, logged, never echoed.
 */
import { type ResultAsync, errAsync, okAsync } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { Identity } from "../auth/identity.js";
import type { Logger } from "../ports/runtime.js";
import { decodeBody } from "./body.js";
import { isUnsafeKey, parseQuery } from "./query.js";
import { renderError } from "./render-error.js";
import { emptyResponse, jsonResponse, lowerCaseKeys, SECURITY_HEADERS } from "./response.js";
import { createRouter, type AnyRoute } from "./router.js";
import type { HttpRequest, HttpResponse, Params, Route, RouteResult } from "./types.js";

/** Resolves the caller; helper C's auth/ implements it. `params` are the merged raw parameters. */
export type Authenticate = (req: HttpRequest, params: Params, route: Route) => ResultAsync<Identity, ForgekitError>;

/** Request limits (spec "Limits"). */
export interface HttpLimits {
  /** Longest request target (path + `?` + query) in characters; longer → 414. Default 8192. */
  maxUriLength: number;
  /** Largest request body in bytes; larger → 413. Default 1 MiB. */
  maxBodyBytes: number;
  /** Largest `multipart/form-data` body (file uploads), when larger than `maxBodyBytes`. */
  maxUploadBytes?: number;
}

/** Defaults: 8 KiB request target (what common front proxies allow), 1 MiB body. */
export const DEFAULT_LIMITS: Readonly<HttpLimits> = Object.freeze({ maxUriLength: 8192, maxBodyBytes: 1024 * 1024 });

/** Options of {@link createApiHandler}. */
export interface ApiHandlerOptions {
  routes: readonly AnyRoute[];
  authenticate: Authenticate;
  /** Receives 500 causes (redacted). */
  logger?: Logger;
  limits?: Partial<HttpLimits>;
  /**
   * Told of every request a signed-in caller made that its route served (the handler succeeded),
   * once the response is built and before it is sent: where an instance records the user's activity
   * day (accounts/user-activity.ts; the reference's `after` hook, which an error skips). It must not
   * wait for anything; a throw is ignored.
   */
  onServed?: (identity: Identity, req: HttpRequest) => void;
}

/** The framework-agnostic handler every adapter calls. Never rejects. */
export type HttpHandler = (req: HttpRequest) => Promise<HttpResponse>;

const DEFAULT_STATUS: Record<string, number> = { GET: 200, PUT: 200, PATCH: 200, POST: 201, DELETE: 204 };

/** Builds the `/api/v4` handler over a route table. */
export function createApiHandler(options: ApiHandlerOptions): HttpHandler {
  const router = createRouter(options.routes);
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const { logger, authenticate, onServed } = options;
  const fail = (e: ForgekitError): HttpResponse => renderError(e, { logger });

  return async (req) => {
    try {
      const head = req.method.toUpperCase() === "HEAD";
      const response = await serve(req);
      return head ? withoutBody(response) : response;
    } catch (cause) {
      // errors.internal turns a store-unavailable cause into 503 + Retry-After; renderError logs it.
      return fail(errors.internal(cause));
    }
  };

  /** Multipart bodies (file uploads) may reach `maxUploadBytes`; every other body `maxBodyBytes`. */
  function bodyLimit(req: HttpRequest): number {
    const multipart = req.headers["content-type"]?.toLowerCase().startsWith("multipart/form-data") === true;
    return multipart ? Math.max(limits.maxBodyBytes, limits.maxUploadBytes ?? 0) : limits.maxBodyBytes;
  }

  async function serve(req: HttpRequest): Promise<HttpResponse> {
    if (req.path.length + 1 + req.rawQuery.length > limits.maxUriLength) return fail(errors.uriTooLong());
    if (req.body !== undefined && req.body.length > bodyLimit(req)) return fail(errors.payloadTooLarge());
    const match = router.match(req.method, req.path);
    switch (match.kind) {
      case "not_found":
        return fail(errors.routeNotFound());
      case "method_not_allowed":
        return fail(errors.methodNotAllowed(match.allow));
      case "options":
        return emptyResponse(204, { allow: match.allow.join(", ") });
      case "matched":
        break;
    }
    const { route, pathParams } = match;
    const body = decodeBody(req, route.rawBody === true);
    if (body.isErr()) return fail(body.error);
    const raw = mergeParams(parseQuery(req.rawQuery), body.value, pathParams);
    let caller: Identity | null = null;
    const result = await authenticate(req, raw, route as Route)
      .andThen((identity) => {
        caller = identity;
        const params = route.params === undefined ? okAsync(raw) : validate(route, raw);
        return params.andThen((validated) =>
          (route.handler)({ request: req, params: validated, pathParams, identity }),
        );
      });
    return result.match((r) => {
      const response = toResponse(req.method.toUpperCase(), r);
      if (caller !== null) served(caller, req);
      return response;
    }, fail);
  }

  function served(identity: Identity, req: HttpRequest): void {
    if (onServed === undefined || identity.user === null) return;
    try {
      onServed(identity, req);
    } catch {
      // Bookkeeping after the fact: the response stands.
    }
  }
}

function validate(route: AnyRoute, raw: Params): ResultAsync<Params, ForgekitError> {
  const r = (route.params as NonNullable<Route["params"]>)(raw);
  return r.isOk() ? okAsync(r.value) : errAsync(r.error);
}

/** Query, then body over query, then path values over both (client-compatibility §6.13, §6.15). */
export function mergeParams(query: Params, body: Params, path: Record<string, string>): Params {
  const out: Params = {};
  for (const source of [query, body, path]) {
    for (const key of Object.keys(source)) {
      if (!isUnsafeKey(key)) out[key] = source[key];
    }
  }
  return out;
}

/** Serialises a handler's result: JSON body with exactly `application/json`, or no body and no content type. */
export function toResponse(method: string, result: RouteResult): HttpResponse {
  const status = result.status ?? DEFAULT_STATUS[method] ?? 200;
  if (result.raw !== undefined) return { status, headers: { ...SECURITY_HEADERS, ...lowerCaseKeys(result.headers ?? {}) }, body: result.raw };
  if (result.body === undefined || status === 204 || status === 304) return emptyResponse(status, result.headers);
  return jsonResponse(status, result.body, result.headers);
}

/** HEAD is GET without the body; `Content-Length` still tells the GET body's size (RFC 9110 §9.3.2). */
function withoutBody(response: HttpResponse): HttpResponse {
  if (response.body === undefined) return response;
  const length = typeof response.body === "string" ? new TextEncoder().encode(response.body).length : response.body.length;
  return { status: response.status, headers: { ...response.headers, "content-length": String(length) } };
}
