/**
 * Who may do what to a ref under its project's protection rules (reference `ProtectedRefAccess`,
 * `Gitlab::UserAccess`, `Gitlab::Checks::BranchCheck` / `TagCheck`). A ref may match several rules
 * (an exact name and wildcards): an action is allowed when any access row of any matching rule
 * allows it, force pushes when any matching rule allows them.
 */
import type { Project, User } from "../accounts/types.js";
import { AccessLevel } from "../accounts/types.js";
import type { TransactionStore } from "../ports/store.js";
import { readBranchProtection, type BranchProtectionLevel } from "./service.js";
import { refMatches, type ProtectedRef, type ProtectedRefAccess, type ProtectedRefAction, type ProtectedRefKind } from "./types.js";

/** The reference's refusal messages (`BranchCheck::ERROR_MESSAGES`, `TagCheck::ERROR_MESSAGES`), without the `GitLab: ` prefix git shows. */
export const PROTECTED_MESSAGES = {
  pushProtectedBranch: "You are not allowed to push code to protected branches on this project.",
  forcePushProtectedBranch: "You are not allowed to force push code to a protected branch on this project.",
  createProtectedBranch: "You are not allowed to create protected branches on this project.",
  deleteProtectedBranchNonWeb: "You can only delete protected branches using the web interface.",
  deleteProtectedBranch: "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.",
  deleteDefaultBranch: "The default branch of a project cannot be deleted.",
  createProtectedTag: "You are not allowed to create this tag as it is protected.",
  updateProtectedTag: "Protected tags cannot be updated.",
  deleteProtectedTagNonWeb: "You can only delete protected tags using the web interface.",
  deleteProtectedTag: "You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.",
  /** REST commits and files API (`authorize_push_to_branch!`). */
  pushIntoBranch: "You are not allowed to push into this branch",
} as const;

/** The project's rules and one user's standing on the project: answers every access question about refs. */
export interface RefAccess {
  /** The user's membership level on the project (0 for none or anonymous). */
  readonly level: number;
  /** The rules of that kind matching `name`. */
  matching(kind: ProtectedRefKind, name: string): ProtectedRef[];
  /** Whether a branch or tag is protected. */
  isProtected(kind: ProtectedRefKind, name: string): boolean;
  /** Push (branch) — unprotected: Developer+; protected: a push row allows it. */
  canPush(branch: string): Promise<boolean>;
  /** Merge into (branch) — unprotected: Developer+; protected: a merge row allows it. */
  canMerge(branch: string): Promise<boolean>;
  /** Create (tag) — unprotected: Developer+; protected: a create row allows it. */
  canCreateTag(tag: string): Promise<boolean>;
  /** Whether any matching rule allows force pushes. */
  allowsForcePush(branch: string): boolean;
  /** Whether a matching rule's `action` rows include the Developer role (`developers_can_push`/`_merge`). */
  developersCan(action: "push" | "merge", branch: string): boolean;
}

/** Loads the rules of `project` and the user's level, once, for many questions. */
export async function refAccess(store: Pick<TransactionStore, "protectedRefs" | "members">, project: Project, user: User | null, now: Date): Promise<RefAccess> {
  const [branches, tags] = await Promise.all([store.protectedRefs.list(project.id, "branch"), store.protectedRefs.list(project.id, "tag")]);
  const level = user === null ? AccessLevel.NoAccess : await store.members.projectAccessLevel(user.id, project.id, now);
  const groupLevels = new Map<number, number>();
  const inGroup = async (groupId: number) => {
    if (user === null) return false;
    if (!groupLevels.has(groupId)) groupLevels.set(groupId, await store.members.namespaceAccessLevel(user.id, groupId, now));
    return (groupLevels.get(groupId) ?? 0) > 0;
  };
  /** Reference `ProtectedRefAccess#check_access`: no one at 0, only admins at 60, else the role, the user or the group. */
  const rowAllows = async (row: ProtectedRefAccess): Promise<boolean> => {
    if (user === null) return false;
    if (row.userId !== null) return row.userId === user.id && level >= AccessLevel.Developer;
    if (row.groupId !== null) return level >= AccessLevel.Developer && (await inGroup(row.groupId));
    if (row.accessLevel === 0) return false;
    if (user.admin) return true;
    return row.accessLevel !== 60 && level >= row.accessLevel;
  };
  const rulesOf = (kind: ProtectedRefKind) => (kind === "branch" ? branches : tags);
  const matching = (kind: ProtectedRefKind, name: string) => rulesOf(kind).filter((rule) => refMatches(rule.name, name));
  const allowed = async (kind: ProtectedRefKind, action: ProtectedRefAction, name: string) => {
    const rules = matching(kind, name);
    if (rules.length === 0) return user !== null && (user.admin || level >= AccessLevel.Developer);
    for (const rule of rules) for (const row of rule.accessLevels) if (row.action === action && (await rowAllows(row))) return true;
    return false;
  };
  return {
    level,
    matching,
    isProtected: (kind, name) => matching(kind, name).length > 0,
    canPush: (branch) => allowed("branch", "push", branch),
    canMerge: (branch) => allowed("branch", "merge", branch),
    canCreateTag: (tag) => allowed("tag", "create", tag),
    allowsForcePush: (branch) => matching("branch", branch).some((rule) => rule.allowForcePush),
    developersCan: (action, branch) =>
      matching("branch", branch).some((rule) => rule.accessLevels.some((row) => row.action === action && row.userId === null && row.groupId === null && row.accessLevel === AccessLevel.Developer)),
  };
}

