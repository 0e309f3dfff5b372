/** Pieces of the accounts routes: their dependencies and the `read_user` rule; the route kit itself lives in http/route-kit.ts. */
import type { ForgekitConfig } from "../../config.js";
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../../errors.js";
import type { KeysetPage } from "../../http/pagination-keyset.js";
import type { OffsetPageRequest } from "../../ports/pagination.js";
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

/** Narrows a page to offset pagination (routes that pass no keyset rules to `readPage` only ever get one). */
export function offsetOnly(page: Result<KeysetPage | OffsetPageRequest, ForgekitError>): Result<OffsetPageRequest, ForgekitError> {
  return page.andThen((value) => (value.kind === "offset" ? ok(value) : err(errors.internal(new Error("keyset page without keyset support")))));
}

/** The API-wide `read_user` rule of `/user` and `/users` (reference §2.4). */
export const READ_USER = [{ scope: "read_user", readOnly: true }];

