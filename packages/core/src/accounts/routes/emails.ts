/**
 * E-mail addresses (reference `lib/api/users.rb`, entity `Email`: `id email confirmed_at`): the
 * caller's own under `/user/emails`, any user's under `/users/:id/emails` for administrators.
 * Addresses a user adds are unconfirmed (forgekit sends no confirmation mail; the host confirms);
 * an administrator may add them confirmed with `skip_confirmation`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import type { Identity } from "../../auth/identity.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { iso } from "../entities/time.js";
import type { Email, User } from "../types.js";
import { requireAdmin } from "./impersonation-tokens.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, READ_USER, readPage, respond, type AccountsRouteDeps } from "./kit.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";

/** The `Email` entity. */
export function emailEntity(email: Email) {
  return { id: email.id, email: email.email, confirmed_at: iso(email.confirmedAt) };
}

const AUTH = { mode: "required" as const, extraScopes: READ_USER };

/** Builds the e-mail routes. */
export function emailRoutes({ config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl } = config;

  const self = (identity: Identity): Result<User, ForgekitError> => (identity.user ? ok(identity.user) : err(errors.unauthorized()));
  const adminTarget = async (identity: Identity, id: number): Promise<Result<User, ForgekitError>> => {
    const admin = requireAdmin(identity);
    if (admin.isErr()) return err(admin.error);
    const user = await store.users.findById(id);
    return user ? ok(user) : err(errors.notFound("User"));
  };

  /** The routes of one owner: `/user/emails` (the caller) or `/users/:id/emails` (administrators). */
  const routesFor = (base: string, idParam: z.ZodRawShape, owner: (identity: Identity, params: { id?: number }) => Promise<Result<User, ForgekitError>>, admin: boolean) => [
    defineRoute({
      method: "GET",
      path: base,
      auth: AUTH,
      schema: z.object({ ...PAGINATION_PARAMS, ...idParam }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const user = await owner(identity, params as { id?: number });
          if (user.isErr()) return err(user.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const all = await store.emails.listByUser(user.value.id);
          const { page: n, perPage } = page.value;
          const items = all.slice((n - 1) * perPage, n * perPage);
          const result = { items, total: all.length > TOTAL_COUNT_LIMIT ? null : all.length, hasNext: all.length > n * perPage };
          return ok({ body: items.map(emailEntity), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      schema: z.object({ ...idParam, email: p.string(), ...(admin ? { skip_confirmation: p.bool().optional() } : {}) }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = await owner(identity, params as { id?: number });
          if (user.isErr()) return err(user.error);
          const confirmed = admin && (params as { skip_confirmation?: boolean }).skip_confirmation === true;
          const added = await services.users.addEmail(user.value.id, params.email, { confirmed });
          return added.map((email) => ({ status: 201, body: emailEntity(email) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/:email_id`,
      auth: AUTH,
      schema: z.object({ ...idParam, email_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = await owner(identity, params as { id?: number });
          if (user.isErr()) return err(user.error);
          const removed = await services.users.removeEmail(user.value.id, params.email_id);
          return removed.map(() => ({ status: 204 }));
        }),
    }),
  ];

  return [
    ...routesFor("/user/emails", {}, async (identity) => self(identity), false),
    defineRoute({
      method: "GET",
      path: "/user/emails/:email_id",
      auth: AUTH,
      schema: z.object({ email_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = self(identity);
          if (user.isErr()) return err(user.error);
          const email = (await store.emails.listByUser(user.value.id)).find((e) => e.id === params.email_id);
          return email ? ok({ body: emailEntity(email) }) : err(errors.notFound("Email"));
        }),
    }),
    ...routesFor("/users/:id/emails", { id: p.recordId() }, (identity, params) => adminTarget(identity, params.id ?? 0), true),
  ];
}
