/**
 * The demo host's own sign-in, shared by the examples (each mounts it with its framework): a login
 * form at `/users/sign_in` (the default `oauth.loginUrl`), sessions kept by the host in the
 * `_service_session` cookie, and the `SessionResolver` that tells forgekit who a cookie belongs to.
 * forgekit's consent page sends signed-out visitors here with `return_to`; after signing in they go
 * back to the consent page. Sessions live in the host's database (demo-sessions.ts; `memorySessions` for one process); passwords are checked with the
 * instance's password hasher.
 */
import { randomBytes } from "node:crypto";
import type { Forgekit, SessionResolver, User } from "@forgekit/core";

/** The session cookie forgekit reads (spec "Authentication"). */
export const SESSION_COOKIE = "_service_session";
/** Where the demo host's sign-in lives. */
export const SIGN_IN_PATH = "/users/sign_in";
/** Where the demo host's sign-out lives. */
export const SIGN_OUT_PATH = "/users/sign_out";

/** The host's sessions: cookie value → user id (kept where every instance sees them: demo-sessions.ts). */
export interface HostSessions extends SessionResolver {
  /** A new session of `userId`: the cookie value. */
  create(userId: number): Promise<string>;
  destroy(cookie: string): Promise<void>;
}

/** An in-memory session table (one process only). */
export function memorySessions(): HostSessions {
  const sessions = new Map<string, number>();
  return {
    resolve: (cookie) => Promise.resolve(sessions.get(cookie) ?? null),
    create(userId) {
      const id = randomBytes(32).toString("base64url");
      sessions.set(id, userId);
      return Promise.resolve(id);
    },
    destroy: (cookie) => {
      sessions.delete(cookie);
      return Promise.resolve();
    },
  };
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in page (accessible, no JavaScript, no third-party resources). */
export function signInPage(returnTo: string, error: string | null): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f4f4f6;color:#1f1f1f;margin:0}main{max-width:24rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #d0d0d7;border-radius:8px}
label{display:block;margin-top:1rem;font-weight:600}input{font:inherit;width:100%;padding:.5rem;border:1px solid #767676;border-radius:4px;box-sizing:border-box}
button{font:inherit;margin-top:1.5rem;padding:.6rem 1.4rem;background:#1d4ed8;color:#fff;border:0;border-radius:6px}.error{color:#b91c1c}</style></head>
<body><main><h1>Sign in to the demo host</h1>
${error === null ? "" : `<p class="error" role="alert">${escape(error)}</p>`}
<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="return_to" value="${escape(returnTo)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

/** Only forgekit's authorization page on this host is a place to return to (no open redirect). */
export function safeReturn(baseUrl: string, returnTo: unknown): string {
  if (typeof returnTo !== "string") return "/";
  return returnTo.startsWith(`${baseUrl}/oauth/authorize?`) || returnTo.startsWith("/oauth/authorize?") ? returnTo : "/";
}

/** The active user with that username and password, or null. */
export async function checkSignIn(fk: Forgekit, username: unknown, password: unknown): Promise<User | null> {
  if (typeof username !== "string" || username === "" || typeof password !== "string") return null;
  const user = await fk.store.users.findByUsername(username);
  if (user === null || user.state !== "active" || user.passwordHash === null) return null;
  return (await fk.config.passwordHasher.verify(user.passwordHash, password)) ? user : null;
}

/** The session cookie's value in a `Cookie` header, if any. */
export function sessionCookieFrom(header: string | undefined): string | undefined {
  const value = /(?:^|;\s*)_service_session=([^;]+)/.exec(header ?? "")?.[1];
  return value === undefined ? undefined : decodeURIComponent(value);
}
