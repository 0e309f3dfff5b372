/**
 * Push and tag push payloads (reference `Gitlab::DataBuilder::Push.build`, doc "Webhook events" →
 * Push events / Tag events): the ref change, the pusher, the project and repository blocks, and the
 * newest 20 commits of the push (read from the repository: message, title, timestamp, author,
 * added / modified / removed paths) with `total_commits_count`.
 */
import type { Namespace, Project, User } from "../../accounts/types.js";
import { listCommits, type CommitInfo, type GitRepo } from "../../repository-api/index.js";
import { projectBlock, repositoryBlock } from "./project.js";

/** The ref change a push made (the stored push event's data). */
export interface PushChange {
  refType: "branch" | "tag";
  /** Without `refs/heads/` or `refs/tags/`. */
  ref: string;
  /** Null when the ref was created. */
  commitFrom: string | null;
  /** Null when the ref was removed. */
  commitTo: string | null;
  commitCount: number;
}

/** At most this many commits in a payload (reference doc: "the newest 20 commits only"). */
export const PAYLOAD_COMMITS = 20;
const ZERO = "0".repeat(40);

/** Added, modified and removed paths of one commit (against its first parent). */
async function changedPaths(repo: GitRepo, commit: string) {
  const out = (await repo.must(["diff-tree", "--no-commit-id", "--name-status", "-r", "-z", "--root", "--no-renames", "--end-of-options", commit])).toString("utf8");
  const fields = out.split("\0").filter((f) => f !== "");
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i];
    const path = fields[i + 1] as string;
    if (status === "A") added.push(path);
    else if (status === "D") removed.push(path);
    else modified.push(path);
  }
  return { added, modified, removed };
}

const title = (message: string) => message.split("\n", 1)[0] ?? "";

async function commitBlock(repo: GitRepo, web: string, commit: CommitInfo) {
  return {
    id: commit.id,
    message: commit.message,
    title: title(commit.message),
    timestamp: commit.authoredDate,
    url: `${web}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: "[REDACTED]" },
    ...(await changedPaths(repo, commit.id)),
  };
}

/** The push or tag push payload; `repo` null (repository gone) lists no commits. */
export async function pushPayload(input: { baseUrl: string; project: Project; namespace: Namespace; user: User; change: PushChange; repo: GitRepo | null; refProtected: boolean }) {
  const { baseUrl, project, namespace, user, change, repo } = input;
  const kind = change.refType === "tag" ? "tag_push" : "push";
  const web = `${baseUrl}/${project.fullPath}`;
  let commits: Awaited<ReturnType<typeof commitBlock>>[] = [];
  let message: string | null = null;
  // A push a host recorded for commits its repository does not hold (`fk.pushes.record`) lists none.
  const present = repo !== null && change.commitTo !== null && (await repo.run(["cat-file", "-e", `${change.commitTo}^{commit}`])).code === 0;
  if (repo !== null && change.commitTo !== null && present) {
    if (change.refType === "branch") {
      const before = change.commitFrom !== null && (await repo.run(["cat-file", "-e", `${change.commitFrom}^{commit}`])).code === 0 ? [change.commitFrom] : [];
      const found = await listCommits(repo, { from: [change.commitTo], exclude: before, limit: PAYLOAD_COMMITS });
      // Reference: commits oldest first (the newest 20 of the push).
      commits = await Promise.all(found.reverse().map((c) => commitBlock(repo, web, c)));
    } else {
      // An annotated tag's message (reference `message` of tag pushes).
      const text = (await repo.run(["cat-file", "-p", `refs/tags/${change.ref}`])).stdout.toString("utf8");
      const split = text.indexOf("\n\n");
      if (text.startsWith("object ") && /\ntagger /.test(text) && split >= 0) message = text.slice(split + 2);
    }
  }
  return {
    object_kind: kind,
    event_name: kind,
    before: change.commitFrom ?? ZERO,
    after: change.commitTo ?? ZERO,
    ref: `${change.refType === "tag" ? "refs/tags/" : "refs/heads/"}${change.ref}`,
    ref_protected: input.refProtected,
    checkout_sha: change.commitTo,
    message,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: null,
    user_avatar: user.avatarUrl,
    project_id: project.id,
    project: projectBlock(baseUrl, project, namespace),
    commits,
    total_commits_count: change.refType === "tag" ? 0 : change.commitCount,
    push_options: {},
    repository: repositoryBlock(baseUrl, project),
  };
}
