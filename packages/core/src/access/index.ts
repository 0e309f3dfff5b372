/** Roles, visibility, permissions and tiers: import from here. */
export * from "./permissions.js";
export { featureAvailable, requireFeature, TIER_FEATURES, tierAllows, type TierFeature } from "./tier.js";
export { AccessLevel } from "../accounts/types.js";
