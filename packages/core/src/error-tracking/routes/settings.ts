/**
 * `GET`, `PUT`, `PATCH /projects/:id/error_tracking/settings` (spec "Error-tracking"; reference
 * §5.1). PUT creates or replaces the settings (`active` and `integrated` required); PATCH changes
 * existing ones (`active` required, `integrated` optional) and is 404 while there are none. Only the
 * integrated backend exists, so `project_name`, `sentry_external_url` and `api_url` are always null;
 * `integrated: false` is stored as given and keeps the collector closed. Booleans may come in the
 * query (gitbeaker sends them there on PUT and PATCH; client-compatibility §6.12–13).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { defineRoute, respond } from "../../http/route-kit.js";
import { p, parseBoolean, REASONS } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { settingsEntity } from "../entities.js";
import { maintainedProject, validate, type ErrorTrackingRouteDeps } from "./project.js";

/** A required boolean that may not be blank (reference `allow_blank: false`): `""` is `"<p> is empty"`. */
function nonBlankBool(): z.ZodType<boolean, unknown> {
  return z.unknown().transform((value, ctx) => {
    const blank = typeof value === "string" && value.trim() === "";
    const b = blank ? null : parseBoolean(value);
    if (b === null) {
      ctx.addIssue({ code: "custom", message: blank ? REASONS.empty : REASONS.invalid, input: value });
      return z.NEVER;
    }
    return b;
  });
}

const putSchema = z.object({ active: nonBlankBool(), integrated: p.bool() });
const patchSchema = z.object({ active: nonBlankBool(), integrated: p.bool().optional() });

const PATH = "/projects/:id/error_tracking/settings";

/** Builds the settings routes. */
export function settingsRoutes({ config, errorTracking }: ErrorTrackingRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: "GET",
      path: PATH,
      auth: { mode: "required" },
      handler: ({ identity, pathParams }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          return (await errorTracking.getSettings(project.value.id)).map((settings) => ({ body: settingsEntity(settings) }));
        }),
    }),
    defineRoute({
      method: "PUT",
      path: PATH,
      auth: { mode: "required" },
      // Validated after the access checks (see project.ts), so declared here rather than as `schema`.
      paramNames: Object.keys(putSchema.shape),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          const input = validate(putSchema, params);
          if (input.isErr()) return err(input.error);
          const saved = await errorTracking.putSettings(project.value.id, input.value);
          return saved.isErr() ? err(saved.error) : ok({ body: settingsEntity(saved.value) });
        }),
    }),
    defineRoute({
      method: "PATCH",
      path: PATH,
      auth: { mode: "required" },
      // Validated after the access checks (see project.ts), so declared here rather than as `schema`.
      paramNames: Object.keys(patchSchema.shape),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await maintainedProject(config, identity, pathParams["id"] ?? "");
          if (project.isErr()) return err(project.error);
          const input = validate(patchSchema, params);
          if (input.isErr()) return err(input.error);
          const { active, integrated } = input.value;
          const saved = await errorTracking.patchSettings(project.value.id, integrated === undefined ? { active } : { active, integrated });
          return saved.isErr() ? err(saved.error) : ok({ body: settingsEntity(saved.value) });
        }),
    }),
  ];
}
