/**
 * Checking responses against the entity schemas of the OpenAPI document (openapi/entities.ts):
 * {@link deepStrict} makes every object of a schema strict (no field missing, none unknown, at any
 * depth), {@link schemaIssues} lists where a value disagrees, and {@link apiCaller} sends requests
 * to a test instance without a server.
 */
import type { expect } from "vitest";
import * as z from "zod";
import type { HttpInstance } from "../http/instance.js";
import { ENTITY_SCHEMAS, type EntityName } from "../openapi/entities.js";

/**
 * `schema` with every object in it strict: an unknown key anywhere is an issue. Wrappers (optional,
 * nullable, arrays, unions, records, intersections) are rebuilt around their strict contents.
 */
export function deepStrict(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case "object": {
      const shape = def["shape"] as Record<string, z.ZodType>;
      return z.strictObject(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, deepStrict(v)])));
    }
    case "array":
      return z.array(deepStrict(def["element"] as z.ZodType));
    case "optional":
      return deepStrict(def["innerType"] as z.ZodType).optional();
    case "nullable":
      return deepStrict(def["innerType"] as z.ZodType).nullable();
    case "union":
      return z.union((def["options"] as z.ZodType[]).map(deepStrict) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    case "record":
      return z.record(def["keyType"] as z.ZodString, deepStrict(def["valueType"] as z.ZodType));
    case "intersection":
      return z.intersection(deepStrict(def["left"] as z.ZodType), deepStrict(def["right"] as z.ZodType));
    default:
      return schema;
  }
}

const strictOf = new WeakMap<z.ZodType, z.ZodType>();

/** Where `value` disagrees with `schema` made {@link deepStrict}: `path: message` lines, empty when it fits. */
export function schemaIssues(schema: z.ZodType, value: unknown): string[] {
  let strict = strictOf.get(schema);
  if (strict === undefined) {
    strict = deepStrict(schema);
    strictOf.set(schema, strict);
  }
  const parsed = strict.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}${"keys" in i ? ` ${JSON.stringify(i.keys)}` : ""}`);
}

/** A request to a test instance: JSON in, the status and parsed JSON out. */
export type ApiCall = (method: string, path: string, body?: unknown, options?: { query?: string; token?: string }) => Promise<{ status: number; headers: Record<string, string>; json: unknown; text: string }>;

/** Sends `/api/v4` requests to `fk` (without a server) with `token` as `PRIVATE-TOKEN`. */
export function apiCaller(fk: Pick<HttpInstance, "handle">, token: string): ApiCall {
  return async (method, path, body, options = {}) => {
    const headers: Record<string, string> = { "private-token": options.token ?? token, "content-type": "application/json" };
    const r = await fk.handle({ method, path: `/api/v4${path}`, rawQuery: options.query ?? "", headers, ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }) });
    const text = r.body === undefined ? "" : typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body);
    let json: unknown = undefined;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, json, text };
  };
}

type Json = Record<string, unknown>;
type CallOptions = { query?: string; token?: string };

/**
 * Assertions over {@link apiCaller}: `send` expects a success and gives its JSON; `check` holds a
 * value to an entity's schema (deep-strict); `checked` / `checkedList` send and check one entity or
 * every item of a non-empty list. Failures name the entity and the request.
 */
export function schemaChecks(call: ApiCall, expectFn: typeof expect) {
  const label = (method: string, path: string, options: CallOptions) => `${method} ${path}${options.query === undefined ? "" : `?${options.query}`}`;
  const send = async (method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const r = await call(method, path, body, options);
    expectFn(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.json;
  };
  const check = (entity: EntityName, value: unknown, where: string) => expectFn(schemaIssues(ENTITY_SCHEMAS[entity], value), `${entity} ← ${where}`).toEqual([]);
  const checkEach = (entity: EntityName, value: unknown, where: string) => {
    expectFn(Array.isArray(value) && value.length > 0, `${where} lists something`).toBe(true);
    for (const item of value as unknown[]) check(entity, item, where);
  };
  const checked = async (entity: EntityName, method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const value = await send(method, path, body, options);
    check(entity, value, label(method, path, options));
    return value as Json;
  };
  const checkedList = async (entity: EntityName, path: string, options: CallOptions = {}) => {
    const value = await send("GET", path, undefined, options);
    checkEach(entity, value, label("GET", path, options));
    return value as Json[];
  };
  return { send, check, checkEach, checked, checkedList };
}
