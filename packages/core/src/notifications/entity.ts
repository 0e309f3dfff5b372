/** JSON shapes of notification settings (reference `API::Entities::NotificationSetting`, `GlobalNotificationSetting`). */
import type { NotificationSettings } from "./types.js";

/**
 * `{level}`, plus `events` (every key the tier serves, in the spec's order) only when the level is
 * `custom`, plus `notification_email` for the global setting.
 */
export function notificationSettingsEntity(settings: NotificationSettings): Record<string, unknown> {
  const body: Record<string, unknown> = { level: settings.level };
  if (settings.level === "custom") body["events"] = { ...settings.events };
  if (settings.source.type === "global") body["notification_email"] = settings.notificationEmail ?? null;
  return body;
}
