/**
 * Webhooks (issue 20; reference `WebHook`, `ProjectHook`, `GroupHook`, `SystemHook`): who owns a
 * hook, which events it asked for, how pushes are filtered by branch, and its failure state.
 */

/** Whose hook it is: a project's, a group's (premium) or the instance's (system hooks, administrators). */
export type HookScope = "project" | "group" | "system";

/** The per-event switches of project hooks (reference `ProjectHook.triggers`, API entity order). */
export const PROJECT_HOOK_EVENTS = [
  "push_events",
  "issues_events",
  "confidential_issues_events",
  "merge_requests_events",
  "tag_push_events",
  "note_events",
  "confidential_note_events",
  "job_events",
  "pipeline_events",
  "wiki_page_events",
  "deployment_events",
  "releases_events",
  "feature_flag_events",
  "repository_update_events",
  "resource_access_token_events",
  "emoji_events",
] as const;

/** The switches of group hooks: the project ones plus member and subgroup events (reference `GroupHook`). */
export const GROUP_HOOK_EVENTS = [...PROJECT_HOOK_EVENTS, "subgroup_events", "member_events"] as const;

/** The switches of system hooks (reference `SystemHook.triggers`). */
export const SYSTEM_HOOK_EVENTS = ["push_events", "tag_push_events", "merge_requests_events", "repository_update_events"] as const;

/** One per-event switch, as the API names it (`push_events`, `note_events`, …). */
export type HookEvent = (typeof GROUP_HOOK_EVENTS)[number];

/** The switches a hook of `scope` has. */
export function hookEvents(scope: HookScope): readonly HookEvent[] {
  return scope === "project" ? PROJECT_HOOK_EVENTS : scope === "group" ? GROUP_HOOK_EVENTS : SYSTEM_HOOK_EVENTS;
}

/**
 * The switches on when a hook is added without them (reference column defaults: `push_events`
 * true, every other false; system hooks also start with `repository_update_events`).
 */
export function defaultHookEvents(scope: HookScope): HookEvent[] {
  return scope === "system" ? ["push_events", "repository_update_events"] : ["push_events"];
}

/** How `push_events_branch_filter` is matched (reference `branch_filter_strategy`). */
export const BRANCH_FILTER_STRATEGIES = ["wildcard", "regex", "all_branches"] as const;
/** `wildcard` (`*` matches any run of characters), `regex` (RE2-like, whole name) or `all_branches`. */
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** A stored hook. The token is kept sealed and never leaves the service but to sign a delivery. */
export interface WebHook {
  id: number;
  scope: HookScope;
  /** Set exactly for project hooks. */
  projectId: number | null;
  /** Set exactly for group hooks. */
  groupId: number | null;
  url: string;
  name: string;
  description: string;
  /** The secret token as stored (sealed with the instance key when one is configured), or null. */
  token: string | null;
  enableSslVerification: boolean;
  /** `push_events_branch_filter`: null or empty means every branch. */
  branchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  /** The switches that are on. */
  events: HookEvent[];
  /** Consecutive failed deliveries (reset by a success). */
  recentFailures: number;
  /** How many times the hook has been disabled for a while since its last success. */
  backoffCount: number;
  /** While in the future the hook is temporarily disabled. */
  disabledUntil: Date | null;
  createdAt: Date;
}

/** Reference `alert_status`: `executable`, `temporarily_disabled` or `disabled`. */
export type HookAlertStatus = "executable" | "temporarily_disabled" | "disabled";
