/** Stand-ins for the outside world of imports: the external forge and the external repository server. */
export { startExtForgeStandIn, type ExtForgeStandIn } from "./extforge-stand-in.js";
export {
  DEFAULT_EXTFORGE_USER,
  type ExtForgeStandInComment,
  type ExtForgeStandInEvent,
  type ExtForgeStandInGist,
  type ExtForgeStandInIssue,
  type ExtForgeStandInOptions,
  type ExtForgeStandInPull,
  type ExtForgeStandInRateLimit,
  type ExtForgeStandInRelease,
  type ExtForgeStandInRepository,
  type ExtForgeStandInReviewComment,
  type ExtForgeStandInUser,
} from "./extforge-model.js";
export {
  DEFAULT_EXTSERVER_USER,
  startExtServerStandIn,
  type ExtServerStandIn,
  type ExtServerStandInComment,
  type ExtServerStandInOptions,
  type ExtServerStandInPullRequest,
  type ExtServerStandInRepository,
  type ExtServerStandInUser,
} from "./extserver-stand-in.js";
export { buildRepository, type BuiltRepository, type StandInCommit, type StandInGitRepository } from "./git-repositories.js";
export type { StandInRequest } from "./kit.js";
