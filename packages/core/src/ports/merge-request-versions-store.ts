/**
 * Storage port of merge-request versions (DESIGN §5; reference `MergeRequestDiff`): one row per
 * distinct head commit a merge request's source branch has had, recorded when it is opened and
 * whenever its source branch moves. The rows hold only the three commits; the commits and diffs
 * of a version are read from git. Reached as `Store.mergeRequestVersions`; rows go with their
 * merge request.
 */

/** One version of a merge request. */
export interface MergeRequestVersionRecord {
  id: number;
  mergeRequestId: number;
  /** The source branch's tip. */
  headSha: string;
  /** The merge base of the source tip and the target tip. */
  baseSha: string;
  /** The target branch's tip when the version was recorded. */
  startSha: string;
  createdAt: Date;
}

/** What {@link MergeRequestVersionRepository.record} writes. */
export type NewMergeRequestVersion = Omit<MergeRequestVersionRecord, "id" | "createdAt">;

/** The versions of merge requests. */
export interface MergeRequestVersionRepository {
  /**
   * Records a version unless the merge request already has one with this head commit (unique per
   * merge request and head: of racing callers one writes, the others get that row). Returns the
   * version of that head, new or existing; null when the merge request does not exist.
   */
  record(input: NewMergeRequestVersion, now: Date): Promise<MergeRequestVersionRecord | null>;
  /** The merge request's versions, newest first (by id). */
  list(mergeRequestId: number): Promise<MergeRequestVersionRecord[]>;
  /** One version of the merge request, or null (also when it belongs to another merge request). */
  find(mergeRequestId: number, versionId: number): Promise<MergeRequestVersionRecord | null>;
}
