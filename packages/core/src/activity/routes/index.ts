/** The issue, note and milestone routes of the activity capability. */
import type { ForgekitConfig } from "../../config.js";
import { tagRoutes } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { ActivityServices } from "../services.js";
import { groupMilestonesService } from "../group-milestones.js";
import { groupMilestoneRoutes } from "./group-milestones.js";
import { issueRoutes } from "./issues.js";
import { milestoneRoutes } from "./milestones.js";
import { noteRoutes } from "./notes.js";

/** Builds the activity REST routes over the activity services. */
export function activityRoutes(config: ForgekitConfig, services: Pick<ActivityServices, "issues" | "notes" | "milestones">): AnyRoute[] {
  return [
    ...tagRoutes("Issues", issueRoutes({ config, issues: services.issues })),
    ...tagRoutes("Notes", noteRoutes({ config, notes: services.notes })),
    ...tagRoutes("Milestones", [...milestoneRoutes({ config, milestones: services.milestones }), ...groupMilestoneRoutes({ config, milestones: groupMilestonesService(config) })]),
  ];
}
