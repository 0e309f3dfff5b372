/**
 * The commit-statuses capability: statuses posted by external CI systems, the external pipelines
 * they make, and the routes. Merge requests read pipelines through this face.
 */
export { statusRoutes } from "./routes.js";
export { postStatus, type PipelineListener, type PostStatusInput } from "./service.js";
export { pipelineBasicEntity, pipelineCoverage, pipelineEntity, usersOf } from "./entities.js";
export { isActive } from "./state-machine.js";
