/**
 * `fk.notificationRecipients(query)`: who would be e-mailed about a custom notification event in a
 * project under the users' notification settings (spec "Events" rule 6: e-mail triggers are the
 * custom event keys), so a host's mailer can ask instead of re-implementing the rules.
 *
 * The rules are the reference's (`NotificationRecipients::Builder`, `NotificationRecipient`):
 * - A user's effective setting is their project setting; when it is absent or `global`, the setting
 *   of the nearest group above the project that is not `global`; then their global setting
 *   (default `participating`; a global setting of `global` also counts as `participating`).
 * - Candidates are the participants, the mentioned users, the project's members (direct and
 *   inherited) and users who stored a setting for the project or one of its groups: a global
 *   `watch` or `custom` setting applies to projects the user belongs to, not to every project.
 * - `disabled`: never. `mention`: when mentioned. `participating`: when participating or mentioned.
 *   `watch`: always. `custom`: when the event key is on, or when participating or mentioned.
 *   `push_to_merge_request`, `issue_due` and `success_pipeline` never reach `watch` or
 *   `participating` (only a custom setting with the key on receives them).
 * - Never the actor, never blocked or deactivated users or bots, never users who cannot read the
 *   project, never users without an address (the global notification e-mail, else the primary one).
 */
import { err, ok, type ResultAsync } from "neverthrow";
import { canReadProject } from "../access/permissions.js";
import { attempt } from "../accounts/service-kit.js";
import type { Namespace, Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordRef } from "../ids.js";
import type { NotificationSettingRecord } from "../ports/notification-settings-store.js";
import type { Store } from "../ports/store.js";
import { customEventKeys } from "./event-keys.js";
import { defaultEventValue, EXCLUDED_WATCHER_EVENTS, sameSource, type CustomEventKey, type NotificationLevel, type NotificationSource } from "./types.js";

/** What happened, and to whom. */
export interface RecipientsQuery {
  /** Project id or full path. */
  project: number | string;
  /** A custom event key the instance's tier serves. */
  event: CustomEventKey;
  /** Id of the user who caused the event (never notified of their own activity). */
  actor?: number | null;
  /** Ids of users taking part (author, assignees, commenters, …). */
  participants?: readonly number[];
  /** Ids of users mentioned in the text. */
  mentioned?: readonly number[];
}

/** Why a recipient gets the e-mail. */
export type RecipientReason = "mention" | "participation" | "watch" | "custom";

/** One recipient, ordered by user id. */
export interface NotificationRecipient {
  user: User;
  /** Where to send it: the global notification e-mail, else the primary e-mail. */
  email: string;
  /** The effective level that applied. */
  level: NotificationLevel;
  reason: RecipientReason;
}

/** `fk.notificationRecipients`. Errors: `not_found("Project")`, `invalid_param("event")` for a key the tier does not serve. */
export type NotificationRecipients = (query: RecipientsQuery) => ResultAsync<NotificationRecipient[], ForgekitError>;

/** Builds the recipients query over the configured store. */
export function notificationRecipients(config: ForgekitConfig): NotificationRecipients {
  const { store, clock, tier } = config;
  const keys: readonly string[] = customEventKeys(tier);
  return (query) =>
    attempt(async () => {
      if (!keys.includes(query.event)) return err(errors.invalidParam("event", "does not have a valid value"));
      const project = await findProject(store, query.project);
      if (project === null) return err(errors.notFound("Project"));
      const now = clock.now();
      const chain = [await store.namespaces.findById(project.namespaceId), ...(await store.namespaces.ancestors(project.namespaceId))].filter((n): n is Namespace => n !== null);
      const groups: NotificationSource[] = chain.filter((n) => n.kind === "group").map((n) => ({ type: "group", id: n.id }));
      const local: NotificationSource[] = [{ type: "project", id: project.id }, ...groups];

      const participants = new Set(query.participants ?? []);
      const mentioned = new Set(query.mentioned ?? []);
      const candidates = new Set([...participants, ...mentioned, ...(await memberIds(store, project, chain, now))]);
      for (const row of await store.notificationSettings.listBySources(local)) candidates.add(row.userId);
      if (query.actor != null) candidates.delete(query.actor);

      const users = (await store.users.findByIds([...candidates])).filter((u) => u.state === "active" && u.bot === null);
      const rows = await store.notificationSettings.listForUsers(
        users.map((u) => u.id),
        [...local, { type: "global" }],
      );
      const recipients: NotificationRecipient[] = [];
      for (const user of users) {
        const mine = rows.filter((row) => row.userId === user.id);
        const setting = effectiveSetting(mine, local);
        const reason = decide(setting, query.event, participants.has(user.id), mentioned.has(user.id));
        if (reason === null || !(await canReadProject(store, user, project, now))) continue;
        const global = mine.find((row) => row.source.type === "global");
        const email = global?.notificationEmail ?? (await store.emails.primaryFor(user.id))?.email;
        if (email !== undefined) recipients.push({ user, email, level: setting.level, reason });
      }
      return ok(recipients);
    });
}

interface Effective {
  level: NotificationLevel;
  events: Record<string, boolean>;
}

/** Project, then the nearest group that is not `global`, then the global setting (default `participating`). */
function effectiveSetting(rows: readonly NotificationSettingRecord[], local: readonly NotificationSource[]): Effective {
  for (const source of local) {
    const row = rows.find((r) => sameSource(r.source, source));
    if (row !== undefined && row.level !== "global") return row;
  }
  const global = rows.find((r) => r.source.type === "global");
  return global === undefined || global.level === "global" ? { level: "participating", events: global?.events ?? {} } : global;
}

/** The reason the setting lets the event through, or null. */
function decide(setting: Effective, event: CustomEventKey, participant: boolean, mentioned: boolean): RecipientReason | null {
  const involved: RecipientReason | null = mentioned ? "mention" : participant ? "participation" : null;
  switch (setting.level) {
    case "disabled":
    case "global":
      return null;
    case "mention":
      return mentioned ? "mention" : null;
    case "participating":
      return EXCLUDED_WATCHER_EVENTS.has(event) ? null : involved;
    case "watch":
      return EXCLUDED_WATCHER_EVENTS.has(event) ? null : (involved ?? "watch");
    case "custom":
      return (setting.events[event] ?? defaultEventValue(event)) ? "custom" : involved;
  }
}

/** An id, or a full path (with `/`); what names nothing (ids.ts `recordRef`) finds nothing. */
async function findProject(store: Store, value: number | string): Promise<Project | null> {
  const ref = recordRef(value);
  if (typeof ref === "number") return store.projects.findById(ref);
  return ref !== null && ref.includes("/") ? store.projects.findByFullPath(ref) : null;
}

/** Unexpired members of the project and of every namespace above it, and the owner of a personal namespace. */
async function memberIds(store: Store, project: Project, chain: readonly Namespace[], now: Date): Promise<number[]> {
  const lists = await Promise.all([store.members.listBySource("project", project.id, now), ...chain.map((n) => store.members.listBySource("namespace", n.id, now))]);
  const ids = lists.flat().map((m) => m.userId);
  for (const namespace of chain) if (namespace.kind === "user" && namespace.ownerId !== null) ids.push(namespace.ownerId);
  return ids;
}
