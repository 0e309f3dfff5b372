/**
 * Storage port of what the REST merge-request and snippet resources add (DESIGN §5): the filtered
 * merge-request list, edits, merges (who merged, the merge commit), label links and deletion; and
 * snippet descriptions, edits, lists and deletion. Reached as `Store.reviews`. The general contract
 * of ports/store.ts applies: "not found" is `null` / `false`, infrastructure failures reject.
 */
import type { Visibility } from "../accounts/types.js";
import type { MergeRequest, MergeRequestState, Snippet } from "../activity/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** Orders of {@link MergeRequestListFilter} (reference `order_by`); ties break by id in the same direction. */
export type MergeRequestOrder = "created_at" | "updated_at" | "title" | "merged_at";

/** The filters of `GET /merge_requests`, `/groups/:id/merge_requests`, `/projects/:id/merge_requests`. */
export interface MergeRequestListFilter {
  /** Only merge requests of these projects (the caller resolved visibility); empty → an empty page. */
  projectIds: readonly number[];
  state?: MergeRequestState;
  authorId?: number;
  /** Merge requests with this assignee (ports/merge-request-extras-store.ts); "none" / "any". */
  assigneeId?: number | "none" | "any";
  /** Merge requests with this reviewer; "none" / "any". */
  reviewerId?: number | "none" | "any";
  /** Merge requests carrying every one of these label names; or "none" / "any". */
  labels?: readonly string[] | "none" | "any";
  sourceBranch?: string;
  targetBranch?: string;
  /** Case-insensitive substring of the title or the description. */
  search?: string;
  iids?: readonly number[];
  createdAfter?: Date;
  createdBefore?: Date;
  /** Only merge requests that close this issue (ports/merge-request-closing-issues-store.ts). */
  closesIssueId?: number;
  /** Merge requests with this milestone (by id, or a milestone of this title), with none, or with any. */
  milestone?: { id: number } | { title: string } | "none" | "any";
  orderBy: MergeRequestOrder;
  sort: "asc" | "desc";
}

/** A merge request with what the REST resource adds. */
export interface MergeRequestRecord extends MergeRequest {
  /** Who merged it (null unless merged through forgekit). */
  mergeUserId: number | null;
  /** The merge commit it made (null unless merged). */
  mergeCommitSha: string | null;
}

/** Fields {@link ReviewRepository.updateMergeRequest} may change. */
export type MergeRequestEdit = Partial<{ title: string; description: string; targetBranch: string }> & { updatedAt: Date };

/** A snippet with its description. */
export interface SnippetRecord extends Snippet {
  description: string;
}

/** Fields {@link ReviewRepository.updateSnippet} may change (`fileName` / `content` mirror the first file). */
export type SnippetEdit = Partial<{ title: string; description: string; visibility: Visibility; fileName: string; content: string }> & { updatedAt: Date };

/** What a snippet list matches. */
export interface SnippetListFilter {
  /** Only the personal snippets (`projectId` null) or those of this project. */
  projectId: number | null;
  /** Only snippets of this author. */
  authorId?: number;
  /** Only these visibilities. */
  visibilities?: readonly Visibility[];
}

/** Merge-request and snippet additions of the REST resources. */
export interface ReviewRepository {
  /** The merge request with its merge facts, or null. */
  findMergeRequest(id: number): Promise<MergeRequestRecord | null>;
  /** Merge facts of each merge request, by id (unknown ids are absent). */
  mergeRequestsByIds(ids: readonly number[]): Promise<MergeRequestRecord[]>;
  /** One page of merge requests matching every filter, in `orderBy`/`sort` order, ties by id. */
  listMergeRequests(filter: MergeRequestListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<MergeRequestRecord>>;
  /** An open merge request of the project from `sourceBranch` into `targetBranch`, other than `exceptId`. */
  findOpenMergeRequest(projectId: number, sourceBranch: string, targetBranch: string, exceptId?: number): Promise<MergeRequestRecord | null>;
  /** Applies the edit; the updated record, or null for an unknown id. */
  updateMergeRequest(id: number, edit: MergeRequestEdit): Promise<MergeRequestRecord | null>;
  /**
   * Marks an open merge request merged by `mergeUserId` with `mergeCommitSha` at `now`. Only an
   * open one changes (compare-and-set on the state): null when the id is unknown or it is no longer open.
   */
  markMerged(id: number, merge: { mergeUserId: number; mergeCommitSha: string; now: Date }): Promise<MergeRequestRecord | null>;
  /** Replaces the labels on the merge request (empty removes them all). The labels must be the project's. */
  setMergeRequestLabels(mergeRequestId: number, labelIds: readonly number[]): Promise<void>;
  /** Label names of each merge request, by name (code-point order); ids without labels map to `[]`. */
  mergeRequestLabelNames(ids: readonly number[]): Promise<Map<number, string[]>>;
  /** Deletes the merge request with its notes and label links; `false` when the id is unknown. */
  removeMergeRequest(id: number): Promise<boolean>;

  /** The snippet with its description, or null. */
  findSnippet(id: number): Promise<SnippetRecord | null>;
  /** Sets a snippet's description (creation writes the row first). */
  setSnippetDescription(id: number, description: string): Promise<void>;
  /** Applies the edit; the updated record, or null for an unknown id. */
  updateSnippet(id: number, edit: SnippetEdit): Promise<SnippetRecord | null>;
  /** One page of snippets matching the filter, newest first (by id descending). */
  listSnippets(filter: SnippetListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<SnippetRecord>>;
  /** Deletes the snippet with its notes; `false` when the id is unknown. */
  removeSnippet(id: number): Promise<boolean>;
}
