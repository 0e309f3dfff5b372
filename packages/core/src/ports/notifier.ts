/**
 * The notifier port: how forgekit tells a user something outside an HTTP response (the gists
 * import's "these gists were not imported" message, spec "Import" rule 4). The default writes the
 * message to the host's logger; a host sends it as e-mail (or a notification in its own UI) by
 * passing its own `notifier` to `createForgekit`.
 */
import type { Logger } from "./runtime.js";

/** Who the message is for. */
export interface NotifierRecipient {
  /** The forgekit user id. */
  id: number;
  /** The user's username. */
  username: string;
  /** The user's primary e-mail, when known. */
  email: string | null;
}

/** What is said: a subject line and a plain-text body. */
export interface NotifierMessage {
  /** The subject line. */
  subject: string;
  /** The plain-text body. */
  body: string;
}

/** Delivers messages to users. */
export interface Notifier {
  /**
   * Delivers one message. A rejection is logged by the caller and does not undo the work the
   * message reports on (the import that sent it has finished either way).
   */
  notify(recipient: NotifierRecipient, message: NotifierMessage): Promise<void>;
}

/**
 * The default notifier: one `warn` event `notification` per message through the host's logger
 * (`warn`, so the default stderr logger, which drops `info`, still shows a message nobody delivered).
 */
export function loggingNotifier(logger: Logger): Notifier {
  return {
    notify(recipient, message) {
      logger.log("warn", "notification", { userId: recipient.id, username: recipient.username, subject: message.subject, body: message.body });
      return Promise.resolve();
    },
  };
}
