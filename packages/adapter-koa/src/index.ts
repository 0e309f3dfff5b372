/**
 * Mount forgekit into a koa 3 app: `/api/v4/*`, `/oauth/*`, the OAuth discovery documents and git
 * over HTTP (`/<namespace>/<project>(.git)/info/refs`, `…/git-upload-pack`, `…/git-receive-pack`,
 * streamed) go to the instance, everything else to the next middleware.
 *
 * ```ts
 * app.use(forgekit(fk));                        // at the root
 * app.use(forgekit(fk, { prefix: "/forge" }));  // below a sub-path (koa-mount works too)
 * ```
 * The response is written by core's Node layer with `ctx.respond = false`, so koa adds no
 * `charset` to the JSON content type and never turns an empty 200 into a 204.
 */
import type { Middleware } from "koa";
import { serveNodeRequest, type HttpInstance, type MountOptions } from "@forgekit/core/node";

/** Options: `prefix` to strip, `maxBodyBytes`, and the `paths` forgekit serves. */
export type ForgekitKoaOptions = MountOptions;

/** The koa middleware. A body already parsed by a body parser (`ctx.request.body`) is used as is. */
export function forgekit(instance: HttpInstance, options: ForgekitKoaOptions = {}): Middleware {
  return async (ctx, next) => {
    const parsedBody: unknown = (ctx.request as { body?: unknown }).body;
    const served = await serveNodeRequest(instance, ctx.req, ctx.res, { ...options, parsedBody });
    if (served) {
      ctx.respond = false;
      return;
    }
    await next();
  };
}

export type { HttpInstance, MountOptions } from "@forgekit/core/node";
