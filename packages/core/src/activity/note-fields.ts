/**
 * What every store fills in for a new note's discussion fields, and the rules about notes the
 * reference computes rather than stores (`resolvable?`, `individual_note?`).
 */
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Note, NoteableType, NoteType } from "./types.js";
import type { NewNote } from "../ports/activity-store.js";
import type { Random } from "../ports/runtime.js";
import { systemRandom } from "../runtime/defaults.js";

/** A discussion id: 40 lower-case hex digits (the reference's are SHA-1 digests). */
export const DISCUSSION_ID = /^[0-9a-f]{40}$/;

/** A fresh discussion id from `random`. */
export function newDiscussionId(random: Random = systemRandom): string {
  const bytes = new Uint8Array(20);
  random.read(bytes);
  return encodeHexLowerCase(bytes);
}

/** The discussion fields of a note created from `input` (defaults: a new individual plain note). */
export function newNoteFields(input: NewNote): Pick<Note, "discussionId" | "type" | "position" | "commitId" | "resolvedAt" | "resolvedById" | "importedFrom"> {
  return {
    discussionId: input.discussionId ?? newDiscussionId(),
    type: input.type ?? null,
    position: input.position ?? null,
    commitId: input.commitId ?? null,
    resolvedAt: null,
    resolvedById: null,
    importedFrom: input.importedFrom ?? "none",
  };
}

/** Reference `Noteable.resolvable_types`: only merge-request discussions can be resolved. */
export const isResolvableNoteable = (type: NoteableType): boolean => type === "MergeRequest";

/** Reference `ResolvableNote#resolvable?`: a user's discussion or diff note on a merge request. */
export function isResolvable(note: { noteableType: NoteableType; type: NoteType; system: boolean }): boolean {
  return isResolvableNoteable(note.noteableType) && note.type !== null && !note.system;
}

/** Reference `Discussion#individual_note?`: a discussion of one plain note. */
export const isIndividual = (notes: readonly Pick<Note, "type">[]): boolean => notes.length === 1 && notes[0]?.type === null;

/** Reference `Discussion#resolved?`: resolvable and every resolvable note resolved. */
export function discussionResolved(notes: readonly Note[]): boolean {
  const resolvable = notes.filter(isResolvable);
  return resolvable.length > 0 && resolvable.every((n) => n.resolvedAt !== null);
}
