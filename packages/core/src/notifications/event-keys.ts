/** Which custom notification event keys an instance serves: the tier decides (access/tier.ts). */
import { featureAvailable } from "../access/tier.js";
import type { Tier } from "../domain/tier.js";
import { CUSTOM_EVENT_KEYS, type CustomEventKey } from "./types.js";

/** The event keys an instance on `tier` serves: every key, `new_epic` only on ultimate. */
export function customEventKeys(tier: Tier): readonly CustomEventKey[] {
  return featureAvailable(tier, "epicNotifications") ? CUSTOM_EVENT_KEYS : CUSTOM_EVENT_KEYS.filter((key) => key !== "new_epic");
}
