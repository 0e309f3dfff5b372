/** Namespaces (issue 19 §2, reference Namespaces API): the caller's users' and groups' namespaces. */
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { namespaceRoutes } from "./routes.js";

/** The namespace route table. */
export function namespacesRoutes(config: ForgekitConfig): AnyRoute[] {
  return tagRoutes("Namespaces", namespaceRoutes(config));
}
