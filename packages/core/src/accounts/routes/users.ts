/** `GET /user` and `GET /users/:id` (reference `lib/api/users.rb`). */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { userEntity, userWithAdmin, userPublic } from "../entities/users.js";
import { defineRoute, READ_USER, respond, type AccountsRouteDeps } from "./kit.js";

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
      path: "/user",
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
