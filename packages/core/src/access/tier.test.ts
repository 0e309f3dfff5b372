import { describe, expect, it } from "vitest";
import { TIERS } from "../config.js";
import { featureAvailable, requireFeature, TIER_FEATURES } from "./tier.js";

describe("tier gate", () => {
  it("group iterations: premium and ultimate only", () => {
    expect(TIERS.map((tier) => featureAvailable(tier, "groupIterations"))).toEqual([false, true, true]);
  });

  it("epic notifications: ultimate only", () => {
    expect(TIERS.map((tier) => featureAvailable(tier, "epicNotifications"))).toEqual([false, false, true]);
  });

  it("requireFeature - refuses with 403 and names the feature and the tier it needs", () => {
    expect(requireFeature("free", "groupIterations")._unsafeUnwrapErr()).toEqual({ code: "forbidden", reason: "Group iterations require the premium tier" });
    expect(requireFeature("premium", "epicNotifications")._unsafeUnwrapErr()).toEqual({ code: "forbidden", reason: "Epic notifications require the ultimate tier" });
    expect(requireFeature("premium", "groupIterations").isOk()).toBe(true);
    expect(requireFeature("ultimate", "epicNotifications").isOk()).toBe(true);
  });

  it("every feature names a tier above free (free items need no gate)", () => {
    for (const feature of Object.values(TIER_FEATURES)) expect(feature.tier).not.toBe("free");
  });
});