/** One ref update of a push: old and new ids (all zeros = none), the full ref, and whether new descends from old. */
export interface RefUpdate {
  oldId: string;
  newId: string;
  ref: string;
  /** `true` when `oldId` is an ancestor of `newId` (or either is zero). */
  fastForward: boolean;
}

const isZero = (id: string) => /^0+$/.test(id);

/**
 * The refusal of one ref update pushed over git, or null when it may go (reference
 * `Gitlab::Checks::BranchCheck`, `TagCheck`; a Developer+ check has already passed).
 */
export async function refusePushUpdate(access: RefAccess, project: Project, update: RefUpdate): Promise<string | null> {
  const creating = isZero(update.oldId);
  const deleting = isZero(update.newId);
  if (update.ref.startsWith("refs/heads/")) {
    const branch = update.ref.slice("refs/heads/".length);
    if (deleting && project.defaultBranch === branch) return PROTECTED_MESSAGES.deleteDefaultBranch;
    if (!access.isProtected("branch", branch)) return null;
    if (deleting) return access.level >= AccessLevel.Maintainer ? PROTECTED_MESSAGES.deleteProtectedBranchNonWeb : PROTECTED_MESSAGES.deleteProtectedBranch;
    if (creating) return (await access.canPush(branch)) || (await access.canMerge(branch)) ? null : PROTECTED_MESSAGES.createProtectedBranch;
    if (!update.fastForward && !access.allowsForcePush(branch)) return PROTECTED_MESSAGES.forcePushProtectedBranch;
    return (await access.canPush(branch)) ? null : PROTECTED_MESSAGES.pushProtectedBranch;
  }
  if (update.ref.startsWith("refs/tags/")) {
    const tag = update.ref.slice("refs/tags/".length);
    if (!access.isProtected("tag", tag)) return null;
    if (deleting) return access.level >= AccessLevel.Maintainer ? PROTECTED_MESSAGES.deleteProtectedTagNonWeb : PROTECTED_MESSAGES.deleteProtectedTag;
    if (!creating) return PROTECTED_MESSAGES.updateProtectedTag;
    return (await access.canCreateTag(tag)) ? null : PROTECTED_MESSAGES.createProtectedTag;
  }
  return null;
}

/**
 * Whether `user` may write the first branch of an empty repository (reference
 * `ProtectedBranch.protected_ref_accessible_to?`): while the instance protects default branches
 * (any level but 0, and 4 "developers can push the initial commit"), only Maintainers and above and
 * administrators may.
 */
export async function mayWriteFirstBranch(store: Pick<TransactionStore, "settings">, fallback: BranchProtectionLevel, access: RefAccess, user: User | null): Promise<boolean> {
  const level = await readBranchProtection(store, fallback);
  if (level === 0 || level === 4) return true;
  return user !== null && (user.admin || access.level > AccessLevel.Developer);
}

/** What a push to an empty repository is also checked against. */
export interface InitialPush {
  /** Whether the repository had no branch before the push. */
  emptyRepository: boolean;
  /** The configured `default_branch_protection` fallback. */
  fallback: BranchProtectionLevel;
}

/**
 * The refusals of a whole push (each message once, in the order met), empty when every update may
 * go: what the pre-receive check answers. The rules are read once for the push.
 */
export async function refusePush(store: Pick<TransactionStore, "protectedRefs" | "members" | "settings">, project: Project, user: User | null, updates: readonly RefUpdate[], now: Date, initial?: InitialPush): Promise<string[]> {
  const access = await refAccess(store, project, user, now);
  const messages: string[] = [];
  const branches = updates.some((u) => u.ref.startsWith("refs/heads/") && !isZero(u.newId));
  if (initial?.emptyRepository === true && branches && !(await mayWriteFirstBranch(store, initial.fallback, access, user))) messages.push(PROTECTED_MESSAGES.pushProtectedBranch);
  for (const update of updates) {
    const message = await refusePushUpdate(access, project, update);
    if (message !== null && !messages.includes(message)) messages.push(message);
  }
  return messages;
}
