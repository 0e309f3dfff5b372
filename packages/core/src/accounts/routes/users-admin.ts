/**
 * Administrators' user routes (reference `lib/api/users.rb`): create, update, delete, block,
 * unblock, deactivate, activate. Anonymous → 401, non-admin → 403 `{"message":"403 Forbidden"}`,
 * unknown user → 404 `User Not Found`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import type { Identity } from "../../auth/identity.js";
import { errors, type ForgekitError } from "../../errors.js";
import { checkUnmodifiedSince } from "../../http/conditional.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { userWithAdmin } from "../entities/users.js";
import { EMAIL_TAKEN_MESSAGE, USERNAME_TAKEN_MESSAGE } from "../user-changes.js";
import type { User } from "../types.js";
import { requireAdmin } from "./impersonation-tokens.js";
import { defineRoute, READ_USER, respond, type AccountsRouteDeps } from "./kit.js";

const AUTH = { mode: "required" as const, extraScopes: READ_USER };

/** Grape's message when none of a group of parameters was given (`at_least_one_of`). */
const PASSWORD_CHOICES = "password, reset_password, force_random_password";

/** Builds the administrators' user routes. */
export function userAdminRoutes({ config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl } = config;

  const render = async (user: User) => {
    const primary = await store.emails.primaryFor(user.id);
    return userWithAdmin(user, baseUrl, { address: primary?.email ?? null, confirmedAt: primary?.confirmedAt ?? null });
  };

  /** Admin check, then the target user. */
  const target = async (identity: Identity, id: number): Promise<Result<{ admin: User; user: User }, ForgekitError>> => {
    const admin = requireAdmin(identity);
    if (admin.isErr()) return err(admin.error);
    const user = await store.users.findById(id);
    return user ? ok({ admin: admin.value, user }) : err(errors.notFound("User"));
  };

  /** `POST /users/:id/<action>`: 201 with `true` (reference), the transition's own 403 otherwise. */
  const transition = (action: "block" | "unblock" | "deactivate" | "activate") =>
    defineRoute({
      method: "POST",
      path: `/users/:id/${action}`,
      auth: AUTH,
      schema: z.object({ id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          // Reference: the API user cannot block or deactivate themselves (they would lose access mid-request).
          if (who.value.admin.id === who.value.user.id && (action === "block" || action === "deactivate")) {
            return err(errors.forbidden(`The API initiating user cannot be ${action === "block" ? "blocked" : "deactivated"} by the API`));
          }
          const done = await services.users[action](who.value.user.id);
          return done.map(() => ({ status: 201, body: true }));
        }),
    });

  return [
    defineRoute({
      method: "POST",
      path: "/users",
      auth: AUTH,
      schema: z.object({
        email: p.string(),
        username: p.string(),
        name: p.string(),
        password: p.string().optional(),
        reset_password: p.bool().optional(),
        force_random_password: p.bool().optional(),
        skip_confirmation: p.bool().optional(),
        admin: p.bool().optional(),
        private_profile: p.bool().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          if (params.password === undefined && params.reset_password !== true && params.force_random_password !== true) {
            return err(errors.invalidParam(PASSWORD_CHOICES, "are missing, at least one parameter must be provided"));
          }
          // forgekit sends no e-mail: reset_password and force_random_password both leave the user
          // without a password, to sign in through the host (or get one from a later PUT).
          const created = await services.users.create({
            email: params.email,
            username: params.username,
            name: params.name,
            password: params.password ?? null,
            admin: params.admin ?? false,
            privateProfile: params.private_profile ?? false,
            emailConfirmed: params.skip_confirmation === true,
          });
          if (created.isErr()) return err(takenAsConflict(created.error));
          return ok({ status: 201, body: await render(created.value) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/users/:id",
      auth: AUTH,
      schema: z.object({
        id: p.recordId(),
        email: p.string().optional(),
        username: p.string().optional(),
        name: p.string().optional(),
        password: p.string().optional(),
        admin: p.bool().optional(),
        private_profile: p.bool().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          if (who.value.admin.id === who.value.user.id && params.admin === false) {
            return err(errors.forbidden("Administrators cannot remove their own administrator access"));
          }
          const updated = await services.users.updateAccount(who.value.user.id, {
            ...(params.username !== undefined ? { username: params.username } : {}),
            ...(params.name !== undefined ? { name: params.name } : {}),
            ...(params.email !== undefined ? { email: params.email } : {}),
            ...(params.password !== undefined ? { password: params.password } : {}),
            ...(params.admin !== undefined ? { admin: params.admin } : {}),
            ...(params.private_profile !== undefined ? { privateProfile: params.private_profile } : {}),
          });
          if (updated.isErr()) return err(updated.error);
          return ok({ body: await render(updated.value) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/users/:id",
      auth: AUTH,
      schema: z.object({ id: p.recordId(), hard_delete: p.bool().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const who = await target(identity, params.id);
          if (who.isErr()) return err(who.error);
          if (who.value.admin.id === who.value.user.id) return err(errors.forbidden("The API initiating user cannot be deleted by the API"));
          const unchanged = checkUnmodifiedSince(request, who.value.user.updatedAt);
          if (unchanged.isErr()) return err(unchanged.error);
          const removed = await services.users.remove(who.value.user.id, { hardDelete: params.hard_delete === true });
          return removed.map(() => ({ status: 204 }));
        }),
    }),
    transition("block"),
    transition("unblock"),
    transition("deactivate"),
    transition("activate"),
  ];
}

/** Reference: a taken username or e-mail on create is 409 with a sentence, other validation 400. */
function takenAsConflict(error: ForgekitError): ForgekitError {
  if (error.code !== "validation") return error;
  const { username, email } = error.messages;
  if (Array.isArray(username) && username.includes("has already been taken")) return errors.conflict(USERNAME_TAKEN_MESSAGE);
  if (Array.isArray(email) && email.includes("has already been taken")) return errors.conflict(EMAIL_TAKEN_MESSAGE);
  return error;
}
