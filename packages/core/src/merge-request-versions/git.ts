/** What a version's entity reads from git: its size, patch id, commits and diffs (base..head). */
import type { MergeRequestVersionRecord } from "../ports/merge-request-versions-store.js";
import { diffCommits, type FileDiff } from "../repository-api/git/diffs.js";
import { listCommits, type CommitInfo } from "../repository-api/git/reads.js";
import { OBJECT_ID, type GitRepo } from "../repository-api/git/repo.js";
import type { VersionFacts } from "./entities.js";

/** Commits a version lists at most (the reference caps a diff's commits too). */
const MAX_COMMITS = 10_000;

/** `real_size` and `patch_id_sha` of a version (both null when the repository lacks its commits). */
export async function versionFacts(repo: GitRepo | null, v: MergeRequestVersionRecord): Promise<VersionFacts> {
  if (repo === null) return { realSize: null, patchIdSha: null };
  const names = await repo.run(["diff", "--name-only", "-z", "--no-renames", "--end-of-options", v.baseSha, v.headSha]);
  if (names.code !== 0) return { realSize: null, patchIdSha: null };
  const realSize = String(names.stdout.toString("utf8").split("\0").filter((s) => s !== "").length);
  const patch = await repo.run(["diff", "--no-color", "--no-ext-diff", "--full-index", "--end-of-options", v.baseSha, v.headSha]);
  if (patch.code !== 0 || patch.tooLarge || patch.stdout.length === 0) return { realSize, patchIdSha: null };
  const id = await repo.run(["patch-id", "--stable"], { input: patch.stdout });
  const first = id.stdout.toString("utf8").split(" ", 1)[0]?.trim() ?? "";
  return { realSize, patchIdSha: id.code === 0 && OBJECT_ID.test(first) ? first : null };
}

/** The version's commits (newest first) and its diffs; empty when the repository lacks them. */
export async function versionContents(repo: GitRepo | null, v: MergeRequestVersionRecord): Promise<{ commits: CommitInfo[]; diffs: FileDiff[] }> {
  if (repo === null || (await repo.run(["cat-file", "-e", `${v.headSha}^{commit}`])).code !== 0) return { commits: [], diffs: [] };
  const commits = await listCommits(repo, { from: [v.headSha], exclude: [v.baseSha], limit: MAX_COMMITS });
  return { commits, diffs: await diffCommits(repo, v.baseSha, v.headSha) };
}
