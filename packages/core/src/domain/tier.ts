/** The instance's feature tiers: a value type of the domain floor (imports nothing of forgekit). */

/** Feature tiers, lowest first (spec: "Some features depend on a tier"). */
export const TIERS = ["free", "premium", "ultimate"] as const;
/** The licensed tier of an instance; premium and ultimate features are gated on it. */
export type Tier = (typeof TIERS)[number];
