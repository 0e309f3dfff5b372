/**
 * JSON shapes of the repository routes, field for field as the reference's entities
 * (`TreeObject`, `Commit`, `CommitDetail`, `Branch`, `Tag`, `Diff`, `Compare`). Branch and tag
 * protection comes from the project's protected refs, a tag's `release` from its release. A commit's
 * `last_pipeline` and `status` are those of the newest external pipeline its posted statuses made.
 */
import type { Project } from "../accounts/types.js";
import type { PipelineRecord } from "../ports/statuses-store.js";
import { pipelineBasicEntity } from "../statuses/entities.js";
import type { DiffStats, FileDiff } from "./git/diffs.js";
import type { CommitInfo, RefInfo, TreeEntry } from "./git/reads.js";

const projectUrl = (baseUrl: string, project: Project) => `${baseUrl.replace(/\/$/, "")}/${project.fullPath}`;
const refPath = (name: string) => name.split("/").map(encodeURIComponent).join("/");

/** `TreeObject`. */
export const treeEntity = (e: TreeEntry) => ({ id: e.id, name: e.name, type: e.type, path: e.path, mode: e.mode });

/** `Commit`. */
export function commitEntity(baseUrl: string, project: Project, c: CommitInfo) {
  const title = c.message.split("\n", 1)[0] ?? "";
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: c.parentIds,
    title,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers: {},
    extended_trailers: {},
    web_url: `${projectUrl(baseUrl, project)}/-/commit/${c.id}`,
  };
}

/** `CommitDetail`: the commit plus stats, status, project and pipeline. */
export function commitDetailEntity(baseUrl: string, project: Project, c: CommitInfo, stats: DiffStats | null, pipeline: PipelineRecord | null) {
  return { ...commitEntity(baseUrl, project, c), ...(stats === null ? {} : { stats }), status: pipeline?.status ?? null, project_id: project.id, last_pipeline: pipeline === null ? null : pipelineBasicEntity(baseUrl, project, pipeline) };
}

/** What a branch's protection and the viewer's rights make of its entity. */
export interface BranchFlags {
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  /** The viewer may push to it (reference `can_push_to_branch?`). */
  canPush: boolean;
}

/** `Branch`. */
export function branchEntity(baseUrl: string, project: Project, ref: RefInfo, commit: CommitInfo | null, merged: boolean, flags: BranchFlags) {
  return {
    name: ref.name,
    commit: commit === null ? null : commitEntity(baseUrl, project, commit),
    merged,
    protected: flags.protected,
    developers_can_push: flags.developersCanPush,
    developers_can_merge: flags.developersCanMerge,
    can_push: flags.canPush,
    default: project.defaultBranch === ref.name,
    web_url: `${projectUrl(baseUrl, project)}/-/tree/${refPath(ref.name)}`,
  };
}

/** What a tag shows of its release (reference `TagRelease`). */
export interface TagRelease {
  tagName: string;
  description: string;
}

/** `Tag`; `release` is the tag's release, null when it has none; `isProtected` from the protected tag rules. */
export function tagEntity(baseUrl: string, project: Project, ref: RefInfo, commit: CommitInfo | null, release: TagRelease | null, isProtected: boolean) {
  return {
    name: ref.name,
    message: ref.message,
    target: ref.target,
    commit: commit === null ? null : commitEntity(baseUrl, project, commit),
    release: release === null ? null : { tag_name: release.tagName, description: release.description },
    protected: isProtected,
    created_at: ref.taggedDate,
  };
}

/** `Diff`. */
export function diffEntity(d: FileDiff) {
  return {
    diff: d.diff,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: false,
    too_large: d.tooLarge,
  };
}
