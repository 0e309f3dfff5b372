/** The in-memory store's activity tables (issues, merge requests, milestones, snippets, notes, events). */
import { JournalMap } from "./journal.js";
import type { Issue, MergeRequest, Milestone, Note, Snippet } from "../activity/types.js";
import type { Event } from "../events/types.js";
import type { GroupMilestone } from "../ports/group-milestones-store.js";

/** Activity tables; ids come from `seq`. */
export interface ActivityTables {
  seq: { issues: number; mergeRequests: number; milestones: number; snippets: number; notes: number; events: number };
  issues: JournalMap<number, Issue>;
  mergeRequests: JournalMap<number, MergeRequest>;
  milestones: JournalMap<number, Milestone>;
  snippets: JournalMap<number, Snippet>;
  notes: JournalMap<number, Note>;
  events: JournalMap<number, Event>;
  /** Issue id → assignee user ids (ports/issue-details-store.ts). */
  issueAssignees: JournalMap<number, number[]>;
  /** Issue id → milestone id. */
  issueMilestones: JournalMap<number, number>;
  /** Group milestones (ids from `seq.milestones`, shared with project milestones). */
  groupMilestones: JournalMap<number, GroupMilestone>;
}

/** Empty activity tables. */
export function emptyActivityTables(): ActivityTables {
  return {
    seq: { issues: 0, mergeRequests: 0, milestones: 0, snippets: 0, notes: 0, events: 0 },
    issues: new JournalMap(),
    mergeRequests: new JournalMap(),
    milestones: new JournalMap(),
    snippets: new JournalMap(),
    notes: new JournalMap(),
    events: new JournalMap(),
    issueAssignees: new JournalMap(),
    issueMilestones: new JournalMap(),
    groupMilestones: new JournalMap(),
  };
}
