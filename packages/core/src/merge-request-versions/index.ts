/** Merge-request versions: one per distinct source head, recorded on create and on every source push; their routes. */
export { mergeRequestVersionRoutes } from "./routes.js";
export { openMergeRequestsFrom, recordVersion, versionCommits, versionOf } from "./record.js";
