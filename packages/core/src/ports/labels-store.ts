/**
 * Storage port of the Labels API (reference `lib/api/labels.rb`, `group_labels.rb`, `Label`,
 * `LabelPriority`, `Subscription`): group labels created; project and group labels listed, read,
 * renamed and deleted; their per-project priorities, who
 * subscribes to them, and the issue and merge-request counts computed from the label links. The
 * labels themselves are created by {@link LabelRepository.create} (ports/imports-store.ts), which
 * issues and merge requests also use for names they do not know yet. Reached as `Store.labels`;
 * "not found" is `null` / `false`, infrastructure failures reject.
 */
import type { Label } from "./imports-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** Filters of a label list: the labels of the project and of the groups given (at least one of them). */
export interface LabelListFilter {
  projectId?: number;
  groupIds?: readonly number[];
  /** Case-insensitive substring of the name or the description (reference `search`). */
  search?: string;
}

/** A change to a label: the fields given are written, the others kept. */
export type LabelPatch = Partial<{ name: string; color: string; description: string }>;

/** Issues and merge requests carrying a label, counted from the stored links. */
export interface LabelCounts {
  openIssues: number;
  closedIssues: number;
  openMergeRequests: number;
}

/** What creating a group label takes. */
export interface NewGroupLabel {
  groupId: number;
  name: string;
  color: string;
  description: string;
}

/** The store's label rows beyond project-label creation: group labels, list, find, update, remove, priorities, subscriptions and counts. */
export interface LabelsStore {
  /** `null` when the group already has a label of that name (nothing written). The group must exist. */
  createGroupLabel(input: NewGroupLabel, now: Date): Promise<Label | null>;
  /** The label of that name (exact) in the first of `groupIds` that has one (pass the nearest group first); `null` when none. */
  findInGroups(groupIds: readonly number[], name: string): Promise<Label | null>;
  /** The project's labels matching the filter, by name (code-point order), then id. */
  list(filter: LabelListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Label>>;
  findById(id: number): Promise<Label | null>;
  /**
   * Writes the patch (and `updatedAt`); the updated row, `null` for an unknown id or a name another
   * label of the same project or group has (nothing written). Issues and merge requests carry labels by id, so a
   * rename shows on them at once.
   */
  update(id: number, patch: LabelPatch, now: Date): Promise<Label | null>;
  /** Deletes the label with its links to issues and merge requests, its priorities and subscriptions; `false` when unknown. */
  remove(id: number): Promise<boolean>;
  /**
   * Merges labels into one (reference `Labels::PromoteService`): every issue and merge request that
   * carries one of `fromIds` carries `intoId` instead, and their priorities in projects and users'
   * subscriptions move to `intoId` (where `intoId` has one already, its own is kept); then the labels
   * `fromIds` are deleted. `intoId` itself and unknown ids among `fromIds` are skipped.
   */
  mergeInto(intoId: number, fromIds: readonly number[]): Promise<void>;
  /** Sets (a number ≥ 0) or clears (`null`) the label's priority in the project. */
  setPriority(projectId: number, labelId: number, priority: number | null): Promise<void>;
  /** The priorities the project gives these labels; labels without one are absent. */
  priorities(projectId: number, labelIds: readonly number[]): Promise<Map<number, number>>;
  /** Subscribes the user; `false` when subscribed already (nothing written). */
  subscribe(labelId: number, userId: number): Promise<boolean>;
  /** `false` when the user was not subscribed. */
  unsubscribe(labelId: number, userId: number): Promise<boolean>;
  /** Which of these labels the user subscribes to. */
  subscribed(userId: number, labelIds: readonly number[]): Promise<Set<number>>;
  /**
   * Open and closed issues and open merge requests carrying each label (every id maps, zeros
   * included). Confidential issues count only with `confidential: true`.
   */
  counts(labelIds: readonly number[], options: { confidential: boolean }): Promise<Map<number, LabelCounts>>;
}
