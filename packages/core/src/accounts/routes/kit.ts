/** Pieces of the accounts routes: their dependencies and the `read_user` rule; the route kit itself lives in http/route-kit.ts. */
import type { ForgekitConfig } from "../../config.js";
import type { AccountsServices } from "../services.js";

export {
  defineRoute,
  isOffsetResult,
  listHeaders,
  listWithCursor,
  PAGINATION_PARAMS,
  readPage,
  respond,
  type HandlerContext,
} from "../../http/route-kit.js";

/** What the accounts routes are built from. */
export interface AccountsRouteDeps {
  config: ForgekitConfig;
  services: AccountsServices;
}

/** The API-wide `read_user` rule of `/user` and `/users` (reference §2.4). */
export const READ_USER = [{ scope: "read_user", readOnly: true }];

