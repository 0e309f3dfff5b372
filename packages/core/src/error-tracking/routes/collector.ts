/**
 * The collector behind a client key's DSN (reference §5.3; client-compatibility §6.21–22):
 * `POST /error_tracking/collector/api/:project_id/envelope` and `…/store` (the router tolerates the
 * trailing slash SDKs send). No API credentials: the client key is the credential, so the routes
 * are `auth: optional` and an anonymous request reaches the handler. `rawBody` routes get the body
 * as bytes in any content type; the checks here decide which types are taken (collector/request.ts).
 *
 * Order of checks, each only after the previous passed, so a caller without a valid key learns
 * nothing about the project or the parser:
 * 1. content type and coding (headers only) → 415;
 * 2. a client key in `sentry_key` or `X-Sentry-Auth` → else 400 `Failed to parse sentry request`;
 * 3. project, active integrated settings and an active key of that project → else one uniform 404
 *    (the reference's distinct `Project Not Found` would tell anyone which private project ids exist);
 * 4. the body: decompressed (413 past the body limit, 400 when corrupt), parsed (400), its events
 *    validated (400 `Unsupported sentry payload`) and recorded, all or none;
 * 5. 200 with `{}`: the collector never returns data (the reference's rule; the key is public).
 *    It carries `Access-Control-Allow-Origin: *` so browser SDKs, which post cross-origin as simple
 *    requests (`text/plain`, key in the query), can read their success; nothing is exposed by it.
 */
import { err, ok, type Result } from "neverthrow";
import { defineRoute, respond } from "../../http/route-kit.js";
import { errors, type ForgekitError } from "../../errors.js";
import type { AnyRoute } from "../../http/router.js";
import type { RouteContext } from "../../http/types.js";
import { recordIdFrom } from "../../ids.js";
import { isStorableText } from "../../storable.js";
import { PARSE_FAILED, parseEnvelope, parseJsonDocument } from "../collector/envelope.js";
import { checkMediaType, collectorBody, sentryKeyFrom } from "../collector/request.js";
import type { ErrorTrackingRouteDeps } from "./project.js";

const ROOT = "/error_tracking/collector/api/:project_id";

type Parse = (bytes: Uint8Array) => Result<unknown[], ForgekitError>;

/** Builds the two collector routes. */
export function collectorRoutes({ config, errorTracking }: ErrorTrackingRouteDeps): AnyRoute[] {
  const limit = config.limits.bodyBytes;

  const collect = (parse: Parse) => (ctx: RouteContext) =>
    respond(async () => {
      const media = checkMediaType(ctx.request);
      if (media.isErr()) return err(media.error);
      const key = sentryKeyFrom(ctx.request, ctx.params);
      if (key === null) return err(errors.badRequest(PARSE_FAILED));
      const raw = ctx.pathParams["project_id"] ?? "";
      // Digits within the id range only, and a key a store can compare: anything else names no
      // project or key (the same uniform 404) and never reaches a store.
      const projectId = recordIdFrom(raw);
      if (projectId === null || !isStorableText(key)) return err(errors.notFound());
      const allowed = await errorTracking.authorizeCollector(projectId, key);
      if (allowed.isErr()) return err(allowed.error);
      const body = await collectorBody(ctx.request, limit);
      if (body.isErr()) return err(body.error);
      const documents = parse(body.value);
      if (documents.isErr()) return err(documents.error);
      const recorded = await errorTracking.ingest(projectId, documents.value);
      return recorded.isErr() ? err(recorded.error) : ok({ status: 200, body: {}, headers: { "access-control-allow-origin": "*" } });
    });

  const route = (name: string, parse: Parse): AnyRoute =>
    defineRoute({ method: "POST", path: `${ROOT}/${name}`, summary: `Receive a Sentry SDK ${name === "envelope" ? "envelope" : "event"}`, auth: { mode: "optional" }, rawBody: true, paramNames: ["sentry_key"], handler: collect(parse) });

  return [route("envelope", parseEnvelope), route("store", (bytes) => parseJsonDocument(bytes).map((event) => [event]))];
}
