/**
 * After a successful receive-pack: what changed, as the spec's push events (issue 9 §2), and the
 * project's default branch when the push brought the first branch (reference `GitPushService`:
 * the first branch pushed into an empty repository becomes `HEAD` and the default branch, and its
 * whole history counts as pushed; a new branch beside it counts the commits the default branch
 * does not have; a tag counts its commit).
 */
import type { Project, User } from "../accounts/types.js";
import type { PushesService, RecordPushInput } from "../activity/pushes.js";
import type { Logger } from "../ports/runtime.js";
import type { Store } from "../ports/store.js";
import { runGit, type GitCommandOptions } from "../repositories/git-command.js";
import type { RefCommand } from "./pkt-line.js";

/** ref name → object id. */
export type RefsSnapshot = Map<string, string>;

/** Every ref of the repository (`git for-each-ref`). */
export async function refsSnapshot(git: GitCommandOptions, directory: string): Promise<RefsSnapshot> {
  const out = await runGit(git, [`--git-dir=${directory}`, "for-each-ref", "--format=%(objectname) %(refname)"]);
  const refs: RefsSnapshot = new Map();
  for (const line of out.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

/** What {@link recordPushEvents} needs. */
export interface PushContext {
  git: GitCommandOptions;
  directory: string;
  project: Project;
  user: User;
  /** Refs before receive-pack ran. */
  before: RefsSnapshot;
  /** The updates the client asked for (null: unknown, every changed ref counts). */
  commands: RefCommand[] | null;
  store: Store;
  pushes: PushesService;
  logger: Logger;
  /** Called once the push made `branch` the default branch of an empty repository (default-branch protection). */
  adopted?: ((branch: string) => Promise<void>) | undefined;
}

const BRANCH = "refs/heads/";
const TAG = "refs/tags/";

/** One changed branch or tag. */
interface RefChange {
  ref: string;
  name: string;
  refType: "branch" | "tag";
  from: string | null;
  to: string | null;
}

/**
 * The branch and tag changes between the snapshots. With the client's command list, only refs it
 * named count, so a concurrent push by someone else is not put on this user.
 */
export function refChanges(before: RefsSnapshot, after: RefsSnapshot, commands: RefCommand[] | null): RefChange[] {
  const named = commands === null ? null : commands.map((c) => c.ref);
  const refs = named ?? [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: RefChange[] = [];
  for (const ref of new Set(refs)) {
    const from = before.get(ref) ?? null;
    const to = after.get(ref) ?? null;
    if (from === to) continue;
    if (ref.startsWith(BRANCH)) changes.push({ ref, name: ref.slice(BRANCH.length), refType: "branch", from, to });
    else if (ref.startsWith(TAG)) changes.push({ ref, name: ref.slice(TAG.length), refType: "tag", from, to });
  }
  return changes;
}

/** Records the push's events and sets the default branch of a repository that had no branch. */
export async function recordPushEvents(ctx: PushContext): Promise<void> {
  const after = await refsSnapshot(ctx.git, ctx.directory);
  // Reference `empty_repo`: a repository without branches. Kept here, so rendering a project never asks git.
  const empty = ![...after.keys()].some((ref) => ref.startsWith(BRANCH));
  if (ctx.project.repositoryEmpty !== empty) await ctx.store.projects.update(ctx.project.id, { repositoryEmpty: empty });
  const changes = refChanges(ctx.before, after, ctx.commands);
  if (changes.length === 0) return;
  const hadBranches = [...ctx.before.keys()].some((ref) => ref.startsWith(BRANCH));
  const createdBranches = changes.filter((c) => c.refType === "branch" && c.from === null && c.to !== null);
  let defaultBranch = ctx.project.defaultBranch !== null && after.has(BRANCH + ctx.project.defaultBranch) ? ctx.project.defaultBranch : null;
  if (!hadBranches && createdBranches.length > 0) defaultBranch = await adoptDefaultBranch(ctx, createdBranches);
  for (const change of changes) {
    const input: RecordPushInput = {
      projectId: ctx.project.id,
      authorId: ctx.user.id,
      ref: change.name,
      refType: change.refType,
      commitFrom: change.from,
      commitTo: change.to,
      ...(await commitsOf(ctx, change, defaultBranch)),
    };
    const recorded = await ctx.pushes.record(input);
    if (recorded.isErr()) ctx.logger.log("error", "git_http.push_event_failed", { projectId: ctx.project.id, ref: change.ref, code: recorded.error.code });
  }
}

/**
 * The first branch of an empty repository becomes `HEAD` and the project's default branch: the
 * branch `HEAD` already names (`main` for new projects) when it was pushed, else the first pushed.
 */
async function adoptDefaultBranch(ctx: PushContext, created: RefChange[]): Promise<string> {
  const head = (await runGit(ctx.git, [`--git-dir=${ctx.directory}`, "symbolic-ref", "--quiet", "HEAD"]).catch(() => "")).trim();
  const chosen = created.find((c) => c.ref === head) ?? created[0];
  const name = (chosen as RefChange).name;
  if (head !== BRANCH + name) await runGit(ctx.git, [`--git-dir=${ctx.directory}`, "symbolic-ref", "HEAD", BRANCH + name]);
  if (ctx.project.defaultBranch !== name) await ctx.store.projects.update(ctx.project.id, { defaultBranch: name });
  await ctx.adopted?.(name);
  return name;
}

/** Commit count and title of one change (0 and none for a deletion). */
async function commitsOf(ctx: PushContext, change: RefChange, defaultBranch: string | null): Promise<Pick<RecordPushInput, "commitCount" | "commitTitle">> {
  if (change.to === null) return { commitCount: 0, commitTitle: null };
  const git = (args: string[]) => runGit(ctx.git, [`--git-dir=${ctx.directory}`, ...args]);
  try {
    const title = (await git(["log", "-1", "--format=%s", change.to])).replace(/\n$/, "");
    if (change.refType === "tag") return { commitCount: 1, commitTitle: title };
    let range: string[];
    if (change.from !== null) range = [`${change.from}..${change.to}`];
    else if (defaultBranch !== null && defaultBranch !== change.name) range = [change.to, `^${BRANCH}${defaultBranch}`];
    else range = [change.to];
    const count = Number.parseInt((await git(["rev-list", "--count", ...range, "--"])).trim(), 10);
    return { commitCount: Number.isSafeInteger(count) ? count : 0, commitTitle: title };
  } catch (error) {
    // A tag on a tree or blob has no commit: the event is still recorded.
    ctx.logger.log("warn", "git_http.push_commits_unknown", { ref: change.ref, message: error instanceof Error ? error.message : String(error) });
    return { commitCount: 0, commitTitle: null };
  }
}
