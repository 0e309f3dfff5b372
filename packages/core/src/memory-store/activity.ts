/** In-memory repositories of the activity domain: issues, merge requests, milestones, snippets, notes. */
import type { Issue, MergeRequest, Milestone, Note, Snippet } from "../activity/types.js";
import type {
  ActivityStore,
  IssueRepository,
  MergeRequestRepository,
  MilestoneRepository,
  NoteRepository,
  SnippetRepository,
} from "../ports/activity-store.js";
import { newNoteFields } from "../activity/note-fields.js";
import { memoryEvents } from "./events.js";
import { memoryIssueDetails } from "./issue-details.js";
import { memoryGroupMilestones } from "./group-milestones.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { nullableCopy, stripUndefined } from "./users.js";

function requireProject(state: MemoryState, projectId: number): void {
  if (!state.projects.has(projectId)) throw new Error(`project ${projectId} does not exist`);
}

/** An explicit iid (imports keep the source's numbers) that the project already has is a unique-key violation, as in SQL. */
function requireFreeIid(rows: Iterable<{ projectId: number | null; iid: number }>, projectId: number, iid: number | undefined): void {
  if (iid === undefined) return;
  for (const row of rows) if (row.projectId === projectId && row.iid === iid) throw new Error(`iid ${iid} is taken in project ${projectId}`);
}

/** One more than the highest iid among `rows` of the project (the lock serialises creators). */
function nextIid(rows: Iterable<{ projectId: number | null; iid: number }>, projectId: number): number {
  let max = 0;
  for (const row of rows) if (row.projectId === projectId && row.iid > max) max = row.iid;
  return max + 1;
}

function byIid<T extends { projectId: number; iid: number }>(rows: Map<number, T>, projectId: number, iid: number): T | null {
  for (const row of rows.values()) if (row.projectId === projectId && row.iid === iid) return copy(row);
  return null;
}

function patchRow<T extends object>(rows: Map<number, T>, id: number, patch: NoInfer<Partial<T>>): T | null {
  const row = rows.get(id);
  if (row === undefined) return null;
  const updated = { ...row, ...copy(stripUndefined(patch)) };
  rows.set(id, updated);
  return copy(updated);
}

function byProject<T extends { projectId: number; iid: number }>(rows: Map<number, T>, projectId: number): T[] {
  return [...rows.values()].filter((row) => row.projectId === projectId).sort((a, b) => a.iid - b.iid);
}

function memoryIssues(run: Runner): IssueRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireProject(state, input.projectId);
        const table = state.activity.issues;
        requireFreeIid(table.values(), input.projectId, input.iid);
        const issue: Issue = {
          id: ++state.activity.seq.issues,
          projectId: input.projectId,
          iid: input.iid ?? nextIid(table.values(), input.projectId),
          title: input.title,
          description: input.description,
          confidential: input.confidential,
          state: "opened",
          authorId: input.authorId,
          createdAt: new Date(now),
          updatedAt: new Date(now),
          closedAt: null,
          dueDate: input.dueDate ?? null,
          discussionLocked: null,
          importedFrom: input.importedFrom ?? "none",
        };
        table.set(issue.id, issue);
        return copy(issue);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.issues.get(id))),
    findByIid: (projectId, iid) => run((state) => byIid(state.activity.issues, projectId, iid)),
    update: (id, patch) => run((state) => patchRow(state.activity.issues, id, patch)),
    listByProject: (projectId, page) => run((state) => offsetPage(byProject(state.activity.issues, projectId), page, copy)),
    countOpened: (projectIds) =>
      run((state) => {
        const counts = new Map<number, number>();
        for (const id of projectIds) {
          const opened = byProject(state.activity.issues, id).filter((issue) => issue.state === "opened").length;
          if (opened > 0) counts.set(id, opened);
        }
        return counts;
      }),
  };
}

