/** Roles, visibility, permissions and tiers: import from here. */
export * from "./permissions.js";
export { tierAllows } from "./tier.js";
export { AccessLevel } from "../accounts/types.js";
