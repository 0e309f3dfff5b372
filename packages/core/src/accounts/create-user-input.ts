/** What creating a user takes (users.ts, and user-sync.ts for the users a host syncs). */
import type { BotKind, UserState } from "./types.js";

/** Input of `UsersService.create` (`fk.users.create`), and of the creations `fk.users.sync` makes. */
export interface CreateUserInput {
  username: string;
  name: string;
  /** Primary e-mail; required for people, optional for bots. */
  email?: string;
  /** Plain password (hashed with the configured PasswordHasher); omit for SSO-only users and bots. */
  password?: string | null;
  admin?: boolean;
  state?: UserState;
  bot?: BotKind | null;
  twoFactorEnabled?: boolean;
  privateProfile?: boolean;
  avatarUrl?: string | null;
  /** Whether the primary e-mail is confirmed (default true: the host vouches for it). */
  emailConfirmed?: boolean;
  /** Additional confirmed addresses. */
  secondaryEmails?: string[];
  /** The host's own id for the user (unique; see `sync`). */
  externalId?: string | null;
}
