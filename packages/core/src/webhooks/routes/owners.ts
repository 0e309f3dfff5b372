/**
 * Who may manage which hooks (reference `authorize_admin_project` for project hooks — Maintainer or
 * administrator; group hooks — Owner or administrator, premium tier; system hooks —
 * `authenticated_as_admin!`). A project or group the caller cannot see is 404.
 */
import { err, ok } from "neverthrow";
import { AccessLevel } from "../../accounts/types.js";
import { requireAdmin } from "../../accounts/routes/impersonation-tokens.js";
import { seenGroup, seenProject } from "../../accounts/routes/containers.js";
import { requireFeature } from "../../access/tier.js";
import type { ForgekitConfig } from "../../config.js";
import type { OwnerResolver } from "./hooks.js";

/** The project of `:id`, for Maintainers and administrators. */
export function projectOwner(config: ForgekitConfig): OwnerResolver {
  return async ({ identity }, params) => {
    const seen = await seenProject(config.store, identity.user, params.id ?? 0, config.clock.now(), AccessLevel.Maintainer);
    return seen.isErr() ? err(seen.error) : ok({ scope: "project", projectId: seen.value.project.id });
  };
}

/** The group of `:id`, for Owners and administrators, on the premium tier. */
export function groupOwner(config: ForgekitConfig): OwnerResolver {
  return async ({ identity }, params) => {
    const seen = await seenGroup(config.store, identity.user, params.id ?? 0, config.clock.now(), AccessLevel.Owner);
    if (seen.isErr()) return err(seen.error);
    const licensed = requireFeature(config.tier, "groupHooks");
    return licensed.isErr() ? err(licensed.error) : ok({ scope: "group", groupId: seen.value.group.id });
  };
}

/** The instance, for administrators. */
export function systemOwner(): OwnerResolver {
  return async ({ identity }) => {
    const admin = requireAdmin(identity);
    return admin.isErr() ? err(admin.error) : ok({ scope: "system" });
  };
}
