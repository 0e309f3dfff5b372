/** The issue, note and milestone suites (registered in all.ts by one entry). */
import type { HttpSuite } from "../http-harness.js";
import { activityIssuesSuite } from "./activity-issues.js";
import { activityGroupMilestonesSuite } from "./activity-group-milestones.js";
import { activityMilestonesSuite } from "./activity-milestones.js";
import { activityNotesSuite } from "./activity-notes.js";

export const activitySuites: readonly HttpSuite[] = [activityIssuesSuite, activityNotesSuite, activityMilestonesSuite, activityGroupMilestonesSuite];
