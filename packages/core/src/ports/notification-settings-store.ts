/**
 * Storage port of notification settings (spec "Notification settings"): one row per user and
 * source, written only when a user changes a setting (a read never creates one).
 */
import type { NotificationLevel, NotificationSource } from "../notifications/types.js";

/** A stored setting. Event keys the user never set are absent from `events`. */
export interface NotificationSettingRecord {
  id: number;
  userId: number;
  source: NotificationSource;
  level: NotificationLevel;
  /** Global rows only: the address chosen for notifications; null = the primary e-mail. */
  notificationEmail: string | null;
  /** Event key → value, for the keys ever set. */
  events: Record<string, boolean>;
  createdAt: Date;
  updatedAt: Date;
}

/** A change to a setting; absent fields stay as stored. */
export interface NotificationSettingChange {
  level?: NotificationLevel;
  /** `null` clears the chosen address (back to the primary e-mail). */
  notificationEmail?: string | null;
  /** Keys to set; keys not named keep their stored value. */
  events?: Record<string, boolean>;
}

/**
 * The store's notification settings: find and change a user's global, group or project setting, and list
 * them per source or per user.
 */
export interface NotificationSettingRepository {
  /** The user's row for the source, or null when none is stored. */
  find(userId: number, source: NotificationSource): Promise<NotificationSettingRecord | null>;
  /**
   * Applies `change` to the user's row for the source, creating the row first (level
   * `initialLevel` unless the change names one) when none exists; returns the row as stored.
   * Atomic: of two racing changes to one row both apply (the later wins per field), and two racing
   * first changes create one row, never two. `updatedAt` becomes `now`.
   */
  change(userId: number, source: NotificationSource, change: NotificationSettingChange, initialLevel: NotificationLevel, now: Date): Promise<NotificationSettingRecord>;
  /** Every user's rows on any of `sources`, ordered by id ascending. */
  listBySources(sources: readonly NotificationSource[]): Promise<NotificationSettingRecord[]>;
  /** The rows of `userIds` on any of `sources`, ordered by id ascending. */
  listForUsers(userIds: readonly number[], sources: readonly NotificationSource[]): Promise<NotificationSettingRecord[]>;
}
