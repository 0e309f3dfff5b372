/** Merge-request approvals: approving, the approval state (rules: premium), the project's configuration and rules, and what merge requests read of them. */
export { mergeRequestApprovalRoutes, type ApprovalRouteDeps } from "./routes-merge-request.js";
export { projectApprovalRoutes } from "./routes-project.js";
export { approvalState, canApprove, type ApprovalState } from "./state.js";
