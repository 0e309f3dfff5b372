/**
 * The host application's own users and sessions — nothing forgekit-specific. A real host has these
 * in its database and its session middleware; here they are in memory, with scrypt passwords and
 * random session ids, to keep the example short.
 */
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

/** A user as the host keeps them (its id is a string, as many hosts' are). */
export interface HostUser {
  id: string;
  login: string;
  name: string;
  email: string;
  admin: boolean;
  blocked: boolean;
  passwordHash: Buffer;
  salt: Buffer;
}

const hash = (password: string, salt: Buffer) => scryptSync(password, salt, 32);

/** The host's user table. */
export class HostUsers {
  readonly #users = new Map<string, HostUser>();

  add(input: { id: string; login: string; name: string; email: string; admin?: boolean; password: string }): HostUser {
    const salt = randomBytes(16);
    const user: HostUser = { ...input, admin: input.admin ?? false, blocked: false, salt, passwordHash: hash(input.password, salt) };
    this.#users.set(user.id, user);
    return user;
  }

  get(id: string): HostUser | undefined {
    return this.#users.get(id);
  }

  /** The user whose login and password match, or undefined. */
  authenticate(login: string, password: string): HostUser | undefined {
    const user = [...this.#users.values()].find((u) => u.login === login);
    if (user === undefined || user.blocked) return undefined;
    return timingSafeEqual(hash(password, user.salt), user.passwordHash) ? user : undefined;
  }

  update(id: string, change: Partial<Pick<HostUser, "login" | "name" | "email" | "admin" | "blocked">>): HostUser | undefined {
    const user = this.#users.get(id);
    if (user === undefined) return undefined;
    Object.assign(user, change);
    return user;
  }
}

/** The host's sessions: session id (the `host.sid` cookie) → host user id, and a CSRF token per session. */
export class HostSessions {
  readonly #sessions = new Map<string, { userId: string; csrf: string }>();

  open(userId: string): { sid: string; csrf: string } {
    const sid = randomBytes(24).toString("base64url");
    const csrf = randomBytes(24).toString("base64url");
    this.#sessions.set(sid, { userId, csrf });
    return { sid, csrf };
  }

  userId(sid: string): string | undefined {
    return this.#sessions.get(sid)?.userId;
  }

  csrfMatches(sid: string, token: string): boolean {
    const expected = this.#sessions.get(sid)?.csrf;
    return expected !== undefined && expected.length === token.length && timingSafeEqual(Buffer.from(expected), Buffer.from(token));
  }

  close(sid: string): void {
    this.#sessions.delete(sid);
  }
}
