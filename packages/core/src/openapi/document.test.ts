/**
 * The OpenAPI document (issue 11): generated from the route table, a valid OpenAPI 3.1 shape, and
 * the committed `docs/openapi.json` and the route list (docs/reference/routes.md) are what the table generates today.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createForgekit } from "../forgekit.js";
import { parseConfig } from "../config.js";
import { memoryStore } from "../memory-store/index.js";
import { defineRoute, respond } from "../http/route-kit.js";
import { p } from "../http/params.js";
import { ok } from "neverthrow";
import { openApiDocument, operationId } from "./document.js";
import { routeListMarkdown, withRouteList, ROUTES_END, ROUTES_START } from "./route-list.js";
import { openApiPath, pathParamNames } from "./parameters.js";
import { routeSummary } from "./summary.js";

const ROOT = new URL("../../../../", import.meta.url);
/** The base URL the committed document is generated for (the CLI's default). */
const BASE_URL = "http://localhost:3000";

const fk = createForgekit({ baseUrl: BASE_URL, store: memoryStore() });
const doc = fk.openApi();

type Json = Record<string, unknown>;
const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
/** A parameter, with a `$ref` to `#/components/parameters/…` followed. */
const deref = (param: Json): Json => (typeof param["$ref"] === "string" ? (resolve(param["$ref"]) as Json) : param);
/** An operation's parameters, references followed. */
const paramsOf = (op: { parameters: Json[] } | undefined): Json[] => (op?.parameters ?? []).map(deref);

