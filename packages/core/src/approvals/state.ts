/**
 * A merge request's approval state (reference `ApprovalState`, `ApprovalWrappedRule`,
 * `MergeRequests::ApprovalService`). Free tier: anyone who may approve may, nothing is required.
 * Premium: the project's rules — each needs `approvals_required` approvals from its eligible
 * approvers (its users and the members of its groups; a rule naming nobody takes anyone) — or,
 * without rules, `approvals_before_merge` approvals from anyone. The author approves only when the
 * project allows it, committers only unless the project forbids it.
 */
import { hasProjectAccess } from "../access/permissions.js";
import { featureAvailable } from "../access/tier.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { versionCommits } from "../merge-request-versions/index.js";
import type { ApprovalRecord, ApprovalRuleRecord, ProjectApprovalSettings } from "../ports/approvals-store.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { listCommits } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";

/** One rule as it stands for a merge request. */
export interface RuleState {
  /** The stored rule; null for the implicit rule `approvals_before_merge` makes. */
  rule: ApprovalRuleRecord | null;
  name: string;
  ruleType: "regular" | "any_approver";
  approvalsRequired: number;
  /** Approvals that count for the rule. */
  approvedBy: number[];
  approvalsLeft: number;
}

/** The whole state. */
export interface ApprovalState {
  premium: boolean;
  settings: ProjectApprovalSettings;
  approvals: ApprovalRecord[];
  rules: RuleState[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
}

/** Whether `user` is an eligible approver of a named rule (a listed user or a member of a listed group). */
async function eligibleFor(config: ForgekitConfig, rule: ApprovalRuleRecord, userId: number, now: Date): Promise<boolean> {
  if (rule.userIds.includes(userId)) return true;
  for (const groupId of rule.groupIds) if ((await config.store.members.namespaceAccessLevel(userId, groupId, now)) > 0) return true;
  return false;
}

const named = (rule: ApprovalRuleRecord) => rule.userIds.length > 0 || rule.groupIds.length > 0;

/** The approval state of `mr` (approvals read once). */
export async function approvalState(config: ForgekitConfig, project: Project, mr: MergeRequestRecord): Promise<ApprovalState> {
  const { store } = config;
  const premium = featureAvailable(config.tier, "approvalRules");
  const settings = await store.approvals.settings(project.id);
  const approvals = (await store.approvals.approvals([mr.id])).get(mr.id) ?? [];
  const approvers = approvals.map((a) => a.userId);
  const now = config.clock.now();
  const rules: RuleState[] = [];
  if (premium) {
    const stored = await store.approvals.rules(project.id);
    for (const rule of stored) {
      const approvedBy: number[] = [];
      for (const id of approvers) if (!named(rule) || (await eligibleFor(config, rule, id, now))) approvedBy.push(id);
      rules.push({ rule, name: rule.name, ruleType: named(rule) ? "regular" : "any_approver", approvalsRequired: rule.approvalsRequired, approvedBy, approvalsLeft: Math.max(0, rule.approvalsRequired - approvedBy.length) });
    }
    if (stored.length === 0 && settings.approvalsBeforeMerge > 0) {
      const required = settings.approvalsBeforeMerge;
      rules.push({ rule: null, name: "All Members", ruleType: "any_approver", approvalsRequired: required, approvedBy: approvers, approvalsLeft: Math.max(0, required - approvers.length) });
    }
  }
  const approvalsRequired = rules.reduce((n, r) => n + r.approvalsRequired, 0);
  const approvalsLeft = rules.reduce((n, r) => n + r.approvalsLeft, 0);
  // Free tier: approved means someone approved (reference CE `approvals.present?`); premium: nothing left.
  const approved = premium ? approvalsLeft === 0 : approvals.length > 0;
  return { premium, settings, approvals, rules, approvalsRequired, approvalsLeft, approved };
}

/** Whether `user` committed to the merge request (a commit authored or committed with one of their confirmed e-mails). */
async function isCommitter(config: ForgekitConfig, repo: GitRepo | null, mr: MergeRequestRecord, user: User): Promise<boolean> {
  if (repo === null) return false;
  const emails = new Set((await config.store.emails.listByUser(user.id)).filter((e) => e.confirmedAt !== null).map((e) => e.email.toLowerCase()));
  if (emails.size === 0) return false;
  const [newest] = await config.store.mergeRequestVersions.list(mr.id);
  const range = newest ?? (await versionCommits(repo, mr.sourceBranch, mr.targetBranch));
  if (range === null || range === undefined) return false;
  const commits = await listCommits(repo, { from: [range.headSha], exclude: [range.baseSha], limit: 1_000 });
  return commits.some((c) => emails.has(c.authorEmail.toLowerCase()) || emails.has(c.committerEmail.toLowerCase()));
}

/**
 * Whether `user` may approve `mr` now (reference `MergeRequest#can_be_approved_by?`): an open merge
 * request, Developer+ on the project, not approved yet, the author only when allowed, a committer
 * only unless forbidden, and on premium with only named rules an eligible approver of one of them.
 */
export async function canApprove(config: ForgekitConfig, project: Project, repo: GitRepo | null, mr: MergeRequestRecord, user: User | null, state: ApprovalState): Promise<boolean> {
  if (user === null || mr.state !== "opened") return false;
  if (state.approvals.some((a) => a.userId === user.id)) return false;
  const now = config.clock.now();
  if (!(await hasProjectAccess(config.store, user, project, AccessLevel.Developer, now))) return false;
  if (mr.authorId === user.id && !state.settings.mergeRequestsAuthorApproval) return false;
  if (state.settings.mergeRequestsDisableCommittersApproval && (await isCommitter(config, repo, mr, user))) return false;
  const stored = state.rules.flatMap((r) => (r.rule === null ? [] : [r.rule]));
  if (state.premium && stored.length > 0 && stored.every(named)) {
    for (const rule of stored) if (await eligibleFor(config, rule, user.id, now)) return true;
    return false;
  }
  return true;
}
