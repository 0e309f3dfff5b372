/** In-memory {@link DiscussionRepository}: discussions are the notes table grouped by `discussionId`. */
import type { Note, NoteableType } from "../activity/types.js";
import { isResolvable } from "../activity/note-fields.js";
import type { DiscussionRecord, DiscussionRepository } from "../ports/discussions-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/** A removed user no longer shows as the resolver of notes (SQL: `ON DELETE SET NULL`). */
export function forgetResolver(state: MemoryState, userId: number): void {
  for (const note of [...state.activity.notes.values()]) if (note.resolvedById === userId) state.activity.notes.set(note.id, { ...note, resolvedById: null });
}

function notesOn(state: MemoryState, noteableType: NoteableType, noteableId: number): Note[] {
  return [...state.activity.notes.values()].filter((n) => n.noteableType === noteableType && n.noteableId === noteableId).sort((a, b) => a.id - b.id);
}

export function memoryDiscussions(run: Runner): DiscussionRepository {
  return {
    page: (noteableType, noteableId, page) =>
      run((state) => {
        const groups = new Map<string, Note[]>();
        for (const note of notesOn(state, noteableType, noteableId)) groups.set(note.discussionId, [...(groups.get(note.discussionId) ?? []), note]);
        const discussions: DiscussionRecord[] = [...groups].map(([id, notes]) => ({ id, notes }));
        return offsetPage(discussions, page, (d) => ({ id: d.id, notes: d.notes.map(copy) }));
      }),
    notesOf: (noteableType, noteableId, discussionId) => run((state) => notesOn(state, noteableType, noteableId).filter((n) => n.discussionId === discussionId).map(copy)),
    setType: (noteId, type) =>
      run((state) => {
        const note = state.activity.notes.edit(noteId);
        if (note === undefined) return false;
        note.type = type;
        return true;
      }),
    setResolved: (noteIds, resolution) =>
      run((state) => {
        let changed = 0;
        for (const id of noteIds) {
          const note = state.activity.notes.get(id);
          if (note === undefined || (resolution === null) === (note.resolvedAt === null)) continue;
          state.activity.notes.set(id, { ...note, resolvedAt: resolution === null ? null : new Date(resolution.at), resolvedById: resolution === null ? null : resolution.byId });
          changed += 1;
        }
        return changed;
      }),
    countUnresolved: (noteableType, noteableId) => run((state) => notesOn(state, noteableType, noteableId).filter((n) => isResolvable(n) && n.resolvedAt === null).length),
  };
}
