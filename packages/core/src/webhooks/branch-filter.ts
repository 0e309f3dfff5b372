/**
 * `push_events_branch_filter` (reference `WebHooks::PushFilter`/`RefMatcher`): with `wildcard` a
 * `*` matches any run of characters and the rest is literal; with `regex` the pattern must match
 * the whole branch name; `all_branches` or an empty filter lets every branch through. Tag pushes
 * are never filtered.
 */
import type { BranchFilterStrategy } from "./types.js";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether a regex filter compiles (a bad one is refused when the hook is saved). */
export function validRegexFilter(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** Whether a push to `branch` passes the filter. */
export function branchMatches(strategy: BranchFilterStrategy, filter: string | null, branch: string): boolean {
  if (strategy === "all_branches" || filter === null || filter === "") return true;
  if (strategy === "regex") {
    try {
      return new RegExp(`^(?:${filter})$`, "u").test(branch);
    } catch {
      return false;
    }
  }
  return new RegExp(`^${filter.split("*").map(escape).join(".*")}$`, "su").test(branch);
}
