/**
 * Project releases (issue 19 §2, reference Releases API): releases of tags with asset links; a
 * missing tag is created from `ref` through the repository layer.
 */
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { ReleasesDeps } from "./context.js";
import { releaseLinkRoutes } from "./routes/links.js";
import { releaseRoutes } from "./routes/releases.js";

export type { ReleasesDeps } from "./context.js";
export { RELEASE_LINK_TYPES, type Release, type ReleaseLink, type ReleaseLinkType } from "./types.js";

/** The release route table. */
export function releasesRoutes(deps: ReleasesDeps): AnyRoute[] {
  return tagRoutes("Releases", [...releaseRoutes(deps), ...releaseLinkRoutes(deps)]);
}
