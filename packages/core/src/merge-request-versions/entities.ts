/**
 * JSON shapes of merge-request versions (reference `API::Entities::MergeRequestDiff` and
 * `MergeRequestDiffFull`). Only the three commits are stored; `real_size` and `patch_id_sha` are
 * read from git for each rendering, the full version's commits and diffs too.
 */
import type { Project } from "../accounts/types.js";
import { iso } from "../accounts/entities/time.js";
import type { MergeRequestVersionRecord } from "../ports/merge-request-versions-store.js";
import type { FileDiff } from "../repository-api/git/diffs.js";
import type { CommitInfo } from "../repository-api/git/reads.js";
import { commitEntity, diffEntity } from "../repository-api/entities.js";

/** What git says about one version. */
export interface VersionFacts {
  /** Files changed from base to head, as a string (reference); null when unknown. */
  realSize: string | null;
  /** `git patch-id --stable` of the base..head diff; null for an empty diff. */
  patchIdSha: string | null;
}

/** `MergeRequestDiff`. */
export function versionEntity(v: MergeRequestVersionRecord, facts: VersionFacts) {
  return {
    id: v.id,
    head_commit_sha: v.headSha,
    base_commit_sha: v.baseSha,
    start_commit_sha: v.startSha,
    created_at: iso(v.createdAt),
    merge_request_id: v.mergeRequestId,
    // The diff of every version is read from git on demand, so it is always complete.
    state: "collected",
    real_size: facts.realSize,
    patch_id_sha: facts.patchIdSha,
  };
}

/** A diff in unified format (`unidiff=true`): git's `---` / `+++` header before the hunks. */
export function unidiffEntity(d: FileDiff) {
  const entity = diffEntity(d);
  if (d.diff === "") return entity;
  const from = d.newFile ? "/dev/null" : `a/${d.oldPath}`;
  const to = d.deletedFile ? "/dev/null" : `b/${d.newPath}`;
  return { ...entity, diff: `--- ${from}\n+++ ${to}\n${d.diff}` };
}

/** `MergeRequestDiffFull`: the version with its commits (newest first) and diffs. */
export function versionFullEntity(baseUrl: string, project: Project, v: MergeRequestVersionRecord, facts: VersionFacts, commits: readonly CommitInfo[], diffs: readonly FileDiff[], unidiff: boolean) {
  return {
    ...versionEntity(v, facts),
    commits: commits.map((c) => commitEntity(baseUrl, project, c)),
    diffs: diffs.map(unidiff ? unidiffEntity : diffEntity),
  };
}
