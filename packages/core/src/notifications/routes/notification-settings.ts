/**
 * `GET`/`PUT /notification_settings`, `/groups/:id/notification_settings`,
 * `/projects/:id/notification_settings` (spec "Notification settings"; reference
 * `lib/api/notification_settings.rb`): every route needs a signed-in user (anonymous → 401).
 * Unknown parameters are ignored and path values win over query ones (python-gitlab sends
 * `?id=<built-in function id>`: client-compatibility §6.15).
 */
import { err } from "neverthrow";
import * as z from "zod";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { notificationSettingsEntity } from "../entity.js";
import type { NotificationSettingsInput, NotificationSettingsService, NotificationTarget } from "../settings.js";
import { customEventKeys } from "../event-keys.js";
import type { CustomEventKey, NotificationLevel } from "../types.js";

/** What the notification routes are built from. */
export interface NotificationRouteDeps {
  config: ForgekitConfig;
  notificationSettings: NotificationSettingsService;
}

const AUTH = { mode: "required" } as const;

/** Builds the notification settings routes. */
export function notificationSettingsRoutes({ config, notificationSettings }: NotificationRouteDeps): AnyRoute[] {
  const keys = customEventKeys(config.tier);
  // Keys the tier does not serve (`new_epic` below ultimate) are not declared, so they are ignored like any unknown parameter.
  const eventParams = Object.fromEntries(keys.map((key) => [key, p.bool().optional()])) as Record<CustomEventKey, z.ZodOptional<z.ZodType<boolean, unknown>>>;
  // The level is checked by the service (after the group/project lookup), with the reference's body.
  const changeParams = { level: p.string().optional(), ...eventParams };
  const globalSchema = z.object({ ...changeParams, notification_email: p.string().optional() });
  const sourceSchema = z.object({ id: p.id() });
  const sourceChangeSchema = z.object({ id: p.id(), ...changeParams });

  const inputOf = (params: Partial<Record<string, unknown>>): NotificationSettingsInput => {
    const events: Partial<Record<CustomEventKey, boolean>> = {};
    for (const key of keys) {
      const value = params[key];
      if (typeof value === "boolean") events[key] = value;
    }
    const input: NotificationSettingsInput = { events };
    if (typeof params["level"] === "string") input.level = params["level"] as NotificationLevel;
    if (typeof params["notification_email"] === "string") input.notificationEmail = params["notification_email"];
    return input;
  };
  const show = (user: User | null, target: NotificationTarget) =>
    respond(async () => {
      if (user === null) return err(errors.unauthorized());
      return (await notificationSettings.get(user, target)).map((settings) => ({ body: notificationSettingsEntity(settings) }));
    });
  const change = (user: User | null, target: NotificationTarget, params: Partial<Record<string, unknown>>) =>
    respond(async () => {
      if (user === null) return err(errors.unauthorized());
      return (await notificationSettings.update(user, target, inputOf(params))).map((settings) => ({ body: notificationSettingsEntity(settings) }));
    });

  const routes: AnyRoute[] = [
    defineRoute({ method: "GET", path: "/notification_settings", auth: AUTH, handler: ({ identity }) => show(identity.user, { type: "global" }) }),
    defineRoute({
      method: "PUT",
      path: "/notification_settings",
      auth: AUTH,
      schema: globalSchema,
      handler: ({ identity, params }) => change(identity.user, { type: "global" }, params),
    }),
  ];
  for (const type of ["group", "project"] as const) {
    const path = `/${type}s/:id/notification_settings`;
    routes.push(
      defineRoute({ method: "GET", path, auth: AUTH, schema: sourceSchema, handler: ({ identity, params }) => show(identity.user, { type, id: params.id }) }),
      defineRoute({
        method: "PUT",
        path,
        auth: AUTH,
        schema: sourceChangeSchema,
        handler: ({ identity, params }) => change(identity.user, { type, id: params.id }, params),
      }),
    );
  }
  return routes;
}
