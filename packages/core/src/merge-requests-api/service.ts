/**
 * Merge requests over REST (reference `lib/api/merge_requests.rb`, `MergeRequests::CreateService`,
 * `UpdateService`, `MergeService`): the checks in the reference's order, each write with its
 * system note and event in one transaction, and the merge itself on git plumbing (git-merge.ts).
 */
import { emptyMergeRequestExtras } from "../ports/merge-request-extras-store.js";
import { isoDate } from "../accounts/entities/time.js";
import type { Milestone } from "../activity/types.js";
import { closerId } from "../activity/issuable-facts.js";
import { err, ok, type Result } from "neverthrow";
import { tmpdir } from "node:os";
import { canAdminProject, hasProjectAccess } from "../access/permissions.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import { mergeRequestEvent } from "../activity/event-inputs.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent, recordEvent } from "../events/record.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { TransactionStore } from "../ports/store.js";
import { gitRepo, type GitRepo } from "../repository-api/git/repo.js";
import { compareAndSetRef } from "../repository-api/git/writes.js";
import { mergeRequestEntity, mergeRequestBasic, type MergeRequestView } from "./entities.js";
import { branchCommit, branchCommits, mergeBranches } from "./git-merge.js";
import { gitFacts, NO_GIT, type GitFacts } from "./git-facts.js";
import { closeIssuesOnMerge } from "./closing.js";
import { failedMergeCheck } from "./merge-checks.js";
import { approvalState } from "../approvals/index.js";
import { pipelineCoverage, usersOf } from "../statuses/index.js";
import { withLabelDetails } from "../labels/index.js";
import type { HookPayloadBuilder } from "../webhooks/fanout.js";
import { mergeRequestHook } from "../webhooks/payloads/issuable.js";

/** The project's repository when its storage has it on a local disk (else null). */
export async function openProjectRepo(config: ForgekitConfig, project: Project): Promise<GitRepo | null> {
  const storage = config.repositoryStorage;
  const ref = { kind: "project" as const, id: project.id };
  if (storage.localPath === undefined || !(await storage.exists(project.repositoryStorage, ref))) return null;
  return gitRepo(storage.localPath(project.repositoryStorage, ref), { home: tmpdir() });
}

