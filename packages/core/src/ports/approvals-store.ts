/**
 * Storage port of merge-request approvals (DESIGN §5; reference `Approval`,
 * `ApprovalProjectRule`, the project's approval settings): who approved which merge request,
 * each project's approval configuration, and its approval rules (premium). Reached as
 * `Store.approvals`. Approvals go with their merge request and their user; settings and rules with
 * their project; a removed user or group leaves the rules that named them.
 */

/** One approval of a merge request. */
export interface ApprovalRecord {
  mergeRequestId: number;
  userId: number;
  createdAt: Date;
}

/** A project's approval configuration (reference `POST /projects/:id/approvals`). */
export interface ProjectApprovalSettings {
  /** Approvals a merge request needs before it can merge (0: none). */
  approvalsBeforeMerge: number;
  /** A push to the source branch removes the approvals. */
  resetApprovalsOnPush: boolean;
  /** Merge requests may not change their approval rules. */
  disableOverridingApproversPerMergeRequest: boolean;
  /** The author may approve their own merge request. */
  mergeRequestsAuthorApproval: boolean;
  /** Users who committed to a merge request may not approve it. */
  mergeRequestsDisableCommittersApproval: boolean;
}

/** The configuration of a project that never set one (the reference's column defaults). */
export const DEFAULT_APPROVAL_SETTINGS: ProjectApprovalSettings = {
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
};

/** A project approval rule (premium): how many of its eligible approvers must approve. */
export interface ApprovalRuleRecord {
  id: number;
  projectId: number;
  name: string;
  approvalsRequired: number;
  /** Users who may approve for the rule (with the members of `groupIds`); both empty: anyone eligible. */
  userIds: number[];
  groupIds: number[];
}

/** What creating a rule takes. */
export type NewApprovalRule = Omit<ApprovalRuleRecord, "id">;
/** A change to a rule: the fields given are written. */
export type ApprovalRulePatch = Partial<Omit<ApprovalRuleRecord, "id" | "projectId">>;

/** Approvals, approval settings and approval rules. */
export interface ApprovalRepository {
  /** Approvals of each merge request by id (oldest first); ids without any map to []. */
  approvals(mergeRequestIds: readonly number[]): Promise<Map<number, ApprovalRecord[]>>;
  /** Records `userId`'s approval; false when they had already approved (nothing written). */
  approve(mergeRequestId: number, userId: number, now: Date): Promise<boolean>;
  /** Removes `userId`'s approval; false when there was none. */
  unapprove(mergeRequestId: number, userId: number): Promise<boolean>;
  /** Removes every approval of the merge request; resolves how many there were. */
  resetApprovals(mergeRequestId: number): Promise<number>;
  /** The project's configuration ({@link DEFAULT_APPROVAL_SETTINGS} when never set). */
  settings(projectId: number): Promise<ProjectApprovalSettings>;
  /** Writes the fields given and resolves the whole configuration. */
  updateSettings(projectId: number, patch: Partial<ProjectApprovalSettings>): Promise<ProjectApprovalSettings>;
  /** The project's rules by id. */
  rules(projectId: number): Promise<ApprovalRuleRecord[]>;
  /** One rule of the project, or null. */
  findRule(projectId: number, ruleId: number): Promise<ApprovalRuleRecord | null>;
  createRule(input: NewApprovalRule): Promise<ApprovalRuleRecord>;
  /** Null when the project has no such rule. */
  updateRule(projectId: number, ruleId: number, patch: ApprovalRulePatch): Promise<ApprovalRuleRecord | null>;
  /** False when the project has no such rule. */
  removeRule(projectId: number, ruleId: number): Promise<boolean>;
}
