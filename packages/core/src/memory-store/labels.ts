/** In-memory {@link LabelsStore} (ports/labels-store.ts) over the label rows of memory-store/imports.ts. */
import type { Label } from "../ports/imports-store.js";
import type { LabelCounts, LabelsStore } from "../ports/labels-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { compareText, contains } from "./text.js";

const byName = (a: Label, b: Label) => compareText(a.name, b.name) || a.id - b.id;

/** Deletes a label with its links, priorities and subscriptions (as the SQL cascades do); `false` when unknown. */
export function removeLabel(state: MemoryState, id: number): boolean {
  if (!state.imports.labels.delete(id)) return false;
  for (const key of state.imports.labelLinks) if (key.startsWith(`${id}|`)) state.imports.labelLinks.delete(key);
  for (const key of state.labels.priorities.keys()) if (key.endsWith(`|${id}`)) state.labels.priorities.delete(key);
  for (const key of state.labels.subscriptions) if (key.startsWith(`${id}|`)) state.labels.subscriptions.delete(key);
  return true;
}

function countLinks(state: MemoryState, labelId: number, confidential: boolean): LabelCounts {
  const counts = { openIssues: 0, closedIssues: 0, openMergeRequests: 0 };
  for (const key of state.imports.labelLinks) {
    const [label, type, target] = key.split("|");
    if (Number(label) !== labelId) continue;
    if (type === "Issue") {
      const issue = state.activity.issues.get(Number(target));
      if (issue === undefined || (issue.confidential && !confidential)) continue;
      if (issue.state === "opened") counts.openIssues += 1;
      else counts.closedIssues += 1;
    } else if (state.activity.mergeRequests.get(Number(target))?.state === "opened") counts.openMergeRequests += 1;
  }
  return counts;
}

/** The in-memory {@link LabelsStore}. */
export function memoryLabelsStore(run: Runner): LabelsStore {
  const find = (state: MemoryState, id: number) => state.imports.labels.get(id) ?? null;
  const sameOwner = (a: Label, b: Label) => (a.projectId !== null && a.projectId === b.projectId) || (a.groupId !== null && a.groupId === b.groupId);
  return {
    createGroupLabel: (input, now) =>
      run((state) => {
        if (state.namespaces.get(input.groupId)?.kind !== "group") throw new Error(`group ${input.groupId} does not exist`);
        const t = state.imports;
        for (const row of t.labels.values()) if (row.groupId === input.groupId && row.name === input.name) return null;
        const label: Label = { id: ++t.labelSeq, projectId: null, groupId: input.groupId, name: input.name, color: input.color, description: input.description, createdAt: new Date(now), updatedAt: new Date(now) };
        t.labels.set(label.id, label);
        return copy(label);
      }),
    findInGroups: (groupIds, name) =>
      run((state) => {
        for (const groupId of groupIds) for (const row of state.imports.labels.values()) if (row.groupId === groupId && row.name === name) return copy(row);
        return null;
      }),
    list: (filter, page) =>
      run((state) => {
        const groups = new Set(filter.groupIds ?? []);
        const owned = (l: Label) => (l.projectId !== null && l.projectId === filter.projectId) || (l.groupId !== null && groups.has(l.groupId));
        const rows = [...state.imports.labels.values()].filter((l) => owned(l) && (filter.search === undefined || contains(l.name, filter.search) || contains(l.description, filter.search)));
        return offsetPage(rows.sort(byName), page, copy);
      }),
    findById: (id) =>
      run((state) => {
        const row = find(state, id);
        return row === null ? null : copy(row);
      }),
    update: (id, patch, now) =>
      run((state) => {
        const row = find(state, id);
        if (row === null) return null;
        const name = patch.name;
        if (name !== undefined && [...state.imports.labels.values()].some((l) => l.id !== id && sameOwner(l, row) && l.name === name)) return null;
        const next: Label = { ...row, ...patch, updatedAt: new Date(now) };
        state.imports.labels.set(id, next);
        return copy(next);
      }),
    remove: (id) => run((state) => removeLabel(state, id)),
    mergeInto: (intoId, fromIds) =>
      run((state) => {
        if (find(state, intoId) === null) throw new Error(`label ${intoId} does not exist`);
        const from = new Set(fromIds.filter((id) => id !== intoId && find(state, id) !== null));
        const moved = (key: string, at: number) => {
          const parts = key.split("|");
          return from.has(Number(parts[at])) ? parts.map((part, i) => (i === at ? String(intoId) : part)).join("|") : null;
        };
        for (const key of [...state.imports.labelLinks]) {
          const next = moved(key, 0);
          if (next !== null) state.imports.labelLinks.add(next);
        }
        for (const [key, priority] of [...state.labels.priorities]) {
          const next = moved(key, 1);
          if (next !== null && !state.labels.priorities.has(next)) state.labels.priorities.set(next, priority);
        }
        for (const key of [...state.labels.subscriptions]) {
          const next = moved(key, 0);
          if (next !== null) state.labels.subscriptions.add(next);
        }
        for (const id of from) removeLabel(state, id);
      }),
    setPriority: (projectId, labelId, priority) =>
      run((state) => {
        if (find(state, labelId) === null) throw new Error(`label ${labelId} does not exist`);
        if (priority === null) state.labels.priorities.delete(`${projectId}|${labelId}`);
        else state.labels.priorities.set(`${projectId}|${labelId}`, priority);
      }),
    priorities: (projectId, labelIds) =>
      run((state) => {
        const found = new Map<number, number>();
        for (const id of labelIds) {
          const priority = state.labels.priorities.get(`${projectId}|${id}`);
          if (priority !== undefined) found.set(id, priority);
        }
        return found;
      }),
    subscribe: (labelId, userId) =>
      run((state) => {
        if (find(state, labelId) === null) throw new Error(`label ${labelId} does not exist`);
        const key = `${labelId}|${userId}`;
        if (state.labels.subscriptions.has(key)) return false;
        state.labels.subscriptions.add(key);
        return true;
      }),
    unsubscribe: (labelId, userId) => run((state) => state.labels.subscriptions.delete(`${labelId}|${userId}`)),
    subscribed: (userId, labelIds) => run((state) => new Set(labelIds.filter((id) => state.labels.subscriptions.has(`${id}|${userId}`)))),
    counts: (labelIds, options) => run((state) => new Map(labelIds.map((id) => [id, countLinks(state, id, options.confidential)]))),
  };
}
