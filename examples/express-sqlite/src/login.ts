/**
 * The demo host's sign-in on express (`GET`/`POST /users/sign_in`, `POST /users/sign_out`): a thin
 * mount of the shared pieces in `@forgekit/cli` (sessions, page, return-address check).
 */
import express from "express";
import type { Forgekit } from "@forgekit/core";
import { checkSignIn, SESSION_COOKIE, sessionCookieFrom, SIGN_IN_PATH, SIGN_OUT_PATH, signInPage, safeReturn, type HostSessions } from "@forgekit/cli";

/** The sign-in routes over the instance's accounts. */
export function signInRoutes(fk: Forgekit, sessions: HostSessions): express.Router {
  const { baseUrl } = fk.config;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: "8kb" });
  router.get(SIGN_IN_PATH, (req, res) => {
    res.type("html").send(signInPage(safeReturn(baseUrl, req.query["return_to"]), null));
  });
  router.post(SIGN_IN_PATH, form, (req, res, next) => {
    const body = req.body as Record<string, unknown>;
    const returnTo = safeReturn(baseUrl, body["return_to"]);
    checkSignIn(fk, body["username"], body["password"]).then(async (user) => {
      if (user === null) {
        res.status(401).type("html").send(signInPage(returnTo, "Wrong username or password."));
        return;
      }
      res.cookie(SESSION_COOKIE, await sessions.create(user.id), { httpOnly: true, sameSite: "lax", path: "/" });
      res.redirect(303, returnTo);
    }).catch(next);
  });
  router.post(SIGN_OUT_PATH, (req, res, next) => {
    const cookie = sessionCookieFrom(req.headers.cookie);
    (cookie === undefined ? Promise.resolve() : sessions.destroy(cookie)).then(() => {
      res.clearCookie(SESSION_COOKIE, { path: "/" }).redirect(303, "/");
    }, next);
  });
  return router;
}
