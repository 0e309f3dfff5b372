/** Storage port of protected branches and tags (ports/store.ts conventions). */
import type { ProtectedAccessLevel, ProtectedRef, ProtectedRefAction, ProtectedRefKind } from "../protected-refs/types.js";

/** One access row of a new rule (ids are assigned by the store). */
export interface NewProtectedRefAccess {
  action: ProtectedRefAction;
  accessLevel: ProtectedAccessLevel;
  userId?: number | null;
  groupId?: number | null;
}

/** What protecting a branch or tag takes. */
export interface NewProtectedRef {
  projectId: number;
  kind: ProtectedRefKind;
  name: string;
  allowForcePush?: boolean;
  codeOwnerApprovalRequired?: boolean;
  accessLevels: readonly NewProtectedRefAccess[];
}

/** What {@link ProtectedRefRepository.update} changes. */
export type ProtectedRefPatch = Partial<Pick<ProtectedRef, "allowForcePush" | "codeOwnerApprovalRequired">>;

/** The store's protected branch and tag rules: create, find, list, update and remove. */
export interface ProtectedRefRepository {
  /**
   * Stores the rule with its access rows in one step; `null` when the project already has a rule of
   * that kind with exactly that name (of two racing creates, one wins). The project must exist.
   */
  create(input: NewProtectedRef, now: Date): Promise<ProtectedRef | null>;
  /** The project's rule of that kind named exactly `name` (case-sensitive), or null. */
  find(projectId: number, kind: ProtectedRefKind, name: string): Promise<ProtectedRef | null>;
  /** Every rule of that kind of the project, by ascending id, access rows by ascending id. */
  list(projectId: number, kind: ProtectedRefKind): Promise<ProtectedRef[]>;
  /** Applies the patch; the updated rule, or null when the id is unknown. */
  update(id: number, patch: ProtectedRefPatch): Promise<ProtectedRef | null>;
  /** Deletes the rule and its access rows; `false` when it did not exist. */
  remove(id: number): Promise<boolean>;
}
