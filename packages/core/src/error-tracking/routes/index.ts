/** Every error-tracking route: settings, client keys, and the collector. */
import { tagRoutes } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import { clientKeyRoutes } from "./client-keys.js";
import { collectorRoutes } from "./collector.js";
import type { ErrorTrackingRouteDeps } from "./project.js";
import { settingsRoutes } from "./settings.js";

export type { ErrorTrackingRouteDeps } from "./project.js";

/** The error-tracking route table. */
export function errorTrackingRoutes(deps: ErrorTrackingRouteDeps): AnyRoute[] {
  return tagRoutes("Error tracking", [...settingsRoutes(deps), ...clientKeyRoutes(deps), ...collectorRoutes(deps)]);
}
