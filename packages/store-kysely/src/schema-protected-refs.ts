/** The tables of protected branches and tags (migration 0026_protected_refs). */
import type { Generated } from "kysely";
import type { DbBool, DbDate } from "./schema-values.js";

/** One rule: a branch or tag name or wildcard of a project. */
export interface ProtectedRefsTable {
  id: Generated<number>;
  project_id: number;
  /** `branch` | `tag`. */
  kind: string;
  name: string;
  allow_force_push: DbBool;
  code_owner_approval_required: DbBool;
  created_at: DbDate;
}

/** One access row of a rule: `push` | `merge` | `unprotect` | `create`, by role level, user or group. */
export interface ProtectedRefAccessTable {
  id: Generated<number>;
  protected_ref_id: number;
  action: string;
  access_level: number;
  user_id: number | null;
  group_id: number | null;
}

export interface ProtectedRefsDatabase {
  forgekit_protected_refs: ProtectedRefsTable;
  forgekit_protected_ref_access: ProtectedRefAccessTable;
}

/** The tables in deletion order (dependants first). */
export const PROTECTED_REFS_TABLES = ["forgekit_protected_ref_access", "forgekit_protected_refs"] as const;
