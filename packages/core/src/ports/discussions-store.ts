/**
 * Discussions (reference `Discussion`): the notes of one noteable grouped by their `discussionId`.
 * A plain note is a discussion of its own (an individual note); replies share the first note's id.
 * Reached as `store.discussions`; notes themselves stay in `store.activity.notes`.
 */
import type { Note, NoteableType, NoteType } from "../activity/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** One discussion: its id and its notes, oldest first (never empty). */
export interface DiscussionRecord {
  id: string;
  notes: Note[];
}

/** Who resolved notes and when; null to unresolve them. */
export type Resolution = { byId: number; at: Date } | null;

/** The store's discussions. */
export interface DiscussionRepository {
  /**
   * One page of the noteable's discussions, ordered by their first note's id (oldest first), each
   * with all its notes by id; `total` counts discussions (bounded as every list is).
   */
  page(noteableType: NoteableType, noteableId: number, page: OffsetPageRequest): Promise<OffsetPageResult<DiscussionRecord>>;
  /** The notes of discussion `discussionId` on the noteable, by id; empty when it has none. */
  notesOf(noteableType: NoteableType, noteableId: number, discussionId: string): Promise<Note[]>;
  /** Sets a note's type (an individual note becomes a `DiscussionNote` when first replied to); false for an unknown id. */
  setType(noteId: number, type: NoteType): Promise<boolean>;
  /**
   * Resolves (or with null unresolves) the notes `noteIds`. Resolving leaves notes already resolved
   * as they were (their resolver and time stay); returns how many notes changed.
   */
  setResolved(noteIds: readonly number[], resolution: Resolution): Promise<number>;
  /** How many resolvable notes (not system, typed) on the noteable are unresolved. */
  countUnresolved(noteableType: NoteableType, noteableId: number): Promise<number>;
}
