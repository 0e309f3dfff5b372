/**
 * Repository writes over REST (reference `Commits::CreateService`, `Branches::CreateService`,
 * `Tags::CreateService`, their delete services): each changes one ref with a compare-and-set, then
 * records the push event the same change over git would have recorded, and makes the first branch
 * of an empty repository its `HEAD` and the project's default branch (protected as the instance's
 * `default_branch_protection` says). Protected branches and tags apply as in the reference: pushing
 * into a protected branch needs its push access (403), deleting one needs Maintainer (405), a
 * protected tag is created only at its create level (400) and deleted only by Maintainers (403).
 */
import { err, ok, type Result } from "neverthrow";
import type { Project, User } from "../accounts/types.js";
import { AccessLevel } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import { mayWriteFirstBranch, PROTECTED_MESSAGES, protectDefaultBranch, refAccess, type RefAccess } from "../protected-refs/index.js";
import type { RepositoryApiDeps } from "./context.js";
import { hasBranches, listRefs, lastCommitFor, resolveCommit } from "./git/reads.js";
import type { GitRepo } from "./git/repo.js";
import { compareAndSetRef, createCommit, deleteRef, setHead, validRefName, writeTagObject, type CommitAction, type CommitRefusal, type Signature } from "./git/writes.js";

const bad = (message: string) => errors.badRequestMessage(message);

/** The tip of branch `name`, or null. */
export async function branchTip(repo: GitRepo, name: string): Promise<string | null> {
  const [ref] = await listRefs(repo, "branch", [name]);
  return ref?.commitId ?? null;
}

async function signatureOf(deps: RepositoryApiDeps, user: User, now: Date): Promise<Signature> {
  const emails = await deps.config.store.emails.listByUser(user.id);
  const email = (emails.find((e) => e.primary) ?? emails[0])?.email ?? `${user.username}@users.noreply`;
  return { name: user.name, email, date: now };
}

/** After a branch appeared: the first branch of an empty repository becomes HEAD and the default, protected as the instance says. */
async function adoptFirstBranch(deps: RepositoryApiDeps, repo: GitRepo, project: Project, hadBranches: boolean, branch: string): Promise<void> {
  if (hadBranches) return;
  await setHead(repo, branch);
  const { store, clock, defaultBranchProtection } = deps.config;
  await store.projects.update(project.id, { defaultBranch: branch, repositoryEmpty: false });
  await protectDefaultBranch(store, defaultBranchProtection, project.id, branch, clock.now());
}

/** The project's protection rules as they apply to `user`. */
export function refAccessOf(deps: RepositoryApiDeps, project: Project, user: User | null): Promise<RefAccess> {
  return refAccess(deps.config.store, project, user, deps.config.clock.now());
}

/** Maintainers and administrators may delete protected branches and tags outside git (reference `push_to_delete_protected_branch`). */
const maintains = (access: RefAccess, user: User) => user.admin || access.level >= AccessLevel.Maintainer;

async function recordPush(deps: RepositoryApiDeps, input: { project: Project; user: User; ref: string; refType: "branch" | "tag"; from: string | null; to: string | null; count: number; title: string | null }): Promise<void> {
  const recorded = await deps.pushes.record({ projectId: input.project.id, authorId: input.user.id, ref: input.ref, refType: input.refType, commitFrom: input.from, commitTo: input.to, commitCount: input.count, commitTitle: input.title });
  if (recorded.isErr()) deps.config.logger.log("error", "repository_api.push_event_failed", { projectId: input.project.id, code: recorded.error.code });
}

/** What {@link commitChanges} commits. */
export interface CommitChangesInput {
  branch: string;
  startBranch?: string | undefined;
  startSha?: string | undefined;
  message: string;
  actions: CommitAction[];
  authorName?: string | undefined;
  authorEmail?: string | undefined;
  /** Overwrite an existing `branch` with a commit on `startBranch` / `startSha`. */
  force?: boolean;
}

