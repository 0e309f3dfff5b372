/**
 * The instance the convention suites run against: `createApiHandler` over a small fake route table
 * and a fake `authenticate`. Conventions (routing, params, errors, pagination, limits) belong to the
 * HTTP layer, so these suites need no accounts or store.
 */
import { errAsync, okAsync } from "neverthrow";
import * as z from "zod";
import type { User } from "../../accounts/types.js";
import { anonymous, type Identity } from "../../auth/identity.js";
import { errors, type ForgekitError } from "../../errors.js";
import { checkUnmodifiedSince } from "../../http/conditional.js";
import { checkSpam } from "../../http/spam.js";
import type { SpamChecker } from "../../ports/host.js";
import type { HttpInstance } from "../../http/instance.js";
import { keysetHeaders, keysetPage } from "../../http/pagination-keyset.js";
import { offsetHeaders, offsetPage } from "../../http/pagination-offset.js";
import { p, parseParams } from "../../http/params.js";
import { createApiHandler, type Authenticate, type HttpLimits } from "../../http/pipeline.js";
import { parseQuery } from "../../http/query.js";
import type { AnyRoute } from "../../http/router.js";
import type { HttpRequest, Params, Route } from "../../http/types.js";
import type { LogLevel } from "../../ports/runtime.js";

/** The external base URL the fixture's `Link` headers use (an instance behind a proxy under `/prefix`). */
export const FIXTURE_BASE_URL = "https://forge.example.test/prefix";
/** Number of fake projects (3 pages of 20, the last one partial). */
export const FIXTURE_PROJECTS = 45;
/** Number of fake events: above the 10,000 total-count limit. */
export const FIXTURE_EVENTS = 10_001;
/** `updated_at` of every fake project (for If-Unmodified-Since). */
export const FIXTURE_UPDATED_AT = new Date("2024-05-01T12:00:00.000Z");
/** Fake groups, in name order, for the opaque-cursor keyset. */
export const FIXTURE_GROUPS = ["alpha", "bravo", "charlie", "delta", "echo"];
/** `PRIVATE-TOKEN` values the fake authenticate knows. */
export const FIXTURE_TOKENS = { valid: "fixture-valid", expired: "fixture-expired", readOnly: "fixture-read-api" } as const;

const user: User = {
  id: 1, username: "root", name: "Root", state: "active", admin: true, bot: null, twoFactorEnabled: false, privateProfile: false,
  avatarUrl: null, passwordHash: null, namespaceId: 1, externalId: null, lastActivityOn: null, createdAt: FIXTURE_UPDATED_AT, updatedAt: FIXTURE_UPDATED_AT,
};

const fakeAuthenticate: Authenticate = (req, params, route) => {
  const token = req.headers["private-token"] ?? (typeof params["private_token"] === "string" ? params["private_token"] : undefined);
  if (token === FIXTURE_TOKENS.expired) return errAsync(errors.invalidToken("expired"));
  let identity: Identity = anonymous;
  if (token === FIXTURE_TOKENS.valid || token === FIXTURE_TOKENS.readOnly) {
    const scopes = token === FIXTURE_TOKENS.valid ? ["api"] : ["read_api"];
    identity = { user, credential: { kind: "personal", scopes } };
    if (route.method !== "GET" && !scopes.includes("api")) return errAsync(errors.insufficientScope(["api", "read_api"]));
  } else if (token !== undefined) return errAsync(errors.unauthorized());
  if (route.auth.mode === "required" && identity.user === null) return errAsync(errors.unauthorized());
  return okAsync(identity);
};

const project = (id: number) => ({ id, name: `project-${id}`, path_with_namespace: `grp/project-${id}` });

/** Errors `GET /api/v4/fixture/errors/:code` renders, by name. */
export const FIXTURE_ERRORS: Record<string, ForgekitError> = {
  not_found: errors.notFound(),
  project_not_found: errors.notFound("Project"),
  record_not_found: errors.recordNotFound(),
  validation: errors.validation({ bio: ["is too long (maximum is 255 characters)"], nested: { name: ["can't be blank"] } }),
  bad_request: errors.badRequest(),
  bad_request_reason: errors.badRequest("reason"),
  bad_request_message: errors.badRequestMessage("'loud' is not a valid level"),
  forbidden: errors.forbidden(),
  forbidden_reason: errors.forbidden("Must be admin to use sudo"),
  revoked: errors.invalidToken("revoked"),
  impersonation_disabled: errors.invalidToken("impersonation_disabled"),
  insufficient_scope: errors.insufficientScope(["read_user", "api", "read_api"]),
  conflict: errors.conflict(),
  conflict_reason: errors.conflict("Already exists"),
  unprocessable: errors.unprocessable(),
  rate_limited: errors.rateLimited(2.2),
  spam: errors.spam("Your snippet has been recognized as spam and has been discarded."),
  spam_captcha: errors.spam("Your snippet has been recognized as spam.", { spamLogId: 42, siteKey: "site-key" }),
  internal: errors.internal(new Error("db password=hunter2 token=glpat-0123456789abcdefghijklmn")),
};

