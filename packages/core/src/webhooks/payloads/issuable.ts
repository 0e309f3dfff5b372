/**
 * Issue and merge request hooks as the services that change them queue them (issue 20): each
 * payload is built in the transaction of the change, from the state the change left, with the
 * `changes` between the snapshot taken before it and that state (changes.ts) — as the reference
 * builds `hook_data` when the change is made (`IssuableBaseService#execute_hooks`), so a delivery
 * sent hours later still shows what that change did. The builders run only when some hook wants
 * the event (fanout.ts).
 *
 * The activity and merge-request capabilities call this module directly, as the events floor calls
 * fanout.ts: it imports only ports, entity types and this capability's value modules.
 */
import type { User } from "../../accounts/types.js";
import type { Issue, MergeRequest } from "../../activity/types.js";
import type { TransactionStore } from "../../ports/store.js";
import type { HookPayloadBuilder } from "../fanout.js";
import { issueChanges, mergeRequestChanges, type ChangesKind, type IssueSnapshot, type MergeRequestSnapshot } from "./changes.js";
import { issuePayload, mergeRequestPayload, type PayloadContext } from "./objects.js";

export type { IssueSnapshot, MergeRequestSnapshot } from "./changes.js";

/** The users of `ids` that exist, in the order of `ids`. */
async function usersIn(tx: TransactionStore, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const found = new Map((await tx.users.findByIds(ids)).map((u) => [u.id, u]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** The issue with its milestone, labels and assignees now; null when it is gone. */
export async function issueSnapshot(tx: TransactionStore, issueId: number): Promise<IssueSnapshot | null> {
  const issue = await tx.activity.issues.findById(issueId);
  if (issue === null) return null;
  const milestoneId = (await tx.activity.issueDetails.milestonesOf([issueId])).get(issueId) ?? null;
  const labels = await tx.imports.labels.labelsOf("Issue", issueId);
  const assignees = await usersIn(tx, (await tx.activity.issueDetails.assigneesOf([issueId])).get(issueId) ?? []);
  return { issue, milestoneId, labels, assignees };
}

/** The merge request with its merge facts, labels, assignees and reviewers now; null when it is gone. */
export async function mergeRequestSnapshot(tx: TransactionStore, mergeRequestId: number): Promise<MergeRequestSnapshot | null> {
  const mergeRequest = await tx.reviews.findMergeRequest(mergeRequestId);
  if (mergeRequest === null) return null;
  const labels = await tx.imports.labels.labelsOf("MergeRequest", mergeRequestId);
  const extras = (await tx.mergeRequestExtras.extras([mergeRequestId])).get(mergeRequestId);
  return { mergeRequest, milestoneId: extras?.milestoneId ?? null, discussionLocked: extras?.discussionLocked ?? null, labels, assignees: await usersIn(tx, extras?.assigneeIds ?? []), reviewers: await usersIn(tx, extras?.reviewerIds ?? []) };
}

async function contextOf(tx: TransactionStore, baseUrl: string, projectId: number, actorId: number): Promise<PayloadContext | null> {
  const project = await tx.projects.findById(projectId);
  const user = await tx.users.findById(actorId);
  if (project === null || user === null) return null;
  const namespace = await tx.namespaces.findById(project.namespaceId);
  return namespace === null ? null : { baseUrl, project, namespace, user };
}

/** What happened, as the activity event (or, for edits, the `updated` hook) names it. */
export type IssuableHookAction = "created" | "updated" | "closed" | "reopened" | "merged";

const KIND: Record<IssuableHookAction, ChangesKind> = { created: "create", updated: "update", closed: "state", reopened: "state", merged: "state" };

/** What an issuable hook reports. */
export interface IssuableHookInput<S, R> {
  baseUrl: string;
  /** Who made the change (`user` of the payload). */
  actorId: number;
  action: IssuableHookAction;
  /**
   * What it was before the change: a snapshot, or only the row when nothing else changed (a state
   * change); null when the change opened it.
   */
  before: S | R | null;
  /**
   * Report only the state change of an update that also changes other things (the reference
   * closes or reopens through its own service before the update writes the rest): the payload
   * shows `before` with the state, close, merge and update times the change left.
   */
  stateOnly?: boolean;
}

/** Builds the Issue Hook (or Confidential Issue Hook) of issue `issueId`, read from `tx` when called. */
export function issueHook(tx: TransactionStore, issueId: number, input: IssuableHookInput<IssueSnapshot, Issue>): HookPayloadBuilder {
  return async () => {
    const now = await issueSnapshot(tx, issueId);
    if (now === null) return null;
    const before = input.before === null || "issue" in input.before ? input.before : { ...now, issue: input.before };
    const after: IssueSnapshot =
      input.stateOnly === true && before !== null ? { ...before, issue: { ...before.issue, state: now.issue.state, closedAt: now.issue.closedAt, updatedAt: now.issue.updatedAt } } : now;
    const ctx = await contextOf(tx, input.baseUrl, after.issue.projectId, input.actorId);
    if (ctx === null) return null;
    const payload = issuePayload(ctx, after.issue, input.action, after, issueChanges(KIND[input.action], before, after));
    return { header: after.issue.confidential ? "Confidential Issue Hook" : "Issue Hook", payload };
  };
}

/** Builds the Merge Request Hook of merge request `mergeRequestId`, read from `tx` when called. */
export function mergeRequestHook(tx: TransactionStore, mergeRequestId: number, input: IssuableHookInput<MergeRequestSnapshot, MergeRequest>): HookPayloadBuilder {
  return async () => {
    const now = await mergeRequestSnapshot(tx, mergeRequestId);
    if (now === null) return null;
    // A bare row (`MergeRequest`, or the record with its merge facts) keeps the other facts as they are now.
    const before = input.before === null || "mergeRequest" in input.before ? input.before : { ...now, mergeRequest: { ...now.mergeRequest, ...input.before } };
    const moved = now.mergeRequest;
    const after: MergeRequestSnapshot =
      input.stateOnly === true && before !== null
        ? { ...before, mergeRequest: { ...before.mergeRequest, state: moved.state, closedAt: moved.closedAt, mergedAt: moved.mergedAt, updatedAt: moved.updatedAt } }
        : now;
    const ctx = await contextOf(tx, input.baseUrl, after.mergeRequest.projectId, input.actorId);
    if (ctx === null) return null;
    return { header: "Merge Request Hook", payload: mergeRequestPayload(ctx, after.mergeRequest, input.action, after, mergeRequestChanges(KIND[input.action], before, after)) };
  };
}
