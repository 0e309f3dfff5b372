/**
 * Protected branches and tags service (host API: `fk.protectedRefs`): protect, list, find, update
 * and unprotect, plus the instance's default-branch protection (reference `default_branch_protection`
 * and `ProtectDefaultBranchService`). Permission checks (Maintainer+ to manage) are the routes'.
 */
import { err, errAsync, ok, type ResultAsync } from "neverthrow";
import { attempt, BLANK, fromStore, tooLong } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { NewProtectedRef, ProtectedRefPatch } from "../ports/protected-refs-store.js";
import type { TransactionStore } from "../ports/store.js";
import type { ProtectedRef, ProtectedRefKind } from "./types.js";

/** What protecting a branch or tag takes (access rows already checked by the caller). */
export type ProtectInput = NewProtectedRef;

/** The setting key and its values (reference `Gitlab::Access` branch protection levels). */
export const DEFAULT_BRANCH_PROTECTION = "default_branch_protection";
/** 0 none, 1 developers can push, 2 full, 3 developers can merge, 4 developers can push the first commit only. */
export const BRANCH_PROTECTION_LEVELS = [0, 1, 2, 3, 4] as const;
/** One of {@link BRANCH_PROTECTION_LEVELS}: the instance's `default_branch_protection`. */
export type BranchProtectionLevel = (typeof BRANCH_PROTECTION_LEVELS)[number];

/** The rule a default branch gets at each protection level (`null`: none). */
export function defaultBranchRule(level: BranchProtectionLevel): { push: 30 | 40; merge: 30 | 40 } | null {
  switch (level) {
    case 0:
      return null;
    case 1:
      return { push: 30, merge: 40 };
    case 3:
      return { push: 40, merge: 30 };
    case 2:
    case 4:
      return { push: 40, merge: 40 };
  }
}

/** Longest rule name (the column's width). */
const NAME_MAX = 255;

/** Protected refs service. */
export interface ProtectedRefsService {
  /** `validation({name})` when blank or too long; `conflict("Protected branch 'x' already exists")` when taken. */
  protect(input: ProtectInput): ResultAsync<ProtectedRef, ForgekitError>;
  list(projectId: number, kind: ProtectedRefKind): ResultAsync<ProtectedRef[], ForgekitError>;
  /** `not_found("Protected branch"|"Protected tag")` when missing. */
  find(projectId: number, kind: ProtectedRefKind, name: string): ResultAsync<ProtectedRef, ForgekitError>;
  update(projectId: number, kind: ProtectedRefKind, name: string, patch: ProtectedRefPatch): ResultAsync<ProtectedRef, ForgekitError>;
  unprotect(projectId: number, kind: ProtectedRefKind, name: string): ResultAsync<void, ForgekitError>;
  /** The instance's level: the setting when stored, else `defaultBranchProtection` of the configuration (2). */
  defaultBranchProtection(): ResultAsync<BranchProtectionLevel, ForgekitError>;
  /** Stores the level; `null` removes the setting (back to the configured default). */
  setDefaultBranchProtection(level: BranchProtectionLevel | null): ResultAsync<void, ForgekitError>;
}

const thing = (kind: ProtectedRefKind) => (kind === "branch" ? "Protected branch" : "Protected tag");

/** Reads the level from a store (inside or outside a transaction). */
export async function readBranchProtection(store: Pick<TransactionStore, "settings">, fallback: BranchProtectionLevel): Promise<BranchProtectionLevel> {
  const stored = await store.settings.get(DEFAULT_BRANCH_PROTECTION);
  const value = stored === null ? NaN : Number(stored);
  return (BRANCH_PROTECTION_LEVELS as readonly number[]).includes(value) ? (value as BranchProtectionLevel) : fallback;
}

/**
 * Protects the project's new default branch as the instance says (reference: when the first branch
 * is pushed or created and becomes the default). Nothing when the level is 0 or a rule of that name
 * exists already.
 */
export async function protectDefaultBranch(store: Pick<TransactionStore, "settings" | "protectedRefs">, fallback: BranchProtectionLevel, projectId: number, branch: string, now: Date): Promise<void> {
  const rule = defaultBranchRule(await readBranchProtection(store, fallback));
  if (rule === null || (await store.protectedRefs.find(projectId, "branch", branch)) !== null) return;
  await store.protectedRefs.create(
    { projectId, kind: "branch", name: branch, allowForcePush: false, accessLevels: [{ action: "push", accessLevel: rule.push }, { action: "merge", accessLevel: rule.merge }, { action: "unprotect", accessLevel: 40 }] },
    now,
  );
}

/** Builds the protected refs service. */
export function protectedRefsService(config: ForgekitConfig): ProtectedRefsService {
  const { store, clock } = config;
  const fallback = config.defaultBranchProtection;
  const find = (projectId: number, kind: ProtectedRefKind, name: string) =>
    fromStore(store.protectedRefs.find(projectId, kind, name)).andThen((found) => (found === null ? err(errors.notFound(thing(kind))) : ok(found)));
  return {
    protect: (input) => {
      const name = input.name.trim();
      if (name === "") return errAsync(errors.validation({ name: [BLANK] }));
      if (name.length > NAME_MAX) return errAsync(errors.validation({ name: [tooLong(NAME_MAX)] }));
      return attempt(async () => {
        const created = await store.protectedRefs.create({ ...input, name }, clock.now());
        return created === null ? err(errors.conflict(`${thing(input.kind)} '${name}' already exists`)) : ok(created);
      });
    },
    list: (projectId, kind) => fromStore(store.protectedRefs.list(projectId, kind)),
    find,
    update: (projectId, kind, name, patch) =>
      find(projectId, kind, name).andThen((rule) => fromStore(store.protectedRefs.update(rule.id, patch)).andThen((updated) => (updated === null ? err(errors.notFound(thing(kind))) : ok(updated)))),
    unprotect: (projectId, kind, name) => find(projectId, kind, name).andThen((rule) => fromStore(store.protectedRefs.remove(rule.id)).map(() => undefined)),
    defaultBranchProtection: () => fromStore(readBranchProtection(store, fallback)),
    setDefaultBranchProtection: (level) => fromStore(store.settings.set(DEFAULT_BRANCH_PROTECTION, level === null ? null : String(level))),
  };
}
