/** Schemas of approvals (reference `ProjectApprovalRule`, `ApprovalState`, `MergeRequestApprovalStateRule`, approvals, `ApprovalSettings`). */
import * as z from "zod";
import type { approvalsEntity, approvalStateEntity, ruleEntity, settingsEntity } from "../../approvals/entities.js";
import { type Fits, type Holds, int, type SameKeys, timestamp, url, userBasicSchema } from "./common.js";

const ruleType = z.enum(["regular", "any_approver"]).meta({ description: "`regular` when the rule names users or groups" });
const never = (description: string) => z.array(z.never()).meta({ description });

const approvalGroupSchema = z.object({
  id: int,
  web_url: url,
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility: z.enum(["private", "internal", "public"]),
  full_name: z.string(),
  full_path: z.string(),
  parent_id: int.nullable(),
  created_at: timestamp.nullable(),
});

export const approvalRuleSchema = z
  .object({
    id: int,
    name: z.string(),
    rule_type: ruleType,
    eligible_approvers: z.array(userBasicSchema),
    approvals_required: int,
    users: z.array(userBasicSchema),
    groups: z.array(approvalGroupSchema).meta({ description: "the groups the caller may see" }),
    contains_hidden_groups: z.boolean(),
    protected_branches: never("always empty: rules apply to every branch"),
    applies_to_all_protected_branches: z.boolean(),
  })
  .meta({ description: "Project approval rule (reference `ProjectApprovalRule`)" });

export const mergeRequestApprovalsSchema = z
  .object({
    id: int,
    iid: int,
    project_id: int,
    title: z.string(),
    description: z.string(),
    state: z.enum(["opened", "closed", "merged"]),
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    merge_status: z.string(),
    approved: z.boolean(),
    approvals_required: int,
    approvals_left: int,
    require_password_to_approve: z.boolean(),
    approved_by: z.array(z.object({ user: userBasicSchema })),
    suggested_approvers: z.array(userBasicSchema),
    approvers: never("deprecated, always empty: use the approval rules"),
    approver_groups: never("deprecated, always empty: use the approval rules"),
    user_has_approved: z.boolean(),
    user_can_approve: z.boolean(),
    approval_rules_left: z.array(z.object({ id: int, name: z.string(), rule_type: ruleType })),
    has_approval_rules: z.boolean(),
    merge_request_approvers_available: z.boolean(),
    multiple_approval_rules_available: z.boolean(),
    invalid_approvers_rules: never("always empty"),
  })
  .meta({ description: "A merge request's approvals (reference `GET …/merge_requests/:iid/approvals`)" });

const stateRuleSchema = approvalRuleSchema.extend({
  id: int.nullable().meta({ description: "null for the implicit `All Members` rule" }),
  protected_branches: approvalRuleSchema.shape.protected_branches.optional().meta({ description: "stored rules only" }),
  applies_to_all_protected_branches: z.boolean().optional().meta({ description: "stored rules only" }),
  section: z.null(),
  source_rule: z.null(),
  overridden: z.boolean(),
  code_owner: z.boolean(),
  approved_by: z.array(userBasicSchema),
  commented_by: z.array(userBasicSchema),
  approved: z.boolean(),
});

export const approvalStateSchema = z
  .object({ approval_rules_overwritten: z.boolean(), rules: z.array(stateRuleSchema) })
  .meta({ description: "A merge request's approval rules and how far each is met (reference `ApprovalState`)" });

export const approvalSettingsSchema = z
  .object({
    approvers: never("deprecated, always empty: use the approval rules"),
    approval_groups: never("deprecated, always empty: use the approval rules"),
    approver_groups: never("deprecated, always empty: use the approval rules"),
    approvals_before_merge: int,
    reset_approvals_on_push: z.boolean(),
    selective_code_owner_removals: z.boolean(),
    disable_overriding_approvers_per_merge_request: z.boolean(),
    merge_requests_author_approval: z.boolean(),
    merge_requests_disable_committers_approval: z.boolean(),
    require_password_to_approve: z.boolean(),
    require_reauthentication_to_approve: z.boolean(),
  })
  .meta({ description: "A project's approval configuration (reference `ApprovalSettings`)" });

/**
 * Compile-time: the schemas match their renderers (a mismatch fails `tsc`). The renderers type
 * `rule_type` as `string`, so those schemas are held to their keys; their values are checked
 * against real responses (openapi/entities-reviews.test.ts).
 */
export type ApprovalSchemasMatchRenderers = [
  Holds<SameKeys<typeof approvalRuleSchema, ReturnType<typeof ruleEntity>>>,
  Holds<SameKeys<typeof mergeRequestApprovalsSchema, ReturnType<typeof approvalsEntity>>>,
  Holds<SameKeys<typeof approvalStateSchema, ReturnType<typeof approvalStateEntity>>>,
  Holds<Fits<typeof approvalSettingsSchema, ReturnType<typeof settingsEntity>>>,
];
