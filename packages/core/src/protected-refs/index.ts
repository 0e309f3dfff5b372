/**
 * The protected refs capability: protected branches and tags (issue #19 §2), their service and
 * routes, and the rules git pushes, repository writes and merges are checked against.
 */
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { protectedRefRoutes } from "./routes/protected-refs.js";
import type { ProtectedRefsService } from "./service.js";

export { protectedBranchEntity, protectedTagEntity } from "./entities.js";
export { mayWriteFirstBranch, PROTECTED_MESSAGES, refAccess, refusePush, refusePushUpdate, type InitialPush, type RefAccess, type RefUpdate } from "./rules.js";
export {
  BRANCH_PROTECTION_LEVELS,
  DEFAULT_BRANCH_PROTECTION,
  defaultBranchRule,
  protectDefaultBranch,
  protectedRefsService,
  type BranchProtectionLevel,
  type ProtectInput,
  type ProtectedRefsService,
} from "./service.js";
export * from "./types.js";

/** The protected branch and tag routes. */
export function protectedRefsRoutes(config: ForgekitConfig, protectedRefs: ProtectedRefsService): AnyRoute[] {
  return tagRoutes("Protected refs", protectedRefRoutes({ config, protectedRefs }));
}
