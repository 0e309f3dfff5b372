/**
 * JSON shapes of approvals (reference `EE::API::Entities::ApprovalState`,
 * `MergeRequestApprovalStateRule`, `ProjectApprovalRule`, `ApprovalSettings`). The deprecated
 * `approvers` / `approver_groups` (and the configuration's `approvers` / `approval_groups`) are the
 * empty arrays the spec says they already are ("Versioning": use the approval rules).
 */
import { canReadGroup } from "../access/permissions.js";
import type { Group, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { iso } from "../accounts/entities/time.js";
import { userBasic } from "../accounts/entities/users.js";
import type { ApprovalRuleRecord, ProjectApprovalSettings } from "../ports/approvals-store.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { mergeRequestHead } from "../merge-requests-api/entities.js";
import type { ApprovalState, RuleState } from "./state.js";

/** Users and groups the entities name, looked up once. */
export interface Named {
  users: ReadonlyMap<number, User>;
  groups: ReadonlyMap<number, Group>;
}

const usersOf = (baseUrl: string, named: Named, ids: readonly number[]) => ids.flatMap((id) => {
  const u = named.users.get(id);
  return u === undefined ? [] : [userBasic(u, baseUrl)];
});

/** A group as rules show it (reference `API::Entities::Group` basics). */
const groupBasic = (baseUrl: string, g: Group) => ({ id: g.id, web_url: `${baseUrl.replace(/\/$/, "")}/groups/${g.fullPath}`, name: g.name, path: g.path, description: g.description, visibility: g.visibility, full_name: g.name, full_path: g.fullPath, parent_id: g.parentId, created_at: iso(g.createdAt) });

/** `ProjectApprovalRule`. */
export function ruleEntity(baseUrl: string, named: Named, rule: ApprovalRuleRecord) {
  const groups = rule.groupIds.flatMap((id) => {
    const g = named.groups.get(id);
    return g === undefined ? [] : [groupBasic(baseUrl, g)];
  });
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.userIds.length > 0 || rule.groupIds.length > 0 ? "regular" : "any_approver",
    eligible_approvers: usersOf(baseUrl, named, rule.userIds),
    approvals_required: rule.approvalsRequired,
    users: usersOf(baseUrl, named, rule.userIds),
    groups,
    contains_hidden_groups: groups.length < rule.groupIds.length,
    protected_branches: [],
    applies_to_all_protected_branches: true,
  };
}

/** The approvals of a merge request (`GET .../approvals`, `approve`, `unapprove`). */
export function approvalsEntity(baseUrl: string, named: Named, mr: MergeRequestRecord, state: ApprovalState, mergeStatus: string, viewer: { hasApproved: boolean; canApprove: boolean }) {
  const approvedIds = state.approvals.map((a) => a.userId);
  const suggested = [...new Set(state.rules.flatMap((r) => r.rule?.userIds ?? []))].filter((id) => !approvedIds.includes(id));
  return {
    ...mergeRequestHead(mr),
    merge_status: mergeStatus,
    approved: state.approved,
    approvals_required: state.approvalsRequired,
    approvals_left: state.approvalsLeft,
    require_password_to_approve: false,
    approved_by: usersOf(baseUrl, named, approvedIds).map((user) => ({ user })),
    suggested_approvers: usersOf(baseUrl, named, suggested),
    approvers: [],
    approver_groups: [],
    user_has_approved: viewer.hasApproved,
    user_can_approve: viewer.canApprove,
    approval_rules_left: state.rules.filter((r) => r.approvalsLeft > 0 && r.rule !== null).map((r) => ({ id: r.rule?.id, name: r.name, rule_type: r.ruleType })),
    has_approval_rules: state.rules.some((r) => r.rule !== null),
    merge_request_approvers_available: state.premium,
    multiple_approval_rules_available: state.premium,
    invalid_approvers_rules: [],
  };
}

/** One rule of `approval_state` (`MergeRequestApprovalStateRule`). */
function stateRuleEntity(baseUrl: string, named: Named, r: RuleState) {
  const base = r.rule === null ? { id: null, name: r.name, rule_type: r.ruleType, eligible_approvers: [], approvals_required: r.approvalsRequired, users: [], groups: [], contains_hidden_groups: false } : ruleEntity(baseUrl, named, r.rule);
  const approvedBy = usersOf(baseUrl, named, r.approvedBy);
  return { ...base, section: null, source_rule: null, overridden: false, code_owner: false, approved_by: approvedBy, commented_by: approvedBy, approved: r.approvalsLeft === 0 };
}

/** `GET .../approval_state` (premium). */
export function approvalStateEntity(baseUrl: string, named: Named, state: ApprovalState) {
  return { approval_rules_overwritten: false, rules: state.rules.map((r) => stateRuleEntity(baseUrl, named, r)) };
}

/** The project's approval configuration (`GET/POST /projects/:id/approvals`). */
export function settingsEntity(s: ProjectApprovalSettings) {
  return {
    approvers: [],
    // The spec names the deprecated group list `approval_groups`; the reference's documents show `approver_groups`.
    approval_groups: [],
    approver_groups: [],
    approvals_before_merge: s.approvalsBeforeMerge,
    reset_approvals_on_push: s.resetApprovalsOnPush,
    selective_code_owner_removals: false,
    disable_overriding_approvers_per_merge_request: s.disableOverridingApproversPerMergeRequest,
    merge_requests_author_approval: s.mergeRequestsAuthorApproval,
    merge_requests_disable_committers_approval: s.mergeRequestsDisableCommittersApproval,
    require_password_to_approve: false,
    require_reauthentication_to_approve: false,
  };
}

/** Loads the users and the groups `viewer` may see among those `ids` name (a rule with others "contains hidden groups"). */
export async function loadNamed(config: ForgekitConfig, viewer: User | null, userIds: readonly number[], groupIds: readonly number[]): Promise<Named> {
  const { store } = config;
  const users = new Map((await store.users.findByIds([...new Set(userIds)])).map((u) => [u.id, u]));
  const groups = new Map<number, Group>();
  for (const id of new Set(groupIds)) {
    const ns = await store.namespaces.findById(id);
    if (ns !== null && ns.kind === "group" && (await canReadGroup(store, viewer, ns as Group, config.clock.now()))) groups.set(id, ns as Group);
  }
  return { users, groups };
}
