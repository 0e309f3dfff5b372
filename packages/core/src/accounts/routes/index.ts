/** Every accounts route: users, impersonation tokens, projects, groups. */
import { tagRoutes } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import { groupRoutes } from "./groups.js";
import { groupWriteRoutes } from "./group-writes.js";
import { memberRoutes } from "./members.js";
import { projectWriteRoutes } from "./project-writes.js";
import { impersonationTokenRoutes } from "./impersonation-tokens.js";
import type { AccountsRouteDeps } from "./kit.js";
import { projectRoutes } from "./projects.js";
import { userRoutes } from "./users.js";
import { userAdminRoutes } from "./users-admin.js";
import { emailRoutes } from "./emails.js";
import { personalAccessTokenRoutes } from "./personal-access-tokens.js";
import { resourceAccessTokenRoutes } from "./resource-access-tokens.js";

export type { AccountsRouteDeps } from "./kit.js";

/** The accounts route table. */
export function accountsRoutes(deps: AccountsRouteDeps): AnyRoute[] {
  return [
    ...tagRoutes("Users", [...userRoutes(deps), ...userAdminRoutes(deps), ...emailRoutes(deps)]),
    ...tagRoutes("Access tokens", [...personalAccessTokenRoutes(deps), ...resourceAccessTokenRoutes(deps), ...impersonationTokenRoutes(deps)]),
    ...tagRoutes("Projects", [...projectRoutes(deps), ...projectWriteRoutes(deps, deps.storageMoves)]),
    ...tagRoutes("Groups", [...groupRoutes(deps), ...groupWriteRoutes(deps)]),
    ...tagRoutes("Members", memberRoutes(deps)),
  ];
}
