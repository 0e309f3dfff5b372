/**
 * Instance routes (reference `lib/api/version.rb`, `metadata.rb`, `settings.rb`): version and
 * metadata for any signed-in caller (`read_user` tokens included), and the application settings
 * forgekit has, for administrators.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import type { AccountsServices } from "../accounts/services.js";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { p, parseBoolean, parseInteger } from "../http/params.js";
import { defineRoute, READ_USER, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { BRANCH_PROTECTION_LEVELS, type BranchProtectionLevel, type ProtectedRefsService } from "../protected-refs/index.js";
import { metadataEntity, versionEntity } from "./version.js";

/** What the instance routes are built from. */
export interface InstanceRouteDeps {
  config: ForgekitConfig;
  services: Pick<AccountsServices, "settings">;
  /** `default_branch_protection` (protected-refs capability). */
  protectedRefs: Pick<ProtectedRefsService, "defaultBranchProtection" | "setDefaultBranchProtection">;
}

/** Reference `authenticated_as_admin!`: anonymous 401 (the route requires credentials), others 403. */
const adminOnly = (user: { admin: boolean } | null) => (user === null ? err(errors.unauthorized()) : user.admin ? ok(user) : err(errors.forbidden()));

/** Builds the instance routes. */
export function instanceRoutes({ config, services, protectedRefs }: InstanceRouteDeps): AnyRoute[] {
  const settingsBody = async () => {
    const impersonation = await services.settings.impersonationEnabled();
    if (impersonation.isErr()) return err(impersonation.error);
    const protection = await protectedRefs.defaultBranchProtection();
    if (protection.isErr()) return err(protection.error);
    return ok({
      impersonation_enabled: impersonation.value,
      default_branch_protection: protection.value,
      // Configured by the host (`passwordAuthenticationForGit`), shown here, not changeable here.
      password_authentication_enabled_for_git: config.passwordAuthenticationForGit,
    });
  };

  return tagRoutes("Instance", [
    defineRoute({
      method: "GET",
      path: "/version",
      response: { entity: "Version" },
      auth: { mode: "required", extraScopes: READ_USER },
      handler: () => respond(async () => ok({ body: versionEntity() })),
    }),
    defineRoute({
      method: "GET",
      path: "/metadata",
      auth: { mode: "required", extraScopes: READ_USER },
      handler: () => respond(async () => ok({ body: metadataEntity(config.tier !== "free") })),
    }),
    defineRoute({
      method: "GET",
      path: "/application/settings",
      auth: { mode: "required" },
      handler: ({ identity }) =>
        respond(async () => {
          const admin = adminOnly(identity.user);
          if (admin.isErr()) return err(admin.error);
          return (await settingsBody()).map((body) => ({ body }));
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/application/settings",
      auth: { mode: "required" },
      schema: z.object({
        // `null` removes the setting, which re-enables impersonation (spec Authentication rule 3).
        impersonation_enabled: p.raw().optional(),
        password_authentication_enabled_for_git: p.raw().optional(),
        // 0 … 4 (reference `Gitlab::Access` branch protection); `null` restores the configured default.
        default_branch_protection: p.raw().optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const admin = adminOnly(identity.user);
          if (admin.isErr()) return err(admin.error);
          if (params.password_authentication_enabled_for_git !== undefined) {
            return err(errors.validation({ password_authentication_enabled_for_git: ["is set in the instance's configuration (passwordAuthenticationForGit)"] }));
          }
          if (params.impersonation_enabled !== undefined) {
            const value = params.impersonation_enabled === null ? null : parseBoolean(params.impersonation_enabled);
            if (value === null && params.impersonation_enabled !== null) return err(errors.invalidParam("impersonation_enabled"));
            const saved = await services.settings.setImpersonationEnabled(value);
            if (saved.isErr()) return err(saved.error);
          }
          if (params.default_branch_protection !== undefined) {
            const level = params.default_branch_protection === null ? null : parseInteger(params.default_branch_protection);
            if (level !== null && !(BRANCH_PROTECTION_LEVELS as readonly number[]).includes(level)) return err(errors.invalidParam("default_branch_protection", "does not have a valid value"));
            if (level === null && params.default_branch_protection !== null) return err(errors.invalidParam("default_branch_protection"));
            const saved = await protectedRefs.setDefaultBranchProtection(level as BranchProtectionLevel | null);
            if (saved.isErr()) return err(saved.error);
          }
          return (await settingsBody()).map((body) => ({ body }));
        }),
    }),
  ]);
}
