/** Conformance: every activity test group (registered by one line in index.ts). */
import { activityRecordTests } from "./activity-records.js";
import type { SuiteContext } from "./context.js";
import { eventFeedTests } from "./events-feeds.js";
import { eventFeatureTests } from "./events-features.js";
import { eventListTests } from "./events-list.js";
import { eventTotalTests } from "./events-totals.js";
import { issueDetailsTests } from "./issue-details.js";
import { groupMilestoneTests } from "./group-milestones.js";

/** The activity repositories and the event feeds. */
export function activityTests(ctx: SuiteContext): void {
  activityRecordTests(ctx);
  eventListTests(ctx);
  eventFeedTests(ctx);
  eventFeatureTests(ctx);
  eventTotalTests(ctx);
  issueDetailsTests(ctx);
  groupMilestoneTests(ctx);
}
