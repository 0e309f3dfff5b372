/** In-memory {@link UploadRepository}. */
import type { ProjectUpload, UploadRepository } from "../ports/uploads-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/** Drops the upload records of a project (projects.remove; the files go with its repository). */
export function dropProjectUploads(state: MemoryState, projectId: number): void {
  for (const [id, row] of state.uploads.rows) if (row.projectId === projectId) state.uploads.rows.delete(id);
}

/** Forgets a removed user as uploader. */
export function forgetUploader(state: MemoryState, userId: number): void {
  for (const row of [...state.uploads.rows.values()]) if (row.uploaderId === userId) state.uploads.rows.set(row.id, { ...row, uploaderId: null });
}

export function memoryUploads(run: Runner): UploadRepository {
  const mine = (state: MemoryState, projectId: number, id: number) => {
    const row = state.uploads.rows.get(id);
    return row !== undefined && row.projectId === projectId ? row : null;
  };
  return {
    create: (input) =>
      run((state) => {
        if (!state.projects.has(input.projectId)) throw new Error(`project ${input.projectId} does not exist`);
        const row: ProjectUpload = { ...copy(input), id: ++state.uploads.seq };
        state.uploads.rows.set(row.id, row);
        return copy(row);
      }),
    list: (projectId, page) =>
      run((state) => {
        const rows = [...state.uploads.rows.values()].filter((r) => r.projectId === projectId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
        return offsetPage(rows, page, copy);
      }),
    find: (projectId, id) => run((state) => copy(mine(state, projectId, id))),
    findByPath: (projectId, secret, filename) =>
      run((state) => {
        for (const row of state.uploads.rows.values()) if (row.projectId === projectId && row.secret === secret && row.filename === filename) return copy(row);
        return null;
      }),
    remove: (projectId, id) => run((state) => mine(state, projectId, id) !== null && state.uploads.rows.delete(id)),
  };
}