function refusalMessage(r: CommitRefusal): string {
  switch (r.reason) {
    case "file_exists":
      return "A file with this name already exists";
    case "file_missing":
      return "A file with this name doesn't exist";
    case "file_changed":
      return "You are attempting to update a file that has changed since you started editing it.";
    case "not_a_file":
      return `A file or directory is in the way at ${JSON.stringify(r.path)}`;
    case "branch_moved":
      return "The branch changed while the commit was made. Please try again.";
  }
}

/** Commits `actions` on `branch` (created from `startBranch` / `startSha` when missing); resolves the new commit id. */
export async function commitChanges(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User, input: CommitChangesInput): Promise<Result<string, ForgekitError>> {
  if (!validRefName("branch", input.branch)) return err(bad("Branch name is invalid"));
  const access = await refAccessOf(deps, project, user);
  if (!(await access.canPush(input.branch))) return err(errors.forbidden(PROTECTED_MESSAGES.pushIntoBranch));
  const tip = await branchTip(repo, input.branch);
  // The branch itself is a branch: only a missing one needs the question asked of git.
  const hadBranches = tip !== null || (await hasBranches(repo));
  if (!hadBranches && !(await mayWriteFirstBranch(deps.config.store, deps.config.defaultBranchProtection, access, user))) return err(errors.forbidden(PROTECTED_MESSAGES.pushIntoBranch));
  let parent: string | null = tip;
  if (input.startBranch !== undefined && input.startSha !== undefined) return err(errors.invalidParam("start_branch, start_sha", "are mutually exclusive"));
  if (tip === null || input.force === true) {
    if (input.startSha !== undefined) {
      parent = await resolveCommit(repo, input.startSha);
      if (parent === null) return err(bad(`Cannot find start_sha '${input.startSha}'`));
    } else if (input.startBranch !== undefined) {
      parent = await branchTip(repo, input.startBranch);
      if (parent === null) return err(bad(`Cannot find start_branch '${input.startBranch}'`));
    } else if (tip === null && hadBranches) {
      return err(bad("You can only create or edit files when you are on a branch"));
    }
  } else if (input.startBranch !== undefined && input.startBranch !== input.branch) {
    return err(bad(`A branch called '${input.branch}' already exists. Switch to that branch in order to make changes`));
  }
  const now = deps.config.clock.now();
  const committer = await signatureOf(deps, user, now);
  const author = { name: input.authorName ?? committer.name, email: input.authorEmail ?? committer.email, date: now };
  const made = await createCommit(repo, { parent, actions: input.actions, message: input.message, author, committer }, (path) => (parent === null ? Promise.resolve(null) : lastCommitFor(repo, parent, path)));
  if (!("commit" in made)) return err(bad(refusalMessage(made)));
  if (!(await compareAndSetRef(repo, `refs/heads/${input.branch}`, made.commit, tip))) return err(bad(refusalMessage({ reason: "branch_moved" })));
  await adoptFirstBranch(deps, repo, project, hadBranches, input.branch);
  await recordPush(deps, { project, user, ref: input.branch, refType: "branch", from: tip, to: made.commit, count: 1, title: input.message.split("\n", 1)[0] ?? null });
  return ok(made.commit);
}

/** `POST /repository/branches`: resolves the new branch's commit id. */
export async function createBranch(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User, name: string, ref: string): Promise<Result<string, ForgekitError>> {
  if (!validRefName("branch", name)) return err(bad("Branch name is invalid"));
  if ((await branchTip(repo, name)) !== null) return err(bad("Branch already exists"));
  const target = await resolveCommit(repo, ref);
  if (target === null) return err(bad(`Invalid reference name: ${ref}`));
  const hadBranches = await hasBranches(repo);
  if (!(await compareAndSetRef(repo, `refs/heads/${name}`, target, null))) return err(bad("Branch already exists"));
  await adoptFirstBranch(deps, repo, project, hadBranches, name);
  await recordPush(deps, { project, user, ref: name, refType: "branch", from: null, to: target, count: 0, title: null });
  return ok(target);
}

