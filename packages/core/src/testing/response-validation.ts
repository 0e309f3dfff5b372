/**
 * HTTP-suite response validation (DESIGN §2: "the HTTP suite validates every response against"
 * the entity's schema). The harness checks every 2xx answer against what the OpenAPI document says
 * of the route it hit: a JSON body against the route's entity schema made strict at every depth
 * (testing/schema-check.ts), the status against the documented one, and JSON against routes
 * documented as raw bytes or bodyless. `FORGEKIT_TEST_VALIDATE_RESPONSES` sets the mode:
 *
 * - unset, `1` or `throw` (the default): a disagreement fails the request (and so the test),
 *   naming route and issues;
 * - `report`: disagreements are only reported; the tests go on;
 * - `0`, `false` or `off`: no validation.
 *
 * Either way each disagreement is appended to the file `FORGEKIT_TEST_RESPONSE_REPORT` when set
 * (one JSON object a line); in `report` mode without it, to stderr.
 */
import { appendFileSync } from "node:fs";
import type * as z from "zod";
import type { HttpInstance } from "../http/instance.js";
import { createRouter, type AnyRoute, type RouteMatch } from "../http/router.js";
import { successStatus } from "../openapi/document.js";
import { ENTITY_SCHEMAS } from "../openapi/entities.js";
import { routeResponse } from "../openapi/responses.js";
import { schemaIssues } from "./schema-check.js";

/** What a harness request answered, as far as validation reads it. */
export interface AnsweredRequest {
  method: string;
  /** The request target below the mount point (`/api/v4/…`, maybe with a query). */
  target: string;
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

/** Checks one answer; throws in `throw` mode when it disagrees with the document. */
export type ResponseValidator = (answered: AnsweredRequest) => void;

/** The validation mode from the environment (default `throw`), or null when turned off. */
export function validationMode(env: Record<string, string | undefined> = process.env): "throw" | "report" | null {
  const value = env["FORGEKIT_TEST_VALIDATE_RESPONSES"]?.trim().toLowerCase() ?? "";
  if (value === "0" || value === "false" || value === "off") return null;
  return value === "report" ? "report" : "throw";
}

/**
 * The disagreements of one answer with the document of `route` (empty when it agrees): the status,
 * the kind of body, and the JSON body's issues against the entity schema.
 */
export function responseDisagreements(route: AnyRoute, answered: Pick<AnsweredRequest, "status" | "headers" | "json">): string[] {
  const out: string[] = [];
  const documented = successStatus(route);
  const json = (answered.headers["content-type"] ?? "").startsWith("application/json");
  if (String(answered.status) !== documented && !(documented === "204" && answered.status === 202)) out.push(`status ${answered.status}, documented ${documented}`);
  const response = routeResponse(route);
  if (!json) return out;
  if (response === undefined) return [...out, "JSON body, but no documented schema"];
  if (!("entity" in response)) return [...out, `JSON body, documented as ${"raw" in response ? `raw ${response.raw.join(", ")}` : "redirect" in response ? "a redirect" : "no body"}`];
  if (documented === "204") return [...out, "JSON body, documented without one (204)"];
  const entity = ENTITY_SCHEMAS[response.entity] as z.ZodType;
  if (response.list !== true) return [...out, ...schemaIssues(entity, answered.json).map((issue) => `${response.entity} ${issue}`)];
  if (!Array.isArray(answered.json)) return [...out, `${response.entity}[]: not a list`];
  return [...out, ...answered.json.flatMap((item: unknown, i) => schemaIssues(entity, item).map((issue) => `${response.entity}[${i}] ${issue}`))];
}

/** A validator for the routes of `instance` in the environment's mode, or undefined when off (or the instance has no route table). */
export function responseValidator(instance: HttpInstance, env: Record<string, string | undefined> = process.env): ResponseValidator | undefined {
  const mode = validationMode(env);
  const routes = (instance as { routes?: readonly AnyRoute[] }).routes;
  if (mode === null || routes === undefined) return undefined;
  const router = createRouter(routes);
  const reportFile = env["FORGEKIT_TEST_RESPONSE_REPORT"];
  return (answered) => {
    if (answered.status < 200 || answered.status > 299 || answered.method.toUpperCase() === "HEAD") return;
    let match: RouteMatch;
    try {
      match = router.match(answered.method, answered.target.split("?")[0] ?? "");
    } catch {
      return; // a malformed path: the route answered no 2xx for it
    }
    if (match.kind !== "matched") return;
    const found = responseDisagreements(match.route, answered);
    if (found.length === 0) return;
    const where = `${answered.method.toUpperCase()} ${match.route.path}`;
    const line = JSON.stringify({ route: where, target: answered.target, status: answered.status, issues: found.slice(0, 20) });
    if (reportFile !== undefined) appendFileSync(reportFile, `${line}\n`);
    if (mode === "throw") throw new Error(`response of ${where} (${answered.target}) disagrees with the OpenAPI document:\n  ${found.slice(0, 20).join("\n  ")}`);
    if (reportFile === undefined) process.stderr.write(`response validation: ${line}\n`);
  };
}
