/** The accounts routes' dependencies, and the route kit (http/route-kit.ts) re-exported for them. */
import type { ForgekitConfig } from "../../config.js";
import type { AccountsServices } from "../services.js";
import type { StorageMovesService } from "../../storage-moves/service.js";

export {
  defineRoute,
  isOffsetResult,
  listHeaders,
  listWithCursor,
  offsetOnly,
  PAGINATION_PARAMS,
  READ_USER,
  readPage,
  respond,
  type HandlerContext,
} from "../../http/route-kit.js";

/** What the accounts routes are built from. */
export interface AccountsRouteDeps {
  config: ForgekitConfig;
  services: AccountsServices;
  /** Repository storage moves, for `PUT /projects/:id` with `repository_storage` (administrators). */
  storageMoves?: StorageMovesService;
}
