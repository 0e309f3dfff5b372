/**
 * The OpenAPI 3.1 document of a route table (issue 11): every route with its parameters (from its
 * zod schema), summary, capability tag, security, pagination headers on lists, the spec's error
 * bodies and the main response entities. Built from the table itself, so it cannot drift from it.
 */
import { FORGEKIT_VERSION } from "../instance/version.js";
import { API_ROOT, type AnyRoute } from "../http/router.js";
import { entityJsonSchemas } from "./entities.js";
import { ERROR_RESPONSES, ERROR_SCHEMAS } from "./error-bodies.js";
import { openApiPath, paginationParameters, routeParameters } from "./parameters.js";
import { routeSecurity, securitySchemes } from "./security.js";
import { routeResponse } from "./responses.js";
import { routeSummary } from "./summary.js";

/** What the document needs besides the routes. */
export interface OpenApiOptions {
  /** The instance's external URL (`config.baseUrl`): the server and the OAuth URLs. */
  baseUrl: string;
}

/** An OpenAPI 3.1 document (plain JSON data). */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
}

/** One operation of the document. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
  security: Record<string, string[]>[];
}

/** Pagination response headers (spec "Pagination"), `#/components/headers/…`. */
const PAGINATION_HEADERS: Record<string, Record<string, unknown>> = {
  Link: { description: "Links with rel `prev`, `next`, `first`, `last` (absolute URLs; follow them rather than building URLs). Keyset pages carry only `next`.", schema: { type: "string" } },
  "x-next-page": { description: "The next page (empty on the last one).", schema: { type: "string" } },
  "x-page": { description: "This page (from 1).", schema: { type: "string" } },
  "x-per-page": { description: "Items per page.", schema: { type: "string" } },
  "x-prev-page": { description: "The previous page (empty on the first one).", schema: { type: "string" } },
  "x-total": { description: "Total items; absent above 10,000.", schema: { type: "string" } },
  "x-total-pages": { description: "Total pages; absent above 10,000 items.", schema: { type: "string" } },
};

const SUCCESS: Record<AnyRoute["method"], string> = { GET: "200", POST: "201", PUT: "200", PATCH: "200", DELETE: "204" };

/** A list route answering the pagination headers: declared, or a GET whose schema reads `per_page`. */
export function isPaginated(route: AnyRoute): boolean {
  return route.paginated ?? (route.method === "GET" && (route.paramNames ?? []).includes("per_page"));
}

/** `GET /projects/:id/issues` → `getProjectsIdIssues`. */
export function operationId(route: AnyRoute): string {
  const words = `${route.method.toLowerCase()} ${route.path}`.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}

const DESCRIPTIONS: Record<string, string> = { "200": "Success.", "201": "Created.", "202": "Accepted.", "204": "Done (202 when the deletion is scheduled).", "302": "Found: the `Location` header names the resource." };

/** The status the document gives the route's success: its declared one, else 302 for a redirect, else the method's usual. */
export function successStatus(route: Pick<AnyRoute, "method" | "path" | "response">): string {
  const response = routeResponse(route);
  return response === undefined ? SUCCESS[route.method] : "redirect" in response ? "302" : (response.status ?? SUCCESS[route.method]);
}

function successResponse(route: AnyRoute): Record<string, unknown> {
  const response = routeResponse(route);
  const status = successStatus(route);
  const headers = isPaginated(route) ? Object.fromEntries(Object.keys(PAGINATION_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }])) : undefined;
  const described = { description: DESCRIPTIONS[status] ?? "Success.", ...(headers === undefined ? {} : { headers }) };
  if (response !== undefined && "redirect" in response) return { [status]: { ...described, headers: { Location: { description: "Where the resource is.", schema: { type: "string", format: "uri" } } } } };
  if (response !== undefined && "noBody" in response) return { [status]: described };
  if (response !== undefined && "raw" in response) {
    return { [status]: { ...described, content: Object.fromEntries(response.raw.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])) } };
  }
  const entity = response === undefined ? {} : { $ref: `#/components/schemas/${response.entity}` };
  const schema = response?.list === true || (response === undefined && isPaginated(route)) ? { type: "array", items: entity } : entity;
  return { [status]: { ...described, ...(status === "204" ? {} : { content: { "application/json": { schema } } }) } };
}

function operation(route: AnyRoute): OpenApiOperation {
  const { parameters, requestBody } = routeParameters(route);
  const body = route.rawBody === true ? { required: true, content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } } } : requestBody;
  return {
    operationId: operationId(route),
    summary: routeSummary(route),
    tags: [route.tag ?? "Other"],
    parameters,
    ...(body === undefined ? {} : { requestBody: body }),
    responses: {
      ...successResponse(route),
      "400": { $ref: "#/components/responses/BadRequest" },
      "401": { $ref: "#/components/responses/Unauthorized" },
      "403": { $ref: "#/components/responses/Forbidden" },
      "404": { $ref: "#/components/responses/NotFound" },
      "429": { $ref: "#/components/responses/TooManyRequests" },
    },
    security: routeSecurity(route),
  };
}

/** Builds the document of `routes` (e.g. `fk.routes`) for the instance at `options.baseUrl`. */
export function openApiDocument(routes: readonly AnyRoute[], options: OpenApiOptions): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const tags: string[] = [];
  for (const route of routes) {
    const tag = route.tag ?? "Other";
    if (!tags.includes(tag)) tags.push(tag);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "forgekit REST API",
      version: FORGEKIT_VERSION,
      description:
        "The /api/v4 REST API a forgekit instance serves, generated from its route table. Query and body parameters are merged on every method; " +
        "a `.json` suffix on paths is accepted. The OAuth 2.0 provider (/oauth) and discovery documents are described by /.well-known/openid-configuration.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.baseUrl + API_ROOT }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...entityJsonSchemas(), ...ERROR_SCHEMAS },
      parameters: paginationParameters(),
      responses: ERROR_RESPONSES,
      headers: PAGINATION_HEADERS,
      securitySchemes: securitySchemes(options.baseUrl, routes),
    },
  };
}