/**
 * A SpamChecker that flags text containing "spam"; text containing "captcha" asks for a CAPTCHA
 * (spam log 42), which the retry with answer `solved` and log id 42 passes.
 */
export const fixtureSpamChecker: SpamChecker = {
  check: (input) => {
    if (input.text.includes("captcha")) {
      if (input.captchaResponse === "solved" && input.spamLogId === 42) return Promise.resolve({ spam: false });
      return Promise.resolve({ spam: true, message: "Your snippet has been recognized as spam.", captcha: { spamLogId: 42, siteKey: "site-key" } });
    }
    if (input.text.includes("spam")) return Promise.resolve({ spam: true, message: "Your snippet has been recognized as spam and has been discarded." });
    return Promise.resolve({ spam: false });
  },
};

const none = { mode: "optional" } as const;
const echo = (status?: number): Route["handler"] => (ctx) => okAsync({ ...(status === undefined ? {} : { status }), body: { params: ctx.params, path: ctx.pathParams } });

const createSchema = z.object({
  name: p.string({ allowBlank: false }),
  visibility: p.enum(["private", "internal", "public"]).optional(),
  active: p.bool().optional(),
  count: p.int().optional(),
  due_date: p.date().optional(),
  created_after: p.datetime().optional(),
  tags: p.array(p.string()).optional(),
  rules: z.array(z.object({ name: p.string(), level: p.int() })).optional(),
  id: p.id().optional(),
});

const getProjectRoute: Route<{ id: number | string }> = {
  method: "GET", path: "/projects/:id", auth: none, params: parseParams(z.object({ id: p.id() })), handler: (ctx) => getProject(ctx.params.id),
};

const routes: AnyRoute[] = [
  { method: "GET", path: "/projects", auth: none, handler: (ctx) => listProjects(ctx.request, ctx.params) },
  { method: "POST", path: "/projects", auth: { mode: "required" }, params: parseParams(createSchema), handler: (ctx) => okAsync({ body: ctx.params }) },
  getProjectRoute as AnyRoute,
  { method: "PUT", path: "/projects/:id", auth: none, handler: echo() },
  {
    method: "DELETE", path: "/projects/:id", auth: none,
    handler: (ctx) => {
      const check = checkUnmodifiedSince(ctx.request, FIXTURE_UPDATED_AT);
      return check.isErr() ? errAsync(check.error) : okAsync({});
    },
  },
  { method: "GET", path: "/projects/:id/files/:file_path/raw", auth: none, handler: echo() },
  { method: "GET", path: "/events", auth: none, handler: (ctx) => listEvents(ctx.request, ctx.params) },
  { method: "GET", path: "/groups", auth: none, handler: (ctx) => listGroups(ctx.request, ctx.params) },
  { method: "GET", path: "/version", auth: none, handler: () => okAsync({ body: { version: "17.0.0" } }) },
  { method: "GET", path: "/user", auth: { mode: "required" }, handler: (ctx) => okAsync({ body: { id: ctx.identity.user?.id } }) },
  { method: "GET", path: "/echo", auth: none, handler: echo(200) },
  { method: "POST", path: "/echo", auth: none, handler: echo(200) },
  { method: "PUT", path: "/echo", auth: none, handler: echo(200) },
  { method: "PATCH", path: "/echo", auth: none, handler: echo(200) },
  { method: "DELETE", path: "/echo", auth: none, handler: echo(200) },
  { method: "POST", path: "/empty", auth: none, handler: () => okAsync({ status: 202 }) },
  {
    method: "POST", path: "/snippets", auth: none, params: parseParams(z.object({ content: p.string() })),
    handler: (ctx) => {
      const content = (ctx.params as { content: string }).content;
      return checkSpam(fixtureSpamChecker, ctx.request, { userId: null, target: "snippet", text: content }).map(() => ({ body: { content } }));
    },
  },
  { method: "GET", path: "/fixture/errors/:code", auth: none, handler: (ctx) => errAsync(FIXTURE_ERRORS[ctx.pathParams["code"] ?? ""] ?? errors.notFound()) },
  { method: "GET", path: "/fixture/throw", auth: none, handler: () => { throw new Error("secret glpat-0123456789abcdefghijklmn leaked?"); } },
  {
    method: "POST", path: "/collector/api/:id/envelope", auth: none, rawBody: true,
    handler: (ctx) => okAsync({ status: 200, body: { type: ctx.request.headers["content-type"] ?? null, bytes: ctx.request.body?.length ?? 0 } }),
  },
];

