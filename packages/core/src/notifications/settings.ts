/**
 * Notification settings service (host API: `fk.notificationSettings`): a user's global, group and
 * project settings (spec "Notification settings"; reference `lib/api/notification_settings.rb`).
 * Reads never write; a change creates the row on first use. Groups and projects the user cannot
 * see are `not_found` (404, never 403).
 */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { visibleGroup, visibleProject } from "../access/permissions.js";
import { isGroup } from "../accounts/groups.js";
import { attempt, inTransaction } from "../accounts/service-kit.js";
import type { Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordRef } from "../ids.js";
import type { NotificationSettingChange, NotificationSettingRecord } from "../ports/notification-settings-store.js";
import type { TransactionStore } from "../ports/store.js";
import { customEventKeys } from "./event-keys.js";
import {
  defaultEventValue,
  defaultLevel,
  NOTIFICATION_LEVELS,
  type CustomEventKey,
  type NotificationLevel,
  type NotificationSettings,
  type NotificationSource,
} from "./types.js";

/** Which setting: the user's global one, or the one for a group or project (id or full path). */
export type NotificationTarget = { type: "global" } | { type: "group"; id: number | string } | { type: "project"; id: number | string };

/** A change; every field optional. */
export interface NotificationSettingsInput {
  level?: NotificationLevel;
  /** Global setting only: one of the user's confirmed addresses; `""` or `null` = back to the primary e-mail. */
  notificationEmail?: string | null;
  /** Event keys to set; keys the instance's tier does not serve (`new_epic` below ultimate) are ignored. */
  events?: Partial<Record<CustomEventKey, boolean>>;
}

/** Notification settings service. */
export interface NotificationSettingsService {
  /** The user's setting for the target, with defaults when none is stored. */
  get(user: User, target: NotificationTarget): ResultAsync<NotificationSettings, ForgekitError>;
  /**
   * Changes the user's setting for the target and returns it. Errors: `invalid_param` for an unknown
   * level or a non-boolean event value, `validation` (`notification_email: ["is not an email you
   * own"]`) for an address that is not one of the user's confirmed e-mails, `not_found` for a group
   * or project the user cannot see.
   */
  update(user: User, target: NotificationTarget, input: NotificationSettingsInput): ResultAsync<NotificationSettings, ForgekitError>;
}

/** The reference's validation message for an address the user does not own (confirmed). */
export const NOT_YOUR_EMAIL = "is not an email you own";

/** Builds the notification settings service. */
export function notificationSettingsService(config: ForgekitConfig): NotificationSettingsService {
  const { store, clock, tier } = config;
  const keys = customEventKeys(tier);

  const resolve = (tx: TransactionStore, user: User, target: NotificationTarget) => resolveSource(tx, user, target, clock.now());

  const present = async (tx: TransactionStore, user: User, source: NotificationSource, row: NotificationSettingRecord | null): Promise<NotificationSettings> => {
    const events: Partial<Record<CustomEventKey, boolean>> = {};
    for (const key of keys) events[key] = row?.events[key] ?? defaultEventValue(key);
    const settings: NotificationSettings = { source, level: row?.level ?? defaultLevel(source), events };
    if (source.type === "global") settings.notificationEmail = row?.notificationEmail ?? (await tx.emails.primaryFor(user.id))?.email ?? null;
    return settings;
  };

  return {
    get: (user, target) =>
      attempt(async () => {
        const source = await resolve(store, user, target);
        if (source.isErr()) return err(source.error);
        return ok(await present(store, user, source.value, await store.notificationSettings.find(user.id, source.value)));
      }),
    update: (user, target, input) =>
      checkInput(input, keys).asyncAndThen((change) =>
        inTransaction(store, async (tx) => {
          const source = await resolve(tx, user, target);
          if (source.isErr()) return err(source.error);
          if (source.value.type !== "global") delete change.notificationEmail;
          else if (change.notificationEmail != null) {
            const owned = await confirmedAddress(tx, user.id, change.notificationEmail);
            if (owned === null) return err(errors.validation({ notification_email: [NOT_YOUR_EMAIL] }));
            change.notificationEmail = owned;
          }
          const row = await tx.notificationSettings.change(user.id, source.value, change, defaultLevel(source.value), clock.now());
          return ok(await present(tx, user, source.value, row));
        }),
      ),
  };
}

/** Validates a change: a known level, boolean event values; unserved keys are dropped. */
function checkInput(input: NotificationSettingsInput, keys: readonly CustomEventKey[]): Result<NotificationSettingChange, ForgekitError> {
  const change: NotificationSettingChange = {};
  if (input.level !== undefined) {
    if (!(NOTIFICATION_LEVELS as readonly string[]).includes(input.level)) return err(errors.badRequestMessage(`'${input.level}' is not a valid level`));
    change.level = input.level;
  }
  if (input.notificationEmail !== undefined) change.notificationEmail = input.notificationEmail === "" ? null : input.notificationEmail;
  const events: Record<string, boolean> = {};
  for (const key of keys) {
    const value: unknown = input.events?.[key];
    if (value === undefined) continue;
    if (typeof value !== "boolean") return err(errors.invalidParam(key, "is invalid"));
    events[key] = value;
  }
  if (Object.keys(events).length > 0) change.events = events;
  return ok(change);
}

/** The user's confirmed address matching `email` (case-insensitively), as stored; null when none. */
async function confirmedAddress(tx: TransactionStore, userId: number, email: string): Promise<string | null> {
  const wanted = email.toLowerCase();
  const match = (await tx.emails.listByUser(userId)).find((e) => e.confirmedAt !== null && e.email.toLowerCase() === wanted);
  return match?.email ?? null;
}

/** The source a target names, when the user may see it (reference `find_group!` / `find_project!`). */
export async function resolveSource(tx: TransactionStore, user: User, target: NotificationTarget, now: Date): Promise<Result<NotificationSource, ForgekitError>> {
  switch (target.type) {
    case "global":
      return ok({ type: "global" });
    case "group": {
      const found = await findByIdOrPath(target.id, (id) => tx.namespaces.findById(id), (path) => tx.namespaces.findByFullPath(path));
      const group = await visibleGroup(tx, user, isGroup(found) ? found : null, now);
      return group.map((g) => ({ type: "group", id: g.id }));
    }
    case "project": {
      const found = await findByIdOrPath<Project>(target.id, (id) => tx.projects.findById(id), (path) => (path.includes("/") ? tx.projects.findByFullPath(path) : Promise.resolve(null)));
      const project = await visibleProject(tx, user, found, now);
      return project.map((p) => ({ type: "project", id: p.id }));
    }
  }
}

/** Reference `find_*`: an all-digit value (or a number) is an id, anything else a full path; what names nothing finds nothing. */
function findByIdOrPath<T>(value: number | string, byId: (id: number) => Promise<T | null>, byPath: (path: string) => Promise<T | null>): Promise<T | null> {
  const ref = recordRef(value);
  if (ref === null) return Promise.resolve(null);
  return typeof ref === "number" ? byId(ref) : byPath(ref);
}
