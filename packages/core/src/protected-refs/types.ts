/**
 * Protected branches and tags (reference `ProtectedBranch`, `ProtectedTag`, `ProtectedRefAccess`):
 * a rule names a branch or tag, or a wildcard (`release/*`), and says who may push, merge,
 * unprotect (branches) or create (tags) through access-level rows.
 */

/** What a protected ref is: a branch or a tag rule. */
export type ProtectedRefKind = "branch" | "tag";

/** What an access row grants: push/merge/unprotect on a branch, create on a tag. */
export type ProtectedRefAction = "push" | "merge" | "unprotect" | "create";

/** The role levels a protected ref accepts (reference `ProtectedRefAccess.allowed_access_levels`). */
export const PROTECTED_ACCESS_LEVELS = [0, 30, 40, 60] as const;
/** 0 no one, 30 Developers + Maintainers, 40 Maintainers, 60 Admins. */
export type ProtectedAccessLevel = (typeof PROTECTED_ACCESS_LEVELS)[number];

/** The reference's `human_access_levels`. */
export const ACCESS_LEVEL_DESCRIPTIONS: Record<ProtectedAccessLevel, string> = {
  0: "No one",
  30: "Developers + Maintainers",
  40: "Maintainers",
  60: "Admins",
};

/** One access row: a role level, or (premium) one user or one group. */
export interface ProtectedRefAccess {
  id: number;
  action: ProtectedRefAction;
  /** The role level; for a user or group row the reference stores Maintainer (40). */
  accessLevel: ProtectedAccessLevel;
  userId: number | null;
  groupId: number | null;
}

/** A protected branch or tag rule of a project, with its access rows (ascending id). */
export interface ProtectedRef {
  id: number;
  projectId: number;
  kind: ProtectedRefKind;
  /** A ref name, or a pattern where `*` matches any run of characters (slashes included). */
  name: string;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  accessLevels: ProtectedRefAccess[];
  createdAt: Date;
}

/** Whether `name` is a wildcard rule. */
export function isWildcard(name: string): boolean {
  return name.includes("*");
}

/**
 * Whether the rule `pattern` covers ref `name` (reference `RefMatcher`): an exact name, or a
 * wildcard where each `*` matches any characters, the whole name anchored.
 */
export function refMatches(pattern: string, name: string): boolean {
  if (!isWildcard(pattern)) return pattern === name;
  const source = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*?");
  return new RegExp(`^${source}$`, "s").test(name);
}