function getProject(id: number | string) {
  const n = typeof id === "number" ? id : Number(/^grp\/project-(\d+)$/.exec(id)?.[1] ?? NaN);
  return n >= 1 && n <= FIXTURE_PROJECTS ? okAsync({ body: project(n) }) : errAsync(errors.notFound("Project"));
}

function listProjects(req: HttpRequest, raw: Params) {
  const keyset = keysetPage(raw, { orderBy: "id", sort: ["asc", "desc"], cursor: "id", defaults: { sort: "desc" } });
  if (keyset.isErr()) return errAsync(keyset.error);
  const query = parseQuery(req.rawQuery);
  if (keyset.value !== null) {
    const k = keyset.value;
    const all = Array.from({ length: FIXTURE_PROJECTS }, (_, i) => i + 1);
    const ordered = k.sort === "asc" ? all : all.reverse();
    const after = k.after === undefined ? undefined : Number(k.after);
    const rest = ordered.filter((id) => after === undefined || (k.sort === "asc" ? id > after : id < after));
    const items = rest.slice(0, k.perPage);
    const nextCursor = items.length > 0 ? String(items[items.length - 1]) : null;
    return okAsync({ body: items.map(project), headers: keysetHeaders(FIXTURE_BASE_URL, req, query, k, { items, nextCursor }) });
  }
  const page = offsetPage(raw);
  if (page.isErr()) return errAsync(page.error);
  const { page: n, perPage } = page.value;
  const start = (n - 1) * perPage;
  const items = Array.from({ length: Math.max(0, Math.min(perPage, FIXTURE_PROJECTS - start)) }, (_, i) => project(start + i + 1));
  const result = { total: FIXTURE_PROJECTS, hasNext: start + perPage < FIXTURE_PROJECTS };
  return okAsync({ body: items, headers: offsetHeaders(FIXTURE_BASE_URL, req, query, page.value, result) });
}

function listEvents(req: HttpRequest, params: Params) {
  const keyset = keysetPage(params, null);
  if (keyset.isErr()) return errAsync(keyset.error);
  const page = offsetPage(params);
  if (page.isErr()) return errAsync(page.error);
  const { page: n, perPage } = page.value;
  const items = Array.from({ length: perPage }, (_, i) => ({ id: (n - 1) * perPage + i + 1 }));
  const hasNext = n * perPage < FIXTURE_EVENTS;
  return okAsync({ body: items, headers: offsetHeaders(FIXTURE_BASE_URL, req, parseQuery(req.rawQuery), page.value, { total: null, hasNext }) });
}

function listGroups(req: HttpRequest, params: Params) {
  const keyset = keysetPage(params, { orderBy: "name", sort: ["asc"], cursor: "opaque", defaults: { orderBy: "name", sort: "asc" } });
  if (keyset.isErr()) return errAsync(keyset.error);
  if (keyset.value === null) return okAsync({ body: FIXTURE_GROUPS.map((name) => ({ name })) });
  const k = keyset.value;
  const rest = FIXTURE_GROUPS.filter((name) => k.after === undefined || name > k.after);
  const items = rest.slice(0, k.perPage);
  const nextCursor = rest.length > items.length ? (items[items.length - 1] ?? null) : null;
  return okAsync({ body: items.map((name) => ({ name })), headers: keysetHeaders(FIXTURE_BASE_URL, req, parseQuery(req.rawQuery), k, { items, nextCursor }) });
}

/** Log lines the fixture's logger received (for the "500 is logged, never echoed" rule). */
export interface CapturedLog {
  level: LogLevel;
  event: string;
  fields?: Record<string, unknown> | undefined;
}

/**
 * A fresh convention instance; `logs` collects what its logger received. `failureRoutes: false`
 * leaves out `/fixture/*`, the routes that fail on purpose (500s included).
 */
export function createConventionInstance(
  limits: Partial<HttpLimits> = {},
  options: { failureRoutes?: boolean } = {},
): HttpInstance & { logs: CapturedLog[] } {
  const logs: CapturedLog[] = [];
  const handle = createApiHandler({
    routes: options.failureRoutes === false ? routes.filter((r) => !r.path.startsWith("/fixture/")) : routes,
    authenticate: fakeAuthenticate,
    logger: { log: (level, event, fields) => logs.push({ level, event, fields }) },
    limits,
  });
  return { handle, logs, ...(limits.maxBodyBytes === undefined ? {} : { maxBodyBytes: limits.maxBodyBytes }) };
}
