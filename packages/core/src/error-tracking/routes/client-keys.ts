/**
 * `GET`, `POST /projects/:id/error_tracking/client_keys` and `DELETE …/client_keys/:key_id` (spec
 * "Error-tracking"; reference §5.2). The list is offset-paginated; POST takes no input (gitbeaker's
 * `{}` body is fine) and answers 201 with the new key; DELETE answers 204 without a body or content
 * type (decisions table: the spec's DELETE status, not the reference's 200) and 404 `Not found` for
 * an unknown key; with `If-Unmodified-Since` earlier than the key's creation (keys are never edited
 * through the API) it is 412 and the key stays (spec "General status codes"). A DELETE without `:key_id` (gitbeaker's `remove`) hits a path that has only GET
 * and POST: the router's 405 with `Allow` (client-compatibility §6.16).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { defineRoute, listHeaders, respond } from "../../http/route-kit.js";
import { checkUnmodifiedSince } from "../../http/conditional.js";
import { offsetPage } from "../../http/pagination-offset.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { clientKeyEntity } from "../entities.js";
import { maintainedProject, validate, type ErrorTrackingRouteDeps } from "./project.js";

const PATH = "/projects/:id/error_tracking/client_keys";
// Any integer: the service answers an id beyond the id range like any unknown key (404).
const deleteSchema = z.object({ key_id: p.int() });

/** Builds the client-key routes. */
export function clientKeyRoutes({ config, errorTracking }: ErrorTrackingRouteDeps): AnyRoute[] {
  const { baseUrl } = config;
  return [
    defineRoute({
      method: "GET",
      path: PATH,
      auth: { mode: "required" },
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          const page = offsetPage(params);
          if (page.isErr()) return err(page.error);
          const listed = await errorTracking.listClientKeys(project.value.id, { page: page.value.page, perPage: page.value.perPage });
          if (listed.isErr()) return err(listed.error);
          return ok({ body: listed.value.items.map((key) => clientKeyEntity(key, baseUrl)), headers: listHeaders(baseUrl, request, page.value, listed.value) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: PATH,
      auth: { mode: "required" },
      handler: ({ identity, pathParams }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          return (await errorTracking.createClientKey(project.value.id)).map((key) => ({ status: 201, body: clientKeyEntity(key, baseUrl) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${PATH}/:key_id`,
      auth: { mode: "required" },
      paramNames: Object.keys(deleteSchema.shape),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          const input = validate(deleteSchema, params);
          if (input.isErr()) return err(input.error);
          const key = await errorTracking.findClientKey(project.value.id, input.value.key_id);
          if (key.isErr()) return err(key.error);
          const unchanged = checkUnmodifiedSince(request, key.value.createdAt);
          if (unchanged.isErr()) return err(unchanged.error);
          return (await errorTracking.deleteClientKey(project.value.id, key.value.id)).map(() => ({ status: 204 }));
        }),
    }),
  ];
}