/** Renders merge requests of one project (users, labels, extras and note counts read in batches). */
export async function renderMergeRequests(config: ForgekitConfig, project: Project, repo: GitRepo | null, mrs: readonly MergeRequestRecord[], detail: { viewer: User | null } | null, labelDetails = false): Promise<unknown[]> {
  const store = config.store;
  const extras = await store.mergeRequestExtras.extras(mrs.map((mr) => mr.id));
  const facts = new Map<number, GitFacts>();
  const heads = new Map<number, MergeRequestView["head"]>();
  for (const mr of mrs) {
    const found = await gitFacts(repo, mr);
    // Reference order of the mergeability checks: discussions and CI before conflicts, approvals after.
    const check = found.detailedMergeStatus === "mergeable" || found.detailedMergeStatus === "conflict" ? await failedMergeCheck(config, project, mr, found.sha) : null;
    const git: GitFacts = check === null ? found : { ...found, detailedMergeStatus: check };
    // Reference `detailed_merge_status` "not_approved": it would merge, but approvals are missing (premium rules).
    const approvals = git.detailedMergeStatus === "mergeable" ? await approvalState(config, project, mr) : null;
    facts.set(mr.id, approvals !== null && approvals.approvalsLeft > 0 ? { ...git, detailedMergeStatus: "not_approved" } : git);
    const pipeline = git.sha === null ? null : await store.statuses.newestPipeline(project.id, { sha: git.sha, ref: mr.sourceBranch });
    heads.set(mr.id, pipeline === null ? null : { pipeline, coverage: detail === null ? null : pipelineCoverage(await store.statuses.latestStatuses(pipeline.id)) });
  }
  const notes = new Map(await Promise.all(mrs.map(async (mr) => [mr.id, await store.activity.notes.listByNoteable("MergeRequest", mr.id)] as const)));
  const closers = new Map(mrs.map((mr) => [mr.id, closerId(mr.state, notes.get(mr.id) ?? [])]));
  const userIds = mrs.flatMap((mr) => {
    const e = extras.get(mr.id);
    return [mr.authorId, mr.mergeUserId, closers.get(mr.id) ?? null, e?.autoMerge?.userId ?? null, ...(e?.assigneeIds ?? []), ...(e?.reviewerIds ?? []), heads.get(mr.id)?.pipeline.userId ?? null];
  });
  const users = await usersOf((id) => store.users.findById(id), userIds);
  const labels = await store.reviews.mergeRequestLabelNames(mrs.map((mr) => mr.id));
  const canMerge = detail !== null && detail.viewer !== null && !project.repositoryReadOnly && (await hasProjectAccess(store, detail.viewer, project, AccessLevel.Developer, config.clock.now()));
  // Reference `first_contribution?`: the author has no merged merge request in the project (for a
  // merged one: none merged before it, as its metrics recorded at the merge).
  const firstMerged = new Map<number, number | null>();
  for (const authorId of new Set(mrs.map((mr) => mr.authorId))) {
    const merged = await store.reviews.listMergeRequests({ projectIds: [project.id], authorId, state: "merged", orderBy: "merged_at", sort: "asc" }, { kind: "offset", page: 1, perPage: 1 });
    firstMerged.set(authorId, merged.items[0]?.id ?? null);
  }
  // Reference `mergeable_discussions_state?`: unresolved discussions block only where the project requires them resolved.
  const blocked = new Set<number>();
  if (project.mergeChecks.discussionsMustBeResolved) for (const mr of mrs) if ((await store.discussions.countUnresolved("MergeRequest", mr.id)) > 0) blocked.add(mr.id);
  const milestones = new Map<number, Milestone>();
  for (const id of new Set([...extras.values()].map((e) => e.milestoneId).filter((m): m is number => m !== null))) {
    const milestone = await store.activity.milestones.findById(id);
    if (milestone !== null) milestones.set(id, milestone);
  }
  const out: unknown[] = [];
  for (const mr of mrs) {
    const view: MergeRequestView = {
      mr,
      project,
      users,
      labels: labels.get(mr.id) ?? [],
      userNotesCount: (notes.get(mr.id) ?? []).filter((n) => !n.system).length,
      closedById: closers.get(mr.id) ?? null,
      git: facts.get(mr.id) ?? NO_GIT,
      extras: extras.get(mr.id) ?? emptyMergeRequestExtras(),
      milestone: milestones.get(extras.get(mr.id)?.milestoneId ?? -1) ?? null,
      today: isoDate(config.clock.now()),
      firstContribution: mr.state === "merged" ? firstMerged.get(mr.authorId) === mr.id : (firstMerged.get(mr.authorId) ?? null) === null,
      blockingDiscussionsResolved: !blocked.has(mr.id),
      head: heads.get(mr.id) ?? null,
    };
    out.push(detail === null ? mergeRequestBasic(config.baseUrl, view) : mergeRequestEntity(config.baseUrl, view, canMerge));
  }
  return labelDetails ? withLabelDetails(store.imports.labels, "MergeRequest", out as { id: number }[]) : out;
}

/** Splits the reference's `labels` parameter: a comma-separated string or an array; names trimmed, blanks dropped. */
export function labelNames(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const parts = Array.isArray(value) ? value.flatMap((v) => (typeof v === "string" ? v.split(",") : [])) : typeof value === "string" ? value.split(",") : [];
  return [...new Set(parts.map((s) => s.trim()).filter((s) => s !== ""))];
}

/** Who may edit a merge request: its author, Developer+ of the project, administrators (reference `update_merge_request`). */
export async function canUpdate(config: ForgekitConfig, user: User, project: Project, mr: MergeRequestRecord): Promise<boolean> {
  if (mr.authorId === user.id) return true;
  return hasProjectAccess(config.store, user, project, AccessLevel.Developer, config.clock.now());
}

/** Who may delete one: Owners and administrators (reference `destroy_merge_request`). */
export function canDestroy(config: ForgekitConfig, user: User, project: Project): Promise<boolean> {
  return canAdminProject(config.store, user, project, config.clock.now());
}

/** What {@link mergeMergeRequest} was asked. */
export interface MergeRequestMergeInput {
  sha?: string | undefined;
  mergeCommitMessage?: string | undefined;
  shouldRemoveSourceBranch?: boolean | undefined;
  /** Squash the source commits (kept as the merge request's `squash`); without it, the merge request's own setting. */
  squash?: boolean | undefined;
  squashCommitMessage?: string | undefined;
}

