/**
 * Tier gating: THE one place that decides which features of the spec an instance serves on its
 * configured `tier` (spec: "Some features depend on a tier (marked free, premium or ultimate)").
 *
 * Every tier-limited item is a row of {@link TIER_FEATURES}; capabilities ask
 * {@link featureAvailable} (to leave an item out, e.g. an event key) or {@link requireFeature} (to
 * refuse a request). The refusal follows the reference: an unlicensed feature fails its policy
 * check (`authorize! :read_iteration` with `iterations_available` false), which the API answers
 * with 403 — after the usual lookups, so an invisible or unknown group is still a 404 and nothing
 * about its existence leaks. forgekit adds the reason to the reference's `403 Forbidden` text:
 * `{"message":"403 Forbidden - Group iterations require the premium tier"}`.
 */
import { err, ok, type Result } from "neverthrow";
import { TIERS, type Tier } from "../domain/tier.js";
import { errors, type ForgekitError } from "../errors.js";

/** Whether an instance on `tier` has features of `required` (free < premium < ultimate). */
export function tierAllows(tier: Tier, required: Tier): boolean {
  return TIERS.indexOf(tier) >= TIERS.indexOf(required);
}

/** Every tier-limited item forgekit serves: the lowest tier that has it and how refusals name it. */
export const TIER_FEATURES = {
  /** `GET /groups/:id/iterations` (spec "Group iterations (premium tier)"). */
  groupIterations: { tier: "premium", label: "Group iterations" },
  /** `/group_repository_storage_moves` and `/groups/:id/repository_storage_moves` (spec "Repository storage moves": premium tier). */
  groupStorageMoves: { tier: "premium", label: "Group repository storage moves" },
  /** Approval rules, required approvals (`approvals_before_merge`) and `approval_state` (reference: premium; free has plain approvals). */
  approvalRules: { tier: "premium", label: "Merge request approval rules" },
  /** The `new_epic` custom notification event key (spec "Notification settings": ultimate tier). */
  epicNotifications: { tier: "ultimate", label: "Epic notifications" },
  /** `allowed_to_push` / `allowed_to_merge` / `allowed_to_unprotect` of protected branches (reference EE `ProtectedBranches`). */
  protectedBranchAllowedTo: { tier: "premium", label: "Protected branch user and group permissions" },
  /** `code_owner_approval_required` of protected branches (reference EE). */
  codeOwnerApproval: { tier: "premium", label: "Code owner approvals" },
  /** `/groups/:id/hooks` (reference EE group webhooks: premium). */
  groupHooks: { tier: "premium", label: "Group webhooks" },
} as const satisfies Record<string, { tier: Tier; label: string }>;

/** A tier-limited feature. */
export type TierFeature = keyof typeof TIER_FEATURES;

/** Whether an instance on `tier` serves `feature`. */
export function featureAvailable(tier: Tier, feature: TierFeature): boolean {
  return tierAllows(tier, TIER_FEATURES[feature].tier);
}

/**
 * `ok` when an instance on `tier` serves `feature`, else the documented refusal: 403
 * `{"message":"403 Forbidden - <label> require the <tier> tier"}`. Call it after the resource
 * lookups (404s) and before any feature data is read.
 */
export function requireFeature(tier: Tier, feature: TierFeature): Result<void, ForgekitError> {
  const { tier: required, label } = TIER_FEATURES[feature];
  return tierAllows(tier, required) ? ok(undefined) : err(errors.forbidden(`${label} require the ${required} tier`));
}
