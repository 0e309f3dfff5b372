/** What an instance answers: its `/api/v4` route table, and everything below its other mount paths (OAuth, discovery). */
import { DEFAULT_MOUNT_PATHS, servesPath } from "./instance.js";
import { API_ROOT, createRouter, type AnyRoute } from "./router.js";

/**
 * `serves(method, path)` over a route table: below `/api/v4`, whether a route has that path (for
 * any method: a path known for other methods is still forgekit's, answered 405); elsewhere,
 * whether the path is below one of forgekit's mount paths.
 */
export function routeTable(routes: readonly AnyRoute[]): (method: string, path: string) => boolean {
  const router = createRouter(routes);
  return (method, path) => {
    if (path === API_ROOT || path.startsWith(`${API_ROOT}/`)) return router.match(method.toUpperCase(), path).kind !== "not_found";
    return servesPath(path, DEFAULT_MOUNT_PATHS.filter((p) => p !== API_ROOT));
  };
}
