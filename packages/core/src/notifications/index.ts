/**
 * The notifications capability: settings (global, group, project), the recipients query a host's
 * mailer uses, and the `/notification_settings` routes.
 */
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { notificationRecipients, type NotificationRecipients } from "./recipients.js";
import { notificationSettingsRoutes } from "./routes/notification-settings.js";
import { notificationSettingsService, type NotificationSettingsService } from "./settings.js";

export { notificationSettingsEntity } from "./entity.js";
export { notificationRecipients, type NotificationRecipient, type NotificationRecipients, type RecipientReason, type RecipientsQuery } from "./recipients.js";
export { NOT_YOUR_EMAIL, notificationSettingsService, type NotificationSettingsInput, type NotificationSettingsService, type NotificationTarget } from "./settings.js";
export * from "./types.js";

/** The notification services of one instance (host API: `fk.notificationSettings`, `fk.notificationRecipients`). */
export interface NotificationsServices {
  notificationSettings: NotificationSettingsService;
  notificationRecipients: NotificationRecipients;
}

/** Builds the notification services over the configuration's store and clock. */
export function notificationsServices(config: ForgekitConfig): NotificationsServices {
  return { notificationSettings: notificationSettingsService(config), notificationRecipients: notificationRecipients(config) };
}

/** The notification settings routes. */
export function notificationsRoutes(config: ForgekitConfig, services: NotificationsServices): AnyRoute[] {
  return tagRoutes("Notification settings", notificationSettingsRoutes({ config, notificationSettings: services.notificationSettings }));
}