/** Every `$ref` in `value`, with where it was found. */
function refs(value: unknown, at = "#"): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${at}/${i}`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === "$ref" && typeof v === "string" ? [{ at, ref: v }] : refs(v, `${at}/${k}`)));
}

function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .reduce<unknown>((node, key) => (typeof node === "object" && node !== null ? (node as Json)[key.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined), doc);
}

const TYPES = new Set(["string", "integer", "number", "boolean", "array", "object", "null"]);
const SCHEMA_MAPS = ["properties", "$defs"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_ONE = ["items", "not", "additionalProperties"];

/** JSON Schema 2020-12 structure problems of `schema` (the keywords the document uses), as paths. */
function schemaProblems(schema: unknown, at: string): string[] {
  if (typeof schema === "boolean") return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`${at}: not a schema`];
  const s = schema as Json;
  const problems: string[] = [];
  const type = s["type"];
  if (type !== undefined && !(Array.isArray(type) ? type : [type]).every((t) => typeof t === "string" && TYPES.has(t))) problems.push(`${at}/type: ${JSON.stringify(type)}`);
  if (s["enum"] !== undefined && (!Array.isArray(s["enum"]) || s["enum"].length === 0)) problems.push(`${at}/enum: not a non-empty array`);
  for (const k of ["minimum", "maximum", "minLength"]) if (s[k] !== undefined && typeof s[k] !== "number") problems.push(`${at}/${k}: not a number`);
  for (const k of ["description", "format", "pattern", "$ref"]) if (s[k] !== undefined && typeof s[k] !== "string") problems.push(`${at}/${k}: not a string`);
  if (typeof s["pattern"] === "string") {
    try {
      new RegExp(s["pattern"], "u");
    } catch {
      problems.push(`${at}/pattern: not a regular expression`);
    }
  }
  if (s["required"] !== undefined) {
    const props = (s["properties"] ?? {}) as Json;
    if (!Array.isArray(s["required"]) || !s["required"].every((r) => typeof r === "string" && r in props)) problems.push(`${at}/required: names a missing property`);
  }
  for (const k of SCHEMA_MAPS) {
    if (s[k] === undefined) continue;
    if (typeof s[k] !== "object" || s[k] === null) problems.push(`${at}/${k}: not an object`);
    else for (const [name, sub] of Object.entries(s[k] as Json)) problems.push(...schemaProblems(sub, `${at}/${k}/${name}`));
  }
  for (const k of SCHEMA_LISTS) {
    if (s[k] === undefined) continue;
    if (!Array.isArray(s[k])) problems.push(`${at}/${k}: not an array`);
    else (s[k] as unknown[]).forEach((sub, i) => problems.push(...schemaProblems(sub, `${at}/${k}/${i}`)));
  }
  for (const k of SCHEMA_ONE) if (s[k] !== undefined) problems.push(...schemaProblems(s[k], `${at}/${k}`));
  return problems;
}

/** Every schema of the document: parameters, request bodies, responses, headers and components. */
function allSchemas(): { at: string; schema: unknown }[] {
  const found: { at: string; schema: unknown }[] = [];
  for (const { path, method, op } of operations) {
    paramsOf(op).forEach((param, i) => found.push({ at: `${method} ${path} parameters/${i}`, schema: param["schema"] }));
    const bodies = [op.requestBody, ...Object.values(op.responses)] as (Json | undefined)[];
    for (const body of bodies) for (const [type, media] of Object.entries((body?.["content"] ?? {}) as Record<string, Json>)) found.push({ at: `${method} ${path} ${type}`, schema: media["schema"] });
  }
  for (const [name, schema] of Object.entries(doc.components["schemas"] ?? {})) found.push({ at: `components/schemas/${name}`, schema });
  for (const [name, header] of Object.entries(doc.components["headers"] ?? {})) found.push({ at: `components/headers/${name}`, schema: (header as Json)["schema"] });
  return found;
}

describe("openApiDocument", () => {
  it("is an OpenAPI 3.1 document whose server is the instance's /api/v4", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("forgekit REST API");
    expect(doc.servers).toEqual([{ url: `${BASE_URL}/api/v4` }]);
  });

  it("has one operation per route of the table, at its path in OpenAPI form", () => {
    expect(operations).toHaveLength(fk.routes.length);
    for (const route of fk.routes) {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op?.summary).toBe(routeSummary(route));
      expect(op?.tags).toEqual([route.tag]);
    }
    expect(Object.keys(doc.paths)).toContain("/projects/{id}/issues/{issue_iid}/notes/{note_id}");
    expect(Object.keys(doc.paths).some((path) => path.includes(":"))).toBe(false);
  });

  it("declares every path placeholder as a required path parameter, and no other", () => {
    for (const { path, method, op } of operations) {
      const declared = paramsOf(op).filter((param) => param["in"] === "path").map((param) => param["name"]);
      const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared, `${method} ${path}`).toEqual(placeholders);
      expect(paramsOf(op).filter((param) => param["in"] === "path").every((param) => param["required"] === true)).toBe(true);
    }
  });

  it("has unique operationIds and unique parameter names per operation", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      const keys = paramsOf(op).map((param) => `${String(param["in"])}:${String(param["name"])}`);
      expect(new Set(keys).size, `${method} ${path}`).toBe(keys.length);
    }
  });

  it("every tag is listed, every route has one (no route left in 'Other')", () => {
    const listed = doc.tags.map((t) => t.name);
    expect(listed).not.toContain("Other");
    for (const { op } of operations) expect(listed).toContain(op.tags[0]);
  });

  it("every $ref resolves inside the document", () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(100);
    for (const { at, ref } of all) {
      expect(ref.startsWith("#/"), at).toBe(true);
      expect(resolve(ref), `${at} → ${ref}`).toBeDefined();
    }
  });

  it("every schema is well-formed JSON Schema 2020-12 (types, required, enums, patterns) and zod reads it back", () => {
    const schemas = allSchemas();
    expect(schemas.length).toBeGreaterThan(1000);
    expect(schemas.flatMap(({ at, schema }) => schemaProblems(schema, at))).toEqual([]);
    for (const { at, schema } of schemas) {
      if (refs(schema).length > 0) continue;
      expect(() => z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]), at).not.toThrow();
    }
  });

  it("parameters come from the zod schemas: types, enums, required, arrays as name[]", () => {
    const list = doc.paths["/projects/{id}/issues"]?.["get"];
    const param = (name: string) => paramsOf(list).find((x) => x["name"] === name);
    expect(param("state")).toMatchObject({ in: "query", schema: { type: "string", enum: ["opened", "closed", "all"] } });
    expect(param("confidential")).toMatchObject({ in: "query", schema: { type: "boolean" } });
    expect(param("iids[]")).toMatchObject({ in: "query", schema: { type: "array", items: { type: "integer" } } });
    expect(param("per_page")).toMatchObject({ in: "query", schema: { type: "integer", maximum: 100, default: 20 } });
    // The route kit's pagination parameters are one shared component.
    expect(list?.parameters).toContainEqual({ $ref: "#/components/parameters/per_page" });
    const create = doc.paths["/projects/{id}/issues"]?.["post"];
    const body = (create?.requestBody as Json)["content"] as Record<string, { schema: Json }>;
    expect(Object.keys(body)).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    expect(body["application/json"]?.schema["required"]).toEqual(["title"]);
    expect((body["application/json"]?.schema["properties"] as Json)["title"]).toEqual({ type: "string" });
  });

  it("paginated lists answer the pagination headers; single resources do not", () => {
    const headers = (path: string, method: string) => Object.keys(((doc.paths[path]?.[method]?.responses["200"] as Json)["headers"] ?? {}));
    expect(headers("/projects/{id}/events", "get")).toEqual(["Link", "x-next-page", "x-page", "x-per-page", "x-prev-page", "x-total", "x-total-pages"]);
    expect(headers("/projects/{id}", "get")).toEqual([]);
    expect((doc.components["headers"] as Json)["x-total"]).toMatchObject({ schema: { type: "string" } });
  });

  it("the main entities are component schemas the routes answer with", () => {
    const schemaOf = (path: string, method: string, status: string) => (((doc.paths[path]?.[method]?.responses[status] as Json)["content"] as Record<string, Json>)["application/json"] as Json)["schema"];
    expect(schemaOf("/events", "get", "200")).toEqual({ type: "array", items: { $ref: "#/components/schemas/Event" } });
    expect(schemaOf("/groups/{id}/iterations", "get", "200")).toEqual({ type: "array", items: { $ref: "#/components/schemas/Iteration" } });
    expect(schemaOf("/projects/{id}/repository_storage_moves", "post", "201")).toEqual({ $ref: "#/components/schemas/ProjectRepositoryStorageMove" });
    expect(schemaOf("/project_repository_storage_moves", "post", "202")).toEqual({ $ref: "#/components/schemas/Message" });
    const event = (doc.components["schemas"] as Record<string, Json>)["Event"] as Json;
    expect((event["properties"] as Json)["author"]).toEqual({ $ref: "#/components/schemas/UserBasic" });
    expect(event["required"]).toContain("action_name");
    expect(event["required"]).not.toContain("push_data");
  });

  it("the error bodies of the spec, referenced by every operation", () => {
    const schemas = doc.components["schemas"] as Record<string, Json>;
    for (const name of ["MessageError", "ValidationError", "ErrorString", "InsufficientScope", "SpamError"]) expect(schemas[name], name).toBeDefined();
    for (const { op } of operations) {
      expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(op.responses["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
    }
  });

  it("security: OAuth authorization code flow on the instance's URLs, bearer, PRIVATE-TOKEN; anonymous only where the route allows it", () => {
    const schemes = doc.components["securitySchemes"] as Record<string, Json>;
    expect(schemes["oauth2"]).toMatchObject({
      type: "oauth2",
      flows: { authorizationCode: { authorizationUrl: `${BASE_URL}/oauth/authorize`, tokenUrl: `${BASE_URL}/oauth/token` } },
    });
    expect(schemes["privateToken"]).toMatchObject({ type: "apiKey", in: "header", name: "PRIVATE-TOKEN" });
    expect(schemes["bearer"]).toMatchObject({ type: "http", scheme: "bearer" });
    // No route accepts CI job tokens yet, so the scheme is not offered.
    expect(schemes["jobToken"]).toBeUndefined();
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security;
    expect(security("/version", "get")).toEqual([{ oauth2: ["read_user", "api", "read_api"] }, { bearer: ["read_user", "api", "read_api"] }, { privateToken: ["read_user", "api", "read_api"] }]);
    expect(security("/projects/{id}", "get")).toContainEqual({});
    expect(security("/projects", "post")).toEqual([{ oauth2: ["api"] }, { bearer: ["api"] }, { privateToken: ["api"] }]);
  });

  it("a route accepting job tokens adds the JOB-TOKEN scheme to itself", () => {
    const route = defineRoute({ method: "GET", path: "/jobs/:id/artifacts", auth: { mode: "required", jobToken: true }, tag: "Jobs", schema: z.object({ id: p.recordId() }), handler: () => respond(async () => ok({})) });
    const own = openApiDocument([route], { baseUrl: "https://code.example.com/forge" });
    expect((own.components["securitySchemes"] as Json)["jobToken"]).toMatchObject({ type: "apiKey", in: "header", name: "JOB-TOKEN" });
    expect(own.paths["/jobs/{id}/artifacts"]?.["get"]?.security).toContainEqual({ jobToken: [] });
    expect(own.servers).toEqual([{ url: "https://code.example.com/forge/api/v4" }]);
    expect(own.paths["/jobs/{id}/artifacts"]?.["get"]?.parameters[0]).toMatchObject({ name: "id", in: "path", required: true });
  });
});

describe("operationId, paths and summaries", () => {
  it("names operations by method and path, placeholders in OpenAPI form", () => {
    expect(operationId({ method: "GET", path: "/projects/:id/repository/archive.tar.gz" } as never)).toBe("getProjectsIdRepositoryArchiveTarGz");
    expect(openApiPath("/projects/:id/issues/:issue_iid")).toBe("/projects/{id}/issues/{issue_iid}");
    expect(pathParamNames("/projects/:id/issues/:issue_iid")).toEqual(["id", "issue_iid"]);
  });
  it("derives summaries from method and path unless the route has one", () => {
    expect(routeSummary({ method: "GET", path: "/projects/:id/issues" })).toBe("List issues of a project");
    expect(routeSummary({ method: "POST", path: "/projects/:id/issues" })).toBe("Create an issue of a project");
    expect(routeSummary({ method: "GET", path: "/users/:id" })).toBe("Get a user");
    expect(routeSummary({ method: "POST", path: "/users/:id/block" })).toBe("Block a user");
    expect(routeSummary({ method: "PUT", path: "/groups/:id/notification_settings" })).toBe("Update the notification settings of a group");
    expect(routeSummary({ method: "GET", path: "/snippets/:id/files/:ref/:file_path/raw" })).toBe("Get the raw content of a file");
    expect(routeSummary({ method: "GET", path: "/user", summary: "Get the signed-in user" })).toBe("Get the signed-in user");
  });
});

describe("committed documents", () => {
  it("docs/openapi.json is the document the route table generates", () => {
    const committed = readFileSync(new URL("docs/openapi.json", ROOT), "utf8");
    const fresh = `${JSON.stringify(doc, null, 2)}\n`;
    expect(committed === fresh, "docs/openapi.json is stale: regenerate it with `npx -y pnpm@10.34.8 forgekit openapi --out docs/openapi.json`").toBe(true);
  });

  it("docs/reference/routes.md lists every route between the route markers", () => {
    const readme = readFileSync(new URL("docs/reference/routes.md", ROOT), "utf8");
    expect(readme.includes(ROUTES_START) && readme.includes(ROUTES_END), `docs/reference/routes.md needs a ${ROUTES_START} … ${ROUTES_END} section`).toBe(true);
    const fresh = withRouteList(readme, routeListMarkdown(fk.routes));
    expect(readme === fresh, "docs/reference/routes.md's route list is stale: regenerate it with `npx -y pnpm@10.34.8 forgekit routes --readme docs/reference/routes.md`").toBe(true);
    for (const route of fk.routes) expect(readme).toContain(`| \`${route.method}\` | \`/api/v4${route.path}\` |`);
  });

  it("withRouteList replaces only the part between the markers, and refuses a file without them", () => {
    const text = `# T\n\n${ROUTES_START}\nold\n${ROUTES_END}\n\nafter\n`;
    expect(withRouteList(text, "new")).toBe(`# T\n\n${ROUTES_START}\nnew\n${ROUTES_END}\n\nafter\n`);
    expect(() => withRouteList("# T\n", "new")).toThrow(/markers/);
  });
});

describe("config openapi", () => {
  const base = { baseUrl: BASE_URL, store: memoryStore() };
  it("serve defaults to false; true is accepted", () => {
    expect(parseConfig(base)._unsafeUnwrap().openapi).toEqual({ serve: false });
    expect(parseConfig({ ...base, openapi: { serve: true } })._unsafeUnwrap().openapi).toEqual({ serve: true });
  });
  it("unknown keys and non-boolean values are configuration errors", () => {
    expect(parseConfig({ ...base, openapi: { serv: true } })._unsafeUnwrapErr().issues.map((i) => i.path)).toEqual(["openapi.serv"]);
    expect(parseConfig({ ...base, openapi: { serve: "yes" } })._unsafeUnwrapErr().issues.map((i) => i.path)).toContain("openapi.serve");
  });
});
