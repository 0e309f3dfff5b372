/** In-memory {@link CommitStatusRepository}: external pipelines and the commit statuses in them. */
import type { CommitStatusRecord, CommitStatusRepository, PipelineListFilter, PipelineRecord } from "../ports/statuses-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/** Drops the pipelines and statuses of a removed project. */
export function dropProjectStatuses(state: MemoryState, projectId: number): void {
  for (const table of [state.statuses.pipelines, state.statuses.statuses] as Map<number, { projectId: number }>[]) {
    for (const [key, row] of table) if (row.projectId === projectId) table.delete(key);
  }
}

/** Forgets a removed user as author of pipelines and statuses (the rows stay, as the reference keeps them). */
export function forgetStatusAuthor(state: MemoryState, userId: number): void {
  for (const p of [...state.statuses.pipelines.values()]) if (p.userId === userId) state.statuses.pipelines.set(p.id, { ...p, userId: null });
  for (const s of [...state.statuses.statuses.values()]) if (s.authorId === userId) state.statuses.statuses.set(s.id, { ...s, authorId: null });
}

function pipelineKey(p: PipelineRecord, orderBy: PipelineListFilter["orderBy"]): number | string {
  switch (orderBy) {
    case "status":
      return p.status;
    case "ref":
      return p.ref;
    case "updated_at":
      return p.updatedAt.getTime();
    case "user_id":
      return p.userId ?? -1;
    case "id":
      return p.id;
  }
}

export function memoryStatuses(run: Runner): CommitStatusRepository {
  return {
    newestPipeline: (projectId, match) =>
      run((s) => {
        const found = [...s.statuses.pipelines.values()]
          .filter((p) => p.projectId === projectId && p.sha === match.sha && (match.ref === undefined || p.ref === match.ref) && (match.id === undefined || p.id === match.id))
          .sort((a, b) => b.id - a.id)[0];
        return found === undefined ? null : copy(found);
      }),
    createPipeline: (input, now) =>
      run((s) => {
        const id = ++s.statuses.seq.pipelines;
        const iid = Math.max(0, ...[...s.statuses.pipelines.values()].filter((p) => p.projectId === input.projectId).map((p) => p.iid)) + 1;
        const row: PipelineRecord = { id, iid, ...input, status: "created", createdAt: now, updatedAt: now, startedAt: null, finishedAt: null };
        s.statuses.pipelines.set(id, copy(row));
        return row;
      }),
    findPipeline: (projectId, id) =>
      run((s) => {
        const p = s.statuses.pipelines.get(id);
        return p === undefined || p.projectId !== projectId ? null : copy(p);
      }),
    updatePipeline: (id, edit, now) =>
      run((s) => {
        const p = s.statuses.pipelines.edit(id);
        if (p === undefined) return null;
        Object.assign(p, copy(edit), { updatedAt: now });
        return copy(p);
      }),
    listPipelines: (f, page) =>
      run((s) => {
        const dir = f.sort === "asc" ? 1 : -1;
        const rows = [...s.statuses.pipelines.values()]
          .filter((p) => p.projectId === f.projectId && (f.sha === undefined || p.sha === f.sha) && (f.ref === undefined || p.ref === f.ref) && (f.statuses === undefined || f.statuses.includes(p.status)) && (f.userId === undefined || p.userId === f.userId))
          .sort((a, b) => {
            const ka = pipelineKey(a, f.orderBy);
            const kb = pipelineKey(b, f.orderBy);
            return (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id) * dir;
          });
        return offsetPage(rows, page, copy);
      }),
    findActiveStatus: (pipelineId, match) =>
      run((s) => {
        const found = [...s.statuses.statuses.values()]
          .filter((c) => c.pipelineId === pipelineId && c.ref === match.ref && c.name === match.name && c.authorId === match.authorId && (c.status === "pending" || c.status === "running"))
          .sort((a, b) => b.id - a.id)[0];
        return found === undefined ? null : copy(found);
      }),
    createStatus: (input, now) =>
      run((s) => {
        const id = ++s.statuses.seq.statuses;
        for (const other of [...s.statuses.statuses.values()]) if (other.pipelineId === input.pipelineId && other.name === input.name) s.statuses.statuses.set(other.id, { ...other, retried: true });
        const row: CommitStatusRecord = { id, ...copy(input), retried: false, createdAt: now, updatedAt: now };
        s.statuses.statuses.set(id, copy(row));
        return row;
      }),
    updateStatus: (id, edit, now) =>
      run((s) => {
        const c = s.statuses.statuses.edit(id);
        if (c === undefined) return null;
        Object.assign(c, copy(edit), { updatedAt: now });
        return copy(c);
      }),
    latestStatuses: (pipelineId) =>
      run((s) =>
        [...s.statuses.statuses.values()]
          .filter((c) => c.pipelineId === pipelineId && !c.retried)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    listStatuses: (f, page) =>
      run((s) => {
        const rows = [...s.statuses.statuses.values()]
          .filter((c) => c.projectId === f.projectId && c.sha === f.sha && (f.all || !c.retried) && (f.ref === undefined || c.ref === f.ref) && (f.name === undefined || c.name === f.name))
          .sort((a, b) => a.id - b.id);
        return offsetPage(rows, page, copy);
      }),
  };
}
