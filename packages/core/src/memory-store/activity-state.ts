/** The in-memory store's activity tables (issues, merge requests, milestones, snippets, notes, events). */
import type { Issue, MergeRequest, Milestone, Note, Snippet } from "../activity/types.js";
import type { Event } from "../events/types.js";
import type { GroupMilestone } from "../ports/group-milestones-store.js";

/** Activity tables; ids come from `seq`. */
export interface ActivityTables {
  seq: { issues: number; mergeRequests: number; milestones: number; snippets: number; notes: number; events: number };
  issues: Map<number, Issue>;
  mergeRequests: Map<number, MergeRequest>;
  milestones: Map<number, Milestone>;
  snippets: Map<number, Snippet>;
  notes: Map<number, Note>;
  events: Map<number, Event>;
  /** Issue id → assignee user ids (ports/issue-details-store.ts). */
  issueAssignees: Map<number, number[]>;
  /** Issue id → milestone id. */
  issueMilestones: Map<number, number>;
  /** Group milestones (ids from `seq.milestones`, shared with project milestones). */
  groupMilestones: Map<number, GroupMilestone>;
}

/** Empty activity tables. */
export function emptyActivityTables(): ActivityTables {
  return {
    seq: { issues: 0, mergeRequests: 0, milestones: 0, snippets: 0, notes: 0, events: 0 },
    issues: new Map(),
    mergeRequests: new Map(),
    milestones: new Map(),
    snippets: new Map(),
    notes: new Map(),
    events: new Map(),
    issueAssignees: new Map(),
    issueMilestones: new Map(),
    groupMilestones: new Map(),
  };
}