/** How a user signs commits forgekit writes for them: their name and primary (else first, else a no-reply) e-mail. */
async function signatureOf(config: ForgekitConfig, user: User, date: Date): Promise<{ name: string; email: string; date: Date }> {
  const emails = await config.store.emails.listByUser(user.id);
  const email = (emails.find((e) => e.primary) ?? emails[0])?.email ?? `${user.username}@users.noreply.${new URL(config.baseUrl).hostname}`;
  return { name: user.name, email, date };
}

/** A refusal of the merge endpoint, rendered with the reference's status and body. */
export type MergeRefusal = { status: 405 | 406 | 409; message: string };

/** Reference default merge commit message (`MergeRequest#default_merge_commit_message`). */
export function defaultMergeMessage(project: Project, mr: MergeRequestRecord): string {
  const description = mr.description.trim() === "" ? "" : `\n\n${mr.description.trim()}`;
  return `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}${description}\n\nSee merge request ${project.fullPath}!${mr.iid}`;
}

/**
 * Merges an open merge request: the git merge first (it cannot join a database transaction), then
 * the row, the system note, the `merged` event and the target branch's push event in one
 * transaction. If that transaction fails the target branch is moved back (compare-and-set).
 */
export async function mergeMergeRequest(
  config: ForgekitConfig,
  repo: GitRepo,
  project: Project,
  user: User,
  mr: MergeRequestRecord,
  input: MergeRequestMergeInput,
): Promise<Result<MergeRequestRecord, ForgekitError | MergeRefusal>> {
  if (mr.state !== "opened") return err({ status: 405, message: "405 Method Not Allowed" });
  // Reference `MergeRequest#mergeable?` includes `approved?`: a merge request missing approvals is not mergeable (405).
  if ((await approvalState(config, project, mr)).approvalsLeft > 0) return err({ status: 405, message: "405 Method Not Allowed" });
  // Reference `mergeable?`: the project's merge checks (discussions resolved, pipeline succeeded) hold.
  if ((await failedMergeCheck(config, project, mr, await branchCommit(repo, mr.sourceBranch))) !== null) return err({ status: 405, message: "405 Method Not Allowed" });
  const now = config.clock.now();
  const message = input.mergeCommitMessage !== undefined && input.mergeCommitMessage.trim() !== "" ? input.mergeCommitMessage : defaultMergeMessage(project, mr);
  // Reference `MergeRequests::SquashService`: the squash commit is the merge request author's, its message the title unless given.
  const squash = input.squash ?? (await config.store.mergeRequestExtras.extras([mr.id])).get(mr.id)?.squash === true;
  const mrAuthor = squash ? await config.store.users.findById(mr.authorId) : null;
  const outcome = await mergeBranches(repo, {
    sourceBranch: mr.sourceBranch,
    targetBranch: mr.targetBranch,
    expectedSourceSha: input.sha,
    message,
    author: await signatureOf(config, user, now),
    removeSourceBranch: input.shouldRemoveSourceBranch === true,
    ...(squash
      ? { squash: { message: input.squashCommitMessage !== undefined && input.squashCommitMessage.trim() !== "" ? input.squashCommitMessage : mr.title, author: await signatureOf(config, mrAuthor ?? user, now) } }
      : {}),
  });
  switch (outcome.kind) {
    case "sha_mismatch":
      return err({ status: 409, message: `SHA does not match HEAD of source branch: ${outcome.sourceSha}` });
    case "missing_branch":
    case "conflict":
      return err({ status: 406, message: "Branch cannot be merged" });
    case "target_moved":
      return err({ status: 409, message: "The target branch changed while the merge was made. Please try again." });
    case "merged":
      break;
  }
  const title = message.split("\n", 1)[0] ?? "";
  // The target branch's push counts what it gained, as a git push of the same commits would: the source's commits and the merge commit.
  const counted = await repo.run(["rev-list", "--count", `${outcome.targetBefore}..${outcome.commit}`, "--"]);
  const parsed = counted.code === 0 ? Number.parseInt(counted.stdout.toString("utf8").trim(), 10) : Number.NaN;
  const commitCount = Number.isSafeInteger(parsed) ? parsed : 1;
  const written = await config.store
    .transaction(async (tx): Promise<Result<MergeRequestRecord, ForgekitError | MergeRefusal>> => {
      const merged = await tx.reviews.markMerged(mr.id, { mergeUserId: user.id, mergeCommitSha: outcome.commit, now });
      if (merged === null) throw new MergeRaced();
      if (input.squash !== undefined) await tx.mergeRequestExtras.setSquash(mr.id, input.squash);
      if (outcome.squashCommit !== null) await tx.mergeRequestExtras.setSquashCommitSha(mr.id, outcome.squashCommit);
      await tx.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: "merged", system: true }, now);
      // Reference `MergeRequests::MergeService` + `PostMergeService`: the merge hook's `changes` are the columns the merge wrote.
      const hook = mergeRequestHook(tx, mr.id, { baseUrl: config.baseUrl, actorId: user.id, action: "merged", before: mr });
      const event = await insertEvent(tx, mergeRequestEvent(merged, "merged", user.id), now, hook);
      if (event.isErr()) throw new EventRefused(event.error);
      const push = await recordEvent(tx, { projectId: project.id, authorId: user.id, action: "pushed", push: { commitCount, action: "pushed", refType: "branch", commitFrom: outcome.targetBefore, commitTo: outcome.commit, ref: mr.targetBranch, commitTitle: title.slice(0, 70) } }, now);
      if (push.isErr()) throw new EventRefused(push.error);
      if (outcome.sourceRemoved) {
        const removed = await recordEvent(tx, { projectId: project.id, authorId: user.id, action: "pushed", push: { commitCount: 0, action: "removed", refType: "branch", commitFrom: outcome.sourceSha, commitTo: null, ref: mr.sourceBranch, commitTitle: null } }, now);
        if (removed.isErr()) throw new EventRefused(removed.error);
      }
      return ok(merged);
    })
    .catch(async (cause: unknown): Promise<Result<MergeRequestRecord, ForgekitError | MergeRefusal>> => {
      // The rows did not commit: put the branches back where the merge found them.
      await compareAndSetRef(repo, `refs/heads/${mr.targetBranch}`, outcome.targetBefore, outcome.commit);
      if (outcome.sourceRemoved) await compareAndSetRef(repo, `refs/heads/${mr.sourceBranch}`, outcome.sourceSha, null);
      if (cause instanceof MergeRaced) return err({ status: 405, message: "405 Method Not Allowed" });
      if (cause instanceof EventRefused) return err(cause.error);
      throw cause;
    });
  if (written.isOk()) await closeIssuesOnMerge(config, project, repo, user, written.value);
  return written;
}

