/** Closing issues: the reference's closing pattern, the issues a text closes, and closing them when a merge request or commit lands. */
export { closingReferences, type ClosingReference } from "./pattern.js";
export { closingIssues } from "./resolve.js";
export { closeIssuesAs, closeIssuesByCommits, closerReference, type Closer } from "./close.js";
