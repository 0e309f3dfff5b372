/**
 * `GET /user`, `GET /users`, `GET /users/:id` and `GET /user/activities` (reference
 * `lib/api/users.rb`, `UsersFinder`).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { UserListFilter } from "../../ports/store.js";
import { userActivityEntity, userBasic, userEntity, userWithAdmin, userPublic } from "../entities/users.js";
import { utcDay } from "../user-activity.js";
import { requireAdmin } from "./impersonation-tokens.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, READ_USER, readPage, respond, type AccountsRouteDeps } from "./kit.js";

const listSchema = z.object({
  ...PAGINATION_PARAMS,
  search: p.string().optional(),
  username: p.string().optional(),
  active: p.bool().optional(),
  blocked: p.bool().optional(),
  humans: p.bool().optional(),
  exclude_internal: p.bool().optional(),
  without_project_bots: p.bool().optional(),
  order_by: p.enum(["id", "name", "username", "created_at", "updated_at"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
});

/**
 * The day `months` calendar months before `at` (UTC), the day of the month clamped to the target
 * month's length (Rails `6.months.ago`: 31 August → 29 February in a leap year).
 */
export function monthsBefore(at: Date, months: number): string {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return utcDay(new Date(Date.UTC(year, month, Math.min(at.getUTCDate(), lastDay))));
}

/** Builds the user routes. */
export function userRoutes({ config }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl } = config;

  const emailOf = async (userId: number) => {
    const primary = await store.emails.primaryFor(userId);
    return { address: primary?.email ?? null, confirmedAt: primary?.confirmedAt ?? null };
  };

  return [
    defineRoute({
      method: "GET",
      path: "/users",
      // Reference: anyone may list users while the public visibility level is not restricted.
      auth: { mode: "optional", extraScopes: READ_USER },
      schema: listSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const admin = identity.user?.admin === true;
          // active and blocked together match nobody (the reference applies both scopes).
          if (params.active === true && params.blocked === true) {
            return ok({ body: [], headers: listHeaders(baseUrl, request, page.value, { items: [], total: 0, hasNext: false }) });
          }
          const state = params.active === true ? "active" : params.blocked === true ? "blocked" : undefined;
          const filter: UserListFilter = {
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.username !== undefined ? { username: params.username } : {}),
            ...(state !== undefined ? { state } : {}),
            includeBots: params.humans !== true && params.exclude_internal !== true && params.without_project_bots !== true,
            // Reference: ordering parameters are for administrators; everyone else gets newest first.
            orderBy: admin ? (params.order_by ?? "id") : "id",
            sort: admin ? (params.sort ?? "desc") : "desc",
          };
          const listed = await store.users.list(filter, page.value);
          if (!admin) return ok({ body: listed.items.map((user) => userBasic(user, baseUrl)), headers: listHeaders(baseUrl, request, page.value, listed) });
          // One query for the page's primary addresses, not one per user.
          const primaries = new Map((await store.emails.primaryForUsers(listed.items.map((u) => u.id))).map((e) => [e.userId, e]));
          const body = listed.items.map((user) => {
            const primary = primaries.get(user.id);
            return userWithAdmin(user, baseUrl, { address: primary?.email ?? null, confirmedAt: primary?.confirmedAt ?? null });
          });
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/user",
      summary: "Get the signed-in user",
      auth: { mode: "required", extraScopes: READ_USER },
      handler: ({ identity }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const email = await emailOf(user.id);
          // Administrators get the admin fields (reference: UserWithAdmin vs UserPublic).
          return ok({ body: user.admin ? userWithAdmin(user, baseUrl, email) : userPublic(user, baseUrl, email) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/user/activities",
      summary: "List users' last activity days (administrators)",
      auth: { mode: "required", extraScopes: READ_USER },
      // Reference: `from` (a date or date-time; default six months ago) counts by its UTC day.
      schema: z.object({ ...PAGINATION_PARAMS, from: p.datetime().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const activeSince = params.from === undefined ? monthsBefore(config.clock.now(), 6) : params.from.slice(0, 10);
          // Reference: every user (bots and blocked users too) active on or after that day, oldest day first.
          const listed = await store.users.list({ activeSince, includeBots: true, orderBy: "last_activity_on", sort: "asc" }, page.value);
          return ok({ body: listed.items.map(userActivityEntity), headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/users/:id",
      auth: { mode: "optional", extraScopes: READ_USER },
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const viewer = identity.user;
          // Reference: `forbidden!('Not authorized!') unless current_user`.
          if (viewer === null) return err(errors.forbidden("Not authorized!"));
          const user = typeof params.id === "number" ? await store.users.findById(params.id) : await store.users.findByUsername(params.id);
          if (!user) return err(errors.notFound("User"));
          if (viewer.admin) return ok({ body: userWithAdmin(user, baseUrl, await emailOf(user.id)) });
          return ok({ body: userEntity(user, baseUrl, viewer) });
        }),
    }),
  ];
}