class MergeRaced extends Error {}

/** An event the store refused inside a transaction: thrown to roll it back, turned back into its error by {@link withEvents}. */
export class EventRefused extends Error {
  constructor(readonly error: ForgekitError) {
    super(error.code);
  }
}

/** Inserts the event (with the builder of its hook payload, if any) or throws {@link EventRefused} (rolling the transaction back). */
export async function insertEventOrThrow(tx: TransactionStore, input: Parameters<typeof insertEvent>[1], now: Date, hook?: HookPayloadBuilder): Promise<void> {
  const event = await insertEvent(tx, input, now, hook);
  if (event.isErr()) throw new EventRefused(event.error);
}

/** Runs a transaction body that may throw {@link EventRefused}; resolves that error as an `err`. */
export async function withEvents<T, E>(run: () => Promise<Result<T, E>>): Promise<Result<T, E | ForgekitError>> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof EventRefused) return err(cause.error);
    throw cause;
  }
}

/** Whether each of the branches `names` exists in the repository (one git process for all). */
export async function branchesExist(repo: GitRepo | null, names: readonly string[]): Promise<boolean[]> {
  if (repo === null) return names.map(() => false);
  return (await branchCommits(repo, names)).map((id) => id !== null);
}

/** `{"message": {"validate_branches": [...]}}`-style refusals of create / update. */
export function branchProblems(sourceExists: boolean, targetExists: boolean, source: string, target: string): ForgekitError | null {
  const problems: string[] = [];
  if (source === target) problems.push("You can't use same project/branch for source and target");
  if (!sourceExists) problems.push(`Source branch "${source}" does not exist`);
  if (!targetExists) problems.push(`Target branch "${target}" does not exist`);
  return problems.length === 0 ? null : errors.validation({ validate_branches: problems });
}