/** `DELETE /repository/branches/:branch`. */
export async function deleteBranch(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User, name: string): Promise<Result<void, ForgekitError>> {
  const tip = await branchTip(repo, name);
  if (tip === null) return err(errors.notFound("Branch"));
  if (project.defaultBranch === name) return err(errors.notAllowedError(PROTECTED_MESSAGES.deleteDefaultBranch));
  const access = await refAccessOf(deps, project, user);
  // Reference `Branches::DeleteService`: 405 when `can_delete_branch?` says no.
  if (access.isProtected("branch", name) && !maintains(access, user)) return err(errors.notAllowedError("You dont have access to delete the branch"));
  if (!(await deleteRef(repo, `refs/heads/${name}`, tip))) return err(bad("Failed to remove branch: it changed meanwhile"));
  await recordPush(deps, { project, user, ref: name, refType: "branch", from: tip, to: null, count: 0, title: null });
  return ok(undefined);
}

/** `POST /repository/tags` (annotated when `message` is given). */
export async function createTag(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User, input: { name: string; ref: string; message?: string | undefined }): Promise<Result<void, ForgekitError>> {
  if (!validRefName("tag", input.name)) return err(bad("Tag name invalid"));
  if ((await listRefs(repo, "tag", [input.name])).length > 0) return err(bad(`Tag ${input.name} already exists`));
  if (!(await (await refAccessOf(deps, project, user)).canCreateTag(input.name))) return err(bad(PROTECTED_MESSAGES.createProtectedTag));
  const target = await resolveCommit(repo, input.ref);
  if (target === null) return err(bad(`Target ${input.ref} is invalid`));
  const message = input.message?.trim() ?? "";
  const object = message === "" ? target : await writeTagObject(repo, input.name, target, message, await signatureOf(deps, user, deps.config.clock.now()));
  if (!(await compareAndSetRef(repo, `refs/tags/${input.name}`, object, null))) return err(bad(`Tag ${input.name} already exists`));
  await recordPush(deps, { project, user, ref: input.name, refType: "tag", from: null, to: target, count: 1, title: null });
  return ok(undefined);
}

/** `DELETE /repository/tags/:tag_name`. */
export async function deleteTag(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User, name: string): Promise<Result<void, ForgekitError>> {
  const [tag] = await listRefs(repo, "tag", [name]);
  if (tag === undefined) return err(errors.notFound("Tag"));
  const access = await refAccessOf(deps, project, user);
  if (access.isProtected("tag", name) && !maintains(access, user)) return err(errors.forbidden(PROTECTED_MESSAGES.deleteProtectedTag));
  if (!(await deleteRef(repo, `refs/tags/${name}`, tag.target))) return err(bad("Failed to remove tag: it changed meanwhile"));
  await recordPush(deps, { project, user, ref: name, refType: "tag", from: tag.commitId ?? tag.target, to: null, count: 0, title: null });
  return ok(undefined);
}

/**
 * `DELETE /repository/merged_branches`: removes every branch merged into the default branch (its
 * tip is an ancestor of the default branch's), the default branch excepted; resolves the names.
 * The reference queues this and answers 202; forgekit does it before answering.
 */
export async function deleteMergedBranches(deps: RepositoryApiDeps, repo: GitRepo, project: Project, user: User): Promise<string[]> {
  if (project.defaultBranch === null) return [];
  const r = await repo.run(["for-each-ref", "--format=%(refname)%00%(objectname)", `--merged=refs/heads/${project.defaultBranch}`, "refs/heads/"]);
  if (r.code !== 0) return [];
  const deleted: string[] = [];
  // Reference `DeleteMergedBranchesService`: protected branches stay.
  const access = await refAccessOf(deps, project, user);
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const [ref, tip] = line.split("\0");
    if (ref === undefined || tip === undefined || !ref.startsWith("refs/heads/")) continue;
    const name = ref.slice("refs/heads/".length);
    if (name === project.defaultBranch || access.isProtected("branch", name) || !(await deleteRef(repo, ref, tip))) continue;
    await recordPush(deps, { project, user, ref: name, refType: "branch", from: tip, to: null, count: 0, title: null });
    deleted.push(name);
  }
  return deleted;
}
