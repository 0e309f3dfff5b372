/**
 * Admin REST endpoints for OAuth applications, in the reference's shapes (GitLab `lib/api/applications.rb`):
 * `GET /applications`, `POST /applications`, `DELETE /applications/:id`, and
 * `POST /applications/:id/renew-secret`. Administrators only: anonymous → 401, others → 403.
 */
import { err } from "neverthrow";
import * as z from "zod";
import { defineRoute, respond } from "../../http/route-kit.js";
import { requireAdmin } from "../../accounts/routes/impersonation-tokens.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { applicationEntity } from "../applications.js";
import type { OAuthService } from "../service.js";

const AUTH = { mode: "required" as const };

/** Redirect URIs arrive one per line (the reference's form) or separated by spaces. */
const splitUris = (value: string): string[] => value.split(/\s+/).filter((u) => u !== "");
/** Scopes arrive space separated (reference) or comma separated. */
const splitScopes = (value: string): string[] => value.split(/[\s,]+/).filter((s) => s !== "");

/** Builds the application routes over `fk.oauth`. */
export function applicationRoutes(oauth: OAuthService): AnyRoute[] {
  return [
    defineRoute({
      method: "GET",
      path: "/applications",
      auth: AUTH,
      handler: ({ identity }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          const apps = await oauth.applications.list();
          return apps.map((list) => ({ body: list.map((app) => applicationEntity(app)) }));
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/applications",
      auth: AUTH,
      schema: z.object({
        name: p.string(),
        redirect_uri: p.string(),
        scopes: p.string(),
        confidential: p.bool().optional(),
        trusted: p.bool().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          const created = await oauth.applications.create({
            name: params.name,
            redirectUris: splitUris(params.redirect_uri),
            scopes: splitScopes(params.scopes),
            ...(params.confidential === undefined ? {} : { confidential: params.confidential }),
            ...(params.trusted === undefined ? {} : { trusted: params.trusted }),
            ownerId: null,
          });
          return created.map(({ application, clientSecret }) => ({ status: 201, body: applicationEntity(application, clientSecret) }));
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/applications/:id/renew-secret",
      summary: "Renew the secret of an application",
      auth: AUTH,
      schema: z.object({ id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          const renewed = await oauth.applications.rotateSecret(params.id);
          return renewed.map(({ application, clientSecret }) => ({ status: 201, body: applicationEntity(application, clientSecret) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/applications/:id",
      auth: AUTH,
      schema: z.object({ id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = requireAdmin(identity);
          if (admin.isErr()) return err(admin.error);
          const deleted = await oauth.applications.delete(params.id);
          return deleted.map(() => ({ status: 204 }));
        }),
    }),
  ];
}
