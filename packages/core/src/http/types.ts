/** Framework-agnostic HTTP shapes and the route table's data type (DESIGN §3). */
import type { ResultAsync } from "neverthrow";
import type { ForgekitError } from "../errors.js";
import type { Identity } from "../auth/identity.js";
import type { AccessToken, User } from "../accounts/types.js";

/** One incoming request, as every adapter hands it to core. */
export interface HttpRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path below the mount point, still percent-encoded, e.g. `/api/v4/projects/grp%2Fproj`. */
  path: string;
  /** Query string without the leading `?` (may be empty). */
  rawQuery: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** Raw body bytes; core decodes JSON and form bodies. */
  body?: Uint8Array;
  /** A body the host framework already parsed (e.g. express.json()); used when `body` is absent. */
  parsedBody?: unknown;
  /** The peer's address, when the adapter knows it (keys rate limits). */
  remoteAddress?: string;
}

/** A framework-neutral HTTP response: status, headers and body, as adapters write it out. */
export interface HttpResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers by lower-case name. */
  headers: Record<string, string>;
  /**  Uint8Array;|The body as text or bytes; absent for an empty body. */
  body?: string | Uint8Array;
}

/** A decoded parameter value: query, JSON and form bodies all decode to this shape. */
export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };
/** Validated request parameters by name (path, query and body merged). */
export type Params = Record<string, ParamValue | undefined>;

/** The HTTP methods routes are declared with. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler produces; the router serialises `body` as JSON (exactly `application/json`). */
export interface RouteResult {
  /** Default: GET/PUT/PATCH 200, POST 201, DELETE 204 (spec "General status codes"). */
  status?: number;
  /** `undefined` → empty body with no content type. */
  body?: unknown;
  /** A body sent as these bytes instead of JSON (e.g. a raw file); `headers` give its content type. */
  raw?: Uint8Array;
  /** Extra response headers (e.g. `Location`, pagination headers, the raw body's content type). */
  headers?: Record<string, string>;
}

/** How a route may be reached: which credentials and scopes it accepts. */
export interface RouteAuth {
  /** `required`: anonymous → 401. `optional`: anonymous allowed (public data only). */
  mode: "required" | "optional";
  /**
   * Scopes accepted besides the API-wide `api` (all methods) and `read_api` (GET/HEAD), each
   * optionally for reads only — e.g. `[{ scope: "read_user", readOnly: true }]` on `/user`.
   */
  extraScopes?: { scope: string; readOnly?: boolean }[];
  /** Accept a CI job token on this route (reference `job_token_allowed`). */
  jobToken?: boolean;
  /**
   * Optional (issue 21): the route's own reads done together with an access token's lookup, so an
   * authenticated request is one round trip. Given the token's digest, the merged raw parameters and
   * the instance of the check, it resolves the token with its user (as `findByDigestWithUser`) and
   * `read`, handed to the handler as `identity.preread`; `null` (or a promise of null for an
   * unknown token) when it does not apply, and the token is then looked up alone.
   */
  withToken?: TokenRead;
}

/** See {@link RouteAuth.withToken}. */
export type TokenRead = (digest: string, params: Params, now: Date) => Promise<{ token: AccessToken; user: User | null; read: object } | null> | null;

/**
 * What a route handler gets besides its parameters: the request, the caller's identity and the instance's
 * services.
 */
export interface RouteContext {
  /** The incoming request. */
  request: HttpRequest;
  /** Query, body and path parameters merged (path values win), decoded, then validated by the route's schema. */
  params: Params;
  /** Path placeholders, percent-decoded. */
  pathParams: Record<string, string>;
  /** Who is calling (after sudo: the target user). */
  identity: Identity;
}

/** One REST route: method, path pattern, authentication rule, parameter schema and handler. */
export interface Route<P extends Params = Params> {
  /** The HTTP method the route answers. */
  method: HttpMethod;
  /** Path below the API root with `:name` placeholders, e.g. `/projects/:id`. */
  path: string;
  /** Which credentials and scopes reach the route. */
  auth: RouteAuth;
  /**
   * Validates and coerces the merged parameters. Returns the typed params or an error in the
   * reference wording (missing → missing_param, type → invalid_param).
   */
  params?: (raw: Params) => import("neverthrow").Result<P, ForgekitError>;
  /**
   * The parameter names the route reads (its schema's keys), so the table can be documented and
   * tested whole (e.g. the HTTP fuzz test sends them). Filled in by `defineRoute`.
   */
  paramNames?: readonly string[];
  /**
   * The route reads its body as bytes from `ctx.request.body` (e.g. the error-tracking collector,
   * which takes `application/x-sentry-envelope`, `text/plain` and gzip): the pipeline then neither
   * decodes the body into parameters nor refuses its content type; only the size limit applies.
   */
  rawBody?: boolean;
  /** The route's zod parameter schema (kept by `defineRoute`), for its OpenAPI parameters. */
  schema?: import("zod").ZodObject;
  /** One line for the OpenAPI operation and the route list of docs/reference/routes.md; default: derived from method and path (openapi/summary.ts). */
  summary?: string;
  /** The capability's name in the OpenAPI document (its tag), set where the capability collects its routes (`tagRoutes`). */
  tag?: string;
  /** A list answering the pagination headers; default: a GET whose schema reads `per_page`. */
  paginated?: boolean;
  /** The response entity (an OpenAPI component schema name, openapi/entities.ts), as one object or a list. */
  response?: { entity: import("../openapi/entities.js").EntityName; list?: boolean };
  /**
   * Does the work: given the context and the validated parameters, resolves the result or a {@link
   * ForgekitError}.
   */
  handler: (ctx: RouteContext & { params: P }) => ResultAsync<RouteResult, ForgekitError>;
}
