/** Tables of merge-request versions, approvals, approval settings and approval rules (migration 0022_merge_request_reviews), and closing issues (0038). */
import type { Generated } from "kysely";
import type { DbBool, DbDate } from "./schema-values.js";

/** One version of a merge request: a distinct head of its source branch. */
export interface MergeRequestVersionsTable {
  id: Generated<number>;
  merge_request_id: number;
  head_sha: string;
  base_sha: string;
  start_sha: string;
  created_at: DbDate;
}

/** One user's approval of a merge request. */
export interface MergeRequestApprovalsTable {
  merge_request_id: number;
  user_id: number;
  created_at: DbDate;
}

/** A project's approval configuration (absent: the defaults). */
export interface ProjectApprovalSettingsTable {
  project_id: number;
  approvals_before_merge: number;
  reset_approvals_on_push: DbBool;
  disable_overriding_approvers_per_merge_request: DbBool;
  merge_requests_author_approval: DbBool;
  merge_requests_disable_committers_approval: DbBool;
}

/** A project approval rule. */
export interface ApprovalRulesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  approvals_required: number;
}

/** A user or group eligible to approve for a rule. */
export interface ApprovalRuleUsersTable {
  rule_id: number;
  user_id: number;
}
export interface ApprovalRuleGroupsTable {
  rule_id: number;
  group_id: number;
}

/** One issue a merge request closes (migration 0038_merge_request_closing_issues). */
export interface MergeRequestClosingIssuesTable {
  merge_request_id: number;
  issue_id: number;
}

export interface ReviewsDatabase {
  forgekit_merge_request_versions: MergeRequestVersionsTable;
  forgekit_merge_request_approvals: MergeRequestApprovalsTable;
  forgekit_project_approval_settings: ProjectApprovalSettingsTable;
  forgekit_approval_rules: ApprovalRulesTable;
  forgekit_approval_rule_users: ApprovalRuleUsersTable;
  forgekit_approval_rule_groups: ApprovalRuleGroupsTable;
  forgekit_merge_request_closing_issues: MergeRequestClosingIssuesTable;
}

/** The tables, dependants first. */
export const REVIEWS_TABLES = [
  "forgekit_merge_request_closing_issues",
  "forgekit_approval_rule_groups",
  "forgekit_approval_rule_users",
  "forgekit_approval_rules",
  "forgekit_project_approval_settings",
  "forgekit_merge_request_approvals",
  "forgekit_merge_request_versions",
] as const;