function memoryMergeRequests(run: Runner): MergeRequestRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireProject(state, input.projectId);
        const table = state.activity.mergeRequests;
        requireFreeIid(table.values(), input.projectId, input.iid);
        const mr: MergeRequest = {
          id: ++state.activity.seq.mergeRequests,
          projectId: input.projectId,
          iid: input.iid ?? nextIid(table.values(), input.projectId),
          title: input.title,
          description: input.description,
          state: "opened",
          authorId: input.authorId,
          sourceBranch: input.sourceBranch,
          targetBranch: input.targetBranch,
          createdAt: new Date(now),
          updatedAt: new Date(now),
          mergedAt: null,
          closedAt: null,
        };
        table.set(mr.id, mr);
        return copy(mr);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.mergeRequests.get(id))),
    findByIid: (projectId, iid) => run((state) => byIid(state.activity.mergeRequests, projectId, iid)),
    update: (id, patch) => run((state) => patchRow(state.activity.mergeRequests, id, patch)),
    listByProject: (projectId, page) => run((state) => offsetPage(byProject(state.activity.mergeRequests, projectId), page, copy)),
  };
}

function memoryMilestones(run: Runner): MilestoneRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireProject(state, input.projectId);
        const table = state.activity.milestones;
        for (const row of table.values()) if (row.projectId === input.projectId && (row.title === input.title || row.iid === input.iid)) return null;
        const milestone: Milestone = {
          id: ++state.activity.seq.milestones,
          projectId: input.projectId,
          iid: input.iid ?? nextIid(table.values(), input.projectId),
          title: input.title,
          description: input.description,
          state: "active",
          startDate: input.startDate ?? null,
          dueDate: input.dueDate ?? null,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        table.set(milestone.id, milestone);
        return copy(milestone);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.milestones.get(id))),
    findByIid: (projectId, iid) => run((state) => byIid(state.activity.milestones, projectId, iid)),
    update: (id, patch) =>
      run((state) => {
        const row = state.activity.milestones.get(id);
        if (row === undefined) return null;
        if (patch.title !== undefined) {
          for (const other of state.activity.milestones.values()) {
            if (other.id !== id && other.projectId === row.projectId && other.title === patch.title) return null;
          }
        }
        return patchRow(state.activity.milestones, id, patch);
      }),
  };
}

function memorySnippets(run: Runner): SnippetRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (input.projectId !== null) requireProject(state, input.projectId);
        const snippet: Snippet = { id: ++state.activity.seq.snippets, ...input, importedFrom: input.importedFrom ?? "none", createdAt: new Date(now), updatedAt: new Date(now) };
        state.activity.snippets.set(snippet.id, snippet);
        return copy(snippet);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.snippets.get(id))),
  };
}

function memoryNotes(run: Runner): NoteRepository {
  return {
    create: (input, now) =>
      run((state) => {
        const { projectId, noteableType, noteableId, authorId, body, system } = input;
        const note: Note = { id: ++state.activity.seq.notes, projectId, noteableType, noteableId, authorId, body, system, ...newNoteFields(input), createdAt: new Date(now), updatedAt: new Date(now) };
        state.activity.notes.set(note.id, note);
        return copy(note);
      }),
    findById: (id) => run((state) => nullableCopy(state.activity.notes.get(id))),
    listByNoteable: (noteableType, noteableId) =>
      run((state) =>
        [...state.activity.notes.values()]
          .filter((note) => note.noteableType === noteableType && note.noteableId === noteableId)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
  };
}

/** Every activity repository over the in-memory tables. */
export function memoryActivity(run: Runner): ActivityStore {
  return {
    issues: memoryIssues(run),
    mergeRequests: memoryMergeRequests(run),
    milestones: memoryMilestones(run),
    snippets: memorySnippets(run),
    notes: memoryNotes(run),
    events: memoryEvents(run),
    issueDetails: memoryIssueDetails(run),
    groupMilestones: memoryGroupMilestones(run),
  };
}
