/**
 * Mount forgekit into an express 5 app: `/api/v4/*`, `/oauth/*`, the OAuth discovery documents and
 * git over HTTP (`/<namespace>/<project>(.git)/info/refs`, `…/git-upload-pack`,
 * `…/git-receive-pack`, streamed: mount forgekit before any catch-all body parser) go to the
 * instance, everything else falls through to the host's routes (`next()`).
 *
 * ```ts
 * app.use(forgekit(fk));            // at the root
 * app.use("/forge", forgekit(fk));  // or below a sub-path (express strips it from req.url)
 * ```
 * Responses are written by core's Node layer, never with `res.json()` (which adds a charset).
 */
import type { RequestHandler } from "express";
import { serveNodeRequest, type HttpInstance, type MountOptions } from "@forgekit/core/node";

/** Options: `prefix` to strip, `maxBodyBytes`, and the `paths` forgekit serves. */
export type ForgekitExpressOptions = MountOptions;

/** The express middleware. A body already parsed by `express.json()` / `express.urlencoded()` is used as is. */
export function forgekit(instance: HttpInstance, options: ForgekitExpressOptions = {}): RequestHandler {
  return (req, res, next) => {
    const parsedBody: unknown = req.body;
    serveNodeRequest(instance, req, res, { ...options, parsedBody }).then(
      (served) => {
        if (!served) next();
      },
      (error: unknown) => next(error),
    );
  };
}

export type { HttpInstance, MountOptions } from "@forgekit/core/node";
