/**
 * `forgekit notifications show|set|recipients`: a user's notification settings (global, group or
 * project) and who would be e-mailed about an event, over `fk.notificationSettings` and
 * `fk.notificationRecipients`.
 */
import { ResultAsync } from "neverthrow";
import { customEventKeys } from "@forgekit/core/internal";
import {
  NOTIFICATION_LEVELS,
  type CustomEventKey,
  type Forgekit,
  type ForgekitError,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationTarget,
} from "@forgekit/core";
import type { CommandArgs } from "../command.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { booleanValue, oneOf } from "../values.js";
import type { Command } from "./context.js";

const TARGET_OPTIONS = {
  user: { type: "string", placeholder: "<user>", description: "user id or username", required: true },
  group: { type: "string", placeholder: "<group>", description: "the user's setting for this group (id or full path)" },
  project: { type: "string", placeholder: "<project>", description: "the user's setting for this project (id or full path)" },
} as const;

/** The setting the options name: global unless --group or --project. */
function targetOf(args: CommandArgs): NotificationTarget {
  const group = args.string("group");
  const project = args.string("project");
  if (group !== undefined && project !== undefined) throw new UsageError("give at most one of --group or --project", args.command);
  if (group !== undefined) return { type: "group", id: group };
  if (project !== undefined) return { type: "project", id: project };
  return { type: "global" };
}

function settingsOutput(settings: NotificationSettings, what: string): Output {
  const json: Record<string, unknown> = { level: settings.level };
  const text = [`${what}: ${settings.level}`];
  if (settings.source.type === "global") {
    json["notification_email"] = settings.notificationEmail ?? null;
    text.push(`notification e-mail: ${settings.notificationEmail ?? "(none)"}`);
  }
  if (settings.level === "custom") {
    json["events"] = settings.events;
    const on = Object.entries(settings.events).filter(([, value]) => value).map(([key]) => key);
    text.push(`events on: ${on.length === 0 ? "(none)" : on.join(", ")}`);
  }
  return { json, text };
}

function describeTarget(username: string, target: NotificationTarget): string {
  return target.type === "global" ? `@${username} global` : `@${username} ${target.type} ${target.id}`;
}

const notificationsShow: Command = {
  name: "notifications show",
  summary: "show a user's notification setting (global, or for a group or project)",
  options: { ...TARGET_OPTIONS },
  run: ({ fk }, args) => {
    const target = targetOf(args);
    return fk.users
      .findByIdOrUsername(args.required("user"))
      .andThen((user) => fk.notificationSettings.get(user, target).map((settings) => settingsOutput(settings, describeTarget(user.username, target))));
  },
};

/** `--event key=true` values, checked against the keys the instance's tier serves. */
function eventsOf(fk: Forgekit, args: CommandArgs): Partial<Record<CustomEventKey, boolean>> {
  const keys: readonly string[] = customEventKeys(fk.config.tier);
  const events: Partial<Record<CustomEventKey, boolean>> = {};
  for (const item of args.list("event")) {
    const [key = "", value = "true"] = item.split("=", 2);
    if (!keys.includes(key)) throw new UsageError(`--event must name one of ${keys.join(", ")}, got "${key}"`, args.command);
    events[key as CustomEventKey] = booleanValue(`--event ${key}`, value);
  }
  return events;
}

const notificationsSet: Command = {
  name: "notifications set",
  summary: "change a user's notification setting",
  options: {
    ...TARGET_OPTIONS,
    level: { type: "string", placeholder: "<level>", description: NOTIFICATION_LEVELS.join(", ") },
    email: { type: "string", placeholder: "<address>", description: "global only: one of the user's confirmed addresses (\"\" = the primary one)" },
    event: { type: "string", placeholder: "<key>[=true|false]", description: "a custom event key to turn on or off (repeatable)", multiple: true },
  },
  notes: ["Example:", "  forgekit notifications set --user alice --project demo/website --level custom --event new_issue --event new_note=false"],
  run: ({ fk }, args) => {
    const target = targetOf(args);
    const level = args.string("level");
    const email = args.string("email");
    if (email !== undefined && target.type !== "global") throw new UsageError("--email applies to the global setting only", args.command);
    const input: NotificationSettingsInput = {
      ...(level === undefined ? {} : { level: oneOf("--level", level, NOTIFICATION_LEVELS) }),
      ...(email === undefined ? {} : { notificationEmail: email }),
      events: eventsOf(fk, args),
    };
    return fk.users
      .findByIdOrUsername(args.required("user"))
      .andThen((user) => fk.notificationSettings.update(user, target, input).map((settings) => settingsOutput(settings, describeTarget(user.username, target))));
  },
};

/** User ids for repeatable user options. */
function userIds(fk: Forgekit, values: string[]): ResultAsync<number[], ForgekitError> {
  return ResultAsync.combine(values.map((value) => fk.users.findByIdOrUsername(value).map((user) => user.id)));
}

const notificationsRecipients: Command = {
  name: "notifications recipients",
  summary: "list who would be e-mailed about an event in a project",
  options: {
    project: { type: "string", placeholder: "<project>", description: "project id or full path", required: true },
    event: { type: "string", placeholder: "<key>", description: "custom event key, e.g. new_issue", required: true },
    actor: { type: "string", placeholder: "<user>", description: "who caused the event (never notified)" },
    participant: { type: "string", placeholder: "<user>", description: "a participant (repeatable)", multiple: true },
    mentioned: { type: "string", placeholder: "<user>", description: "a mentioned user (repeatable)", multiple: true },
  },
  run: ({ fk }, args) => {
    const event = oneOf("--event", args.required("event"), customEventKeys(fk.config.tier));
    const actor = args.string("actor");
    return ResultAsync.combine([userIds(fk, actor === undefined ? [] : [actor]), userIds(fk, args.list("participant")), userIds(fk, args.list("mentioned"))])
      .andThen(([actorIds, participants, mentioned]) =>
        fk.notificationRecipients({ project: args.required("project"), event, actor: actorIds[0] ?? null, participants, mentioned }),
      )
      .map((recipients) => ({
        json: recipients.map((r) => ({ user_id: r.user.id, username: r.user.username, email: r.email, level: r.level, reason: r.reason })),
        text: recipients.length === 0 ? ["no recipients"] : recipients.map((r) => `@${r.user.username} <${r.email}> (${r.reason}, level ${r.level})`),
      }));
  },
};

/** The notifications commands. */
export const notificationsCommands: Command[] = [notificationsShow, notificationsSet, notificationsRecipients];
