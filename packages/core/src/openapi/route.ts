/** `GET /api/v4/openapi.json` (config `openapi.serve`, default off): the instance's own OpenAPI document. */
import { ok } from "neverthrow";
import { defineRoute, respond } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { OpenApiDocument } from "./document.js";

/** The route serving `document()` (built on first request, then kept: the table does not change). */
export function openApiRoutes(document: () => OpenApiDocument): AnyRoute[] {
  let built: OpenApiDocument | undefined;
  return [
    defineRoute({
      method: "GET",
      path: "/openapi.json",
      auth: { mode: "optional" },
      tag: "Instance",
      summary: "Get this OpenAPI document",
      handler: () => respond(async () => ok({ body: (built ??= document()) })),
    }),
  ];
}
