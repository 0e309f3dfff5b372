/** The iterations capability: group iterations (premium), their service and the list route. */
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { groupIterationRoutes } from "./routes/group-iterations.js";
import type { IterationsService } from "./service.js";

export { iterationEntity } from "./entity.js";
export {
  isCalendarDate,
  ITERATION_MESSAGES,
  iterationsService,
  type CreateIterationInput,
  type GroupsForOptions,
  type IterationListQuery,
  type IterationsService,
} from "./service.js";
export * from "./types.js";

/** The iterations routes. */
export function iterationsRoutes(config: ForgekitConfig, iterations: IterationsService): AnyRoute[] {
  return tagRoutes("Iterations", groupIterationRoutes({ config, iterations }));
}
