/**
 * The demo host's sign-in on koa (`GET`/`POST /users/sign_in`, `POST /users/sign_out`): a thin
 * mount of the shared pieces in `@forgekit/cli` (sessions, page, return-address check). koa has no
 * body parser of its own; the small form is read here with a size limit.
 */
import type { IncomingMessage } from "node:http";
import type { Forgekit } from "@forgekit/core";
import { checkSignIn, SESSION_COOKIE, sessionCookieFrom, SIGN_IN_PATH, SIGN_OUT_PATH, signInPage, safeReturn, type HostSessions } from "@forgekit/cli";
import type Koa from "koa";

const FORM_LIMIT = 8 * 1024;

/** The url-encoded form of a request, or null when it is larger than the limit. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** The sign-in middleware over the instance's accounts; other paths go on to `next`. */
export function signIn(fk: Forgekit, sessions: HostSessions): Koa.Middleware {
  const { baseUrl } = fk.config;
  return async (ctx, next) => {
    if (ctx.path === SIGN_IN_PATH && ctx.method === "GET") {
      ctx.type = "html";
      ctx.body = signInPage(safeReturn(baseUrl, ctx.query["return_to"]), null);
    } else if (ctx.path === SIGN_IN_PATH && ctx.method === "POST") {
      const form = await readForm(ctx.req);
      if (form === null) {
        ctx.status = 413;
        return;
      }
      const returnTo = safeReturn(baseUrl, form.get("return_to"));
      const user = await checkSignIn(fk, form.get("username"), form.get("password"));
      if (user === null) {
        ctx.status = 401;
        ctx.type = "html";
        ctx.body = signInPage(returnTo, "Wrong username or password.");
        return;
      }
      ctx.cookies.set(SESSION_COOKIE, await sessions.create(user.id), { httpOnly: true, sameSite: "lax", path: "/" });
      ctx.status = 303;
      ctx.redirect(returnTo);
    } else if (ctx.path === SIGN_OUT_PATH && ctx.method === "POST") {
      const cookie = sessionCookieFrom(ctx.get("cookie"));
      if (cookie !== undefined) await sessions.destroy(cookie);
      ctx.cookies.set(SESSION_COOKIE, null, { path: "/" });
      ctx.status = 303;
      ctx.redirect("/");
    } else {
      await next();
    }
  };
}
