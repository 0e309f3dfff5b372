/**
 * The host's own sign-in, as a real host would have it: a login form at `/users/sign_in` (the
 * default `oauth.loginUrl`), sessions kept by the host in the `_service_session` cookie, and the
 * `SessionResolver` that tells forgekit who the cookie belongs to. forgekit's consent page sends
 * signed-out visitors here with `return_to`; after signing in they go back to the consent page.
 * Sessions live in memory (a demo); passwords are checked with the instance's password hasher.
 */
import { randomBytes } from "node:crypto";
import express from "express";
import type { Forgekit, SessionResolver } from "@forgekit/core";

const COOKIE = "_service_session";

/** The host's sessions: cookie value → user id. */
export interface HostSessions extends SessionResolver {
  create(userId: number): string;
  destroy(cookie: string): void;
}

/** An in-memory session table. */
export function memorySessions(): HostSessions {
  const sessions = new Map<string, number>();
  return {
    resolve: (cookie) => Promise.resolve(sessions.get(cookie) ?? null),
    create(userId) {
      const id = randomBytes(32).toString("base64url");
      sessions.set(id, userId);
      return id;
    },
    destroy: (cookie) => void sessions.delete(cookie),
  };
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(returnTo: string, error: string | null): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;background:#f4f4f6;color:#1f1f1f;margin:0}main{max-width:24rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #d0d0d7;border-radius:8px}
label{display:block;margin-top:1rem;font-weight:600}input{font:inherit;width:100%;padding:.5rem;border:1px solid #767676;border-radius:4px;box-sizing:border-box}
button{font:inherit;margin-top:1.5rem;padding:.6rem 1.4rem;background:#1d4ed8;color:#fff;border:0;border-radius:6px}.error{color:#b91c1c}</style></head>
<body><main><h1>Sign in to the demo host</h1>
${error === null ? "" : `<p class="error" role="alert">${escape(error)}</p>`}
<form method="post" action="/users/sign_in">
<input type="hidden" name="return_to" value="${escape(returnTo)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

/** Only forgekit's authorization page on this host is a place to return to (no open redirect). */
function safeReturn(baseUrl: string, returnTo: unknown): string {
  if (typeof returnTo !== "string") return "/";
  return returnTo.startsWith(`${baseUrl}/oauth/authorize?`) || returnTo.startsWith("/oauth/authorize?") ? returnTo : "/";
}

/** The sign-in routes (`GET`/`POST /users/sign_in`, `POST /users/sign_out`) over the instance's accounts. */
export function signInRoutes(fk: Forgekit, sessions: HostSessions): express.Router {
  const { baseUrl } = fk.config;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: "8kb" });
  router.get("/users/sign_in", (req, res) => {
    res.type("html").send(page(safeReturn(baseUrl, req.query["return_to"]), null));
  });
  router.post("/users/sign_in", form, (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const returnTo = safeReturn(baseUrl, body["return_to"]);
    const login = typeof body["username"] === "string" ? body["username"] : "";
    const password = typeof body["password"] === "string" ? body["password"] : "";
    void (async () => {
      const user = login === "" ? null : await fk.store.users.findByUsername(login);
      const valid = user !== null && user.state === "active" && user.passwordHash !== null && (await fk.config.passwordHasher.verify(user.passwordHash, password));
      if (!valid) {
        res.status(401).type("html").send(page(returnTo, "Wrong username or password."));
        return;
      }
      const cookie = sessions.create(user.id);
      res.cookie(COOKIE, cookie, { httpOnly: true, sameSite: "lax", path: "/" });
      res.redirect(303, returnTo);
    })().catch(next);
  });
  router.post("/users/sign_out", (req, res) => {
    const cookie = /(?:^|;\s*)_service_session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
    if (cookie !== undefined) sessions.destroy(decodeURIComponent(cookie));
    res.clearCookie(COOKIE, { path: "/" }).redirect(303, "/");
  });
  return router;
}
