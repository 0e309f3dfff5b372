/**
 * Access rows from the request (reference `ProtectedBranches` / `ProtectedTags` API params): the
 * `*_access_level` role (0, 30, 40, 60) and, premium, `allowed_to_*` arrays of `{user_id}`,
 * `{group_id}` or `{access_level}` hashes.
 */
import { err, ok, type Result } from "neverthrow";
import { isGroup } from "../../accounts/groups.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { parseInteger } from "../../http/params.js";
import type { ParamValue } from "../../http/types.js";
import type { NewProtectedRefAccess } from "../../ports/protected-refs-store.js";
import { PROTECTED_ACCESS_LEVELS, type ProtectedAccessLevel, type ProtectedRefAction } from "../types.js";

/** A role level parameter, or `invalid_param` in Grape's words. */
export function roleLevel(param: string, value: number | undefined, fallback: ProtectedAccessLevel): Result<ProtectedAccessLevel, ForgekitError> {
  if (value === undefined) return ok(fallback);
  return (PROTECTED_ACCESS_LEVELS as readonly number[]).includes(value) ? ok(value as ProtectedAccessLevel) : err(errors.invalidParam(param, "does not have a valid value"));
}

/** The rows of one `allowed_to_<action>` array: each entry names a user, a group or a role level. */
export async function allowedTo(config: ForgekitConfig, param: string, action: ProtectedRefAction, value: ParamValue | undefined): Promise<Result<NewProtectedRefAccess[], ForgekitError>> {
  if (value === undefined) return ok([]);
  const entries = Array.isArray(value) ? value : null;
  if (entries === null) return err(errors.invalidParam(param));
  const rows: NewProtectedRefAccess[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return err(errors.invalidParam(param));
    const fields = entry as Record<string, unknown>;
    const named = (["user_id", "group_id", "access_level"] as const).filter((key) => fields[key] !== undefined);
    if (named.length !== 1) return err(errors.invalidParam(param, "must name exactly one of user_id, group_id, access_level"));
    const key = named[0] as "user_id" | "group_id" | "access_level";
    const n = parseInteger(fields[key]);
    if (n === null) return err(errors.invalidParam(`${param}[${key}]`));
    if (key === "access_level") {
      const level = roleLevel(`${param}[access_level]`, n, 40);
      if (level.isErr()) return err(level.error);
      rows.push({ action, accessLevel: level.value });
    } else if (key === "user_id") {
      if ((await config.store.users.findByIds([n])).length === 0) return err(errors.validation({ [`${action}_access_levels.user`]: ["can't be blank"] }));
      rows.push({ action, accessLevel: 40, userId: n });
    } else {
      if (!isGroup(await config.store.namespaces.findById(n))) return err(errors.validation({ [`${action}_access_levels.group`]: ["can't be blank"] }));
      rows.push({ action, accessLevel: 40, groupId: n });
    }
  }
  return ok(rows);
}
