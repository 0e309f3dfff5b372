/**
 * Pull-request review comments as diff notes (reference `Gitlab::GithubImport::Representation::DiffNote`
 * and `DiffNoteImporter`): each becomes a `DiffNote` on the merge request whose position has the
 * merge request's diff refs, the comment's `path` as both paths, and its line on the side it was
 * made (`RIGHT`: `new_line`, `LEFT`: `old_line`); `line` when the comment is current, else
 * `original_line`. A reply (`in_reply_to_id`) joins the discussion of the comment it answers.
 */
import { tmpdir } from "node:os";
import type { DiffPosition } from "../../activity/types.js";
import { newDiscussionId } from "../../activity/note-fields.js";
import { branchCommit, mergeBase } from "../../merge-requests-api/git-merge.js";
import type { NewNote } from "../../ports/activity-store.js";
import type { TransactionStore } from "../../ports/store.js";
import { gitRepo, OBJECT_ID, type GitRepo } from "../../repository-api/git/repo.js";
import type { ImportRun } from "../run-kit.js";
import type { ExtForgeReviewComment } from "./types.js";

/** A merge request's diff refs (any may be unknown). */
interface DiffRefs {
  baseSha: string | null;
  startSha: string | null;
  headSha: string | null;
}

async function revParse(repo: GitRepo, ref: string): Promise<string | null> {
  const r = await repo.run(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]);
  const id = r.stdout.toString("utf8").trim();
  return r.code === 0 && OBJECT_ID.test(id) ? id : null;
}

/**
 * The diff refs of imported merge requests, read once each from the mirrored repository: head the
 * pull request's head (`refs/merge-requests/<n>/head`, fetched with the repository; else the
 * comment's commit), start the
 * target branch's tip, base their merge base. Unknown (null) when the repository lacks them.
 */
export function diffRefsReader(run: ImportRun): (iid: number, targetBranch: string, commentCommit: string) => Promise<DiffRefs> {
  const cache = new Map<number, Promise<DiffRefs>>();
  const storage = run.config.repositoryStorage;
  const repo = storage.localPath === undefined ? null : gitRepo(storage.localPath(run.project.repositoryStorage, { kind: "project", id: run.project.id }), { home: tmpdir() });
  const read = async (iid: number, targetBranch: string, commentCommit: string): Promise<DiffRefs> => {
    if (repo === null) return { baseSha: null, startSha: null, headSha: null };
    const [pullHead, start] = await Promise.all([revParse(repo, `refs/merge-requests/${iid}/head`), branchCommit(repo, targetBranch)]);
    // A forge that publishes no pull-request heads: the commit the comment is on.
    const head = pullHead ?? (OBJECT_ID.test(commentCommit) ? await revParse(repo, commentCommit) : null);
    const base = head === null || start === null ? null : await mergeBase(repo, start, head);
    return { baseSha: base ?? start, startSha: start, headSha: head };
  };
  return (iid, targetBranch, commentCommit) => {
    const known = cache.get(iid) ?? read(iid, targetBranch, commentCommit);
    cache.set(iid, known);
    return known;
  };
}

/** The position of a review comment on a merge request with `refs` (head: the comment's commit when the repository has no head). */
export function reviewPosition(c: ExtForgeReviewComment, refs: DiffRefs): DiffPosition {
  const line = c.line ?? c.originalLine;
  const right = c.side !== "LEFT";
  return {
    baseSha: refs.baseSha,
    startSha: refs.startSha,
    headSha: refs.headSha ?? c.commitId,
    positionType: "text",
    oldPath: c.path,
    newPath: c.path,
    oldLine: right ? null : line,
    newLine: right ? line : null,
    lineRange: null,
  };
}

/** The discussion a review comment joins: its root comment's, or a new one. */
export async function reviewDiscussionId(run: ImportRun, tx: TransactionStore, c: ExtForgeReviewComment): Promise<string> {
  if (c.inReplyTo !== null) {
    const key = `review:${c.inReplyTo}`;
    const root = (await tx.imports.externalIds.find(run.projectId, "note", [key])).get(key);
    const note = root === undefined ? null : await tx.activity.notes.findById(root);
    if (note !== null) return note.discussionId;
  }
  return newDiscussionId(run.config.random);
}

/** The discussion fields of a review comment's note. */
export async function reviewNoteFields(run: ImportRun, tx: TransactionStore, c: ExtForgeReviewComment, refs: DiffRefs): Promise<Pick<NewNote, "discussionId" | "type" | "position" | "commitId">> {
  return { discussionId: await reviewDiscussionId(run, tx, c), type: "DiffNote", position: reviewPosition(c, refs), commitId: c.originalCommitId ?? c.commitId };
}
