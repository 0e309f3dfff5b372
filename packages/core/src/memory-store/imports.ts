/** In-memory import state, external-id maps and labels (ports/imports-store.ts). */
import type { ExternalIdRepository, ImportsStore, Label, LabelRepository, LabelTargetType, ProjectImport, ProjectImportRepository } from "../ports/imports-store.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import type { ImportsTables } from "./tables.js";

const tables = (state: MemoryState): ImportsTables => state.imports;

function requireProject(state: MemoryState, projectId: number): void {
  if (!state.projects.has(projectId)) throw new Error(`project ${projectId} does not exist`);
}

function memoryProjectImports(run: Runner): ProjectImportRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireProject(state, input.projectId);
        const t = tables(state);
        if (t.projects.has(input.projectId)) return null;
        const row: ProjectImport = {
          projectId: input.projectId,
          source: input.source,
          importSource: input.importSource,
          url: input.url,
          status: "scheduled",
          error: null,
          jobId: input.jobId ?? null,
          userId: input.userId,
          options: input.options,
          credentials: input.credentials,
          stats: "{}",
          checkpoint: null,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        t.projects.set(row.projectId, row);
        return copy(row);
      }),
    find: (projectId) =>
      run((state) => {
        const row = tables(state).projects.get(projectId);
        return row === undefined ? null : copy(row);
      }),
    statuses: (projectIds) =>
      run((state) => {
        const rows = tables(state).projects;
        return new Map(projectIds.flatMap((id) => { const row = rows.get(id); return row === undefined ? [] : [[id, row.status] as const]; }));
      }),
    update: (projectId, from, patch, now) =>
      run((state) => {
        const t = tables(state);
        const row = t.projects.get(projectId);
        if (row === undefined || !from.includes(row.status)) return null;
        const next: ProjectImport = { ...row, ...copy(patch), updatedAt: new Date(now) };
        t.projects.set(projectId, next);
        return copy(next);
      }),
  };
}

const externalKey = (projectId: number, kind: string, externalId: string) => `${projectId}|${kind}|${externalId}`;

function memoryExternalIds(run: Runner): ExternalIdRepository {
  return {
    find: (projectId, kind, externalIds) =>
      run((state) => {
        const map = tables(state).externalIds;
        const found = new Map<string, number>();
        for (const id of externalIds) {
          const record = map.get(externalKey(projectId, kind, id));
          if (record !== undefined) found.set(id, record);
        }
        return found;
      }),
    add: (projectId, kind, externalId, recordId) =>
      run((state) => {
        requireProject(state, projectId);
        const map = tables(state).externalIds;
        const key = externalKey(projectId, kind, externalId);
        if (map.has(key)) return false;
        map.set(key, recordId);
        return true;
      }),
  };
}

const byName = (a: Label, b: Label) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);
const linkKey = (labelId: number, type: LabelTargetType, targetId: number) => `${labelId}|${type}|${targetId}`;

function memoryLabels(run: Runner): LabelRepository {
  return {
    create: (input, now) =>
      run((state) => {
        requireProject(state, input.projectId);
        const t = tables(state);
        for (const row of t.labels.values()) if (row.projectId === input.projectId && row.name === input.name) return null;
        const label: Label = { id: ++t.labelSeq, ...input, groupId: null, createdAt: new Date(now), updatedAt: new Date(now) };
        t.labels.set(label.id, label);
        return copy(label);
      }),
    findByName: (projectId, name) =>
      run((state) => {
        for (const row of tables(state).labels.values()) if (row.projectId === projectId && row.name === name) return copy(row);
        return null;
      }),
    listByProject: (projectId) => run((state) => [...tables(state).labels.values()].filter((row) => row.projectId === projectId).sort(byName).map(copy)),
    link: (labelId, targetType, targetId) =>
      run((state) => {
        const t = tables(state);
        if (!t.labels.has(labelId)) throw new Error(`label ${labelId} does not exist`);
        const key = linkKey(labelId, targetType, targetId);
        if (t.labelLinks.has(key)) return false;
        t.labelLinks.add(key);
        return true;
      }),
    labelsOf: (targetType, targetId) =>
      run((state) => {
        const t = tables(state);
        return [...t.labels.values()].filter((label) => t.labelLinks.has(linkKey(label.id, targetType, targetId))).sort(byName).map(copy);
      }),
  };
}

/** The in-memory {@link ImportsStore}. */
export function memoryImports(run: Runner): ImportsStore {
  return { projects: memoryProjectImports(run), externalIds: memoryExternalIds(run), labels: memoryLabels(run) };
}
