/** Tier gating: features marked premium or ultimate in the spec are served only on those tiers. */
import { TIERS, type Tier } from "../config.js";

/** Whether an instance on `tier` has features of `required` (free < premium < ultimate). */
export function tierAllows(tier: Tier, required: Tier): boolean {
  return TIERS.indexOf(tier) >= TIERS.indexOf(required);
}
