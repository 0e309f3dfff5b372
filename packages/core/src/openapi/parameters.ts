/**
 * A route's OpenAPI parameters and request body from its zod schema (http/params.ts types describe
 * themselves): path placeholders as path parameters, the rest as query parameters on GET and
 * DELETE, or as a JSON / form body on POST, PUT and PATCH (the pipeline merges query and body, so
 * either works; the document shows the usual one).
 */
import type * as z from "zod";
import { parameterJsonSchema } from "../http/params.js";
import { PAGINATION_PARAMS } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";

/** `/projects/:id/issues/:issue_iid` → `/projects/{id}/issues/{issue_iid}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The placeholder names of a route path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
}

/** JSON Schema of each parameter the route reads (by name), and which are required. */
function fields(route: AnyRoute): { schemas: Map<string, Record<string, unknown>>; required: Set<string> } {
  const schemas = new Map<string, Record<string, unknown>>();
  const required = new Set<string>();
  const schema = route.schema;
  if (schema !== undefined) {
    for (const [name, field] of Object.entries<z.ZodType>(schema.shape)) {
      schemas.set(name, parameterJsonSchema(field));
      if (!field.safeParse(undefined).success) required.add(name);
    }
  }
  for (const name of route.paramNames ?? []) if (!schemas.has(name)) schemas.set(name, {});
  return { schemas, required };
}

const isArray = (schema: Record<string, unknown>): boolean => schema["type"] === "array";
const isObject = (schema: Record<string, unknown>): boolean => schema["type"] === "object";

/** The operation's `parameters` and `requestBody`. */
export function routeParameters(route: AnyRoute): { parameters: Record<string, unknown>[]; requestBody?: Record<string, unknown> } {
  const { schemas, required } = fields(route);
  const inPath = pathParamNames(route.path);
  const parameters: Record<string, unknown>[] = inPath.map((name) => ({
    name,
    in: "path",
    required: true,
    // Path values arrive as text; a full path (`grp/proj`) must be URL-encoded (`grp%2Fproj`).
    schema: { type: "string", ...schemaDescription(schemas.get(name)) },
  }));
  const rest = [...schemas.entries()].filter(([name]) => !inPath.includes(name));
  if (route.rawBody === true || route.method === "GET" || route.method === "DELETE") {
    for (const [name, schema] of rest) {
      if (sharesPaginationParam(route, name)) {
        parameters.push({ $ref: `#/components/parameters/${name}` });
        continue;
      }
      parameters.push({
        // `a[]=1&a[]=2` and `a[k]=v`, as the pipeline decodes them.
        name: isArray(schema) ? `${name}[]` : name,
        in: "query",
        ...(required.has(name) ? { required: true } : {}),
        schema,
        ...(isObject(schema) ? { style: "deepObject", explode: true } : {}),
      });
    }
    return { parameters };
  }
  if (rest.length === 0) return { parameters };
  const body = {
    type: "object",
    properties: Object.fromEntries(rest),
    ...(rest.some(([name]) => required.has(name)) ? { required: rest.map(([name]) => name).filter((name) => required.has(name)) } : {}),
  };
  return {
    parameters,
    requestBody: {
      required: body.required !== undefined,
      content: { "application/json": { schema: body }, "application/x-www-form-urlencoded": { schema: body } },
    },
  };
}

function schemaDescription(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const description = schema?.["description"];
  return typeof description === "string" ? { description } : {};
}

/** Whether the route reads `name` as the route kit's shared pagination parameter (one component for all). */
function sharesPaginationParam(route: AnyRoute, name: string): boolean {
  const shared = (PAGINATION_PARAMS as Record<string, z.ZodType>)[name];
  return shared !== undefined && route.schema?.shape[name] === shared;
}

/** `components.parameters`: the route kit's pagination parameters, referenced by the lists that read them. */
export function paginationParameters(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(PAGINATION_PARAMS).map(([name, schema]) => [name, { name, in: "query", schema: parameterJsonSchema(schema) }]));
}
