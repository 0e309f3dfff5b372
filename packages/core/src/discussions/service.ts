/**
 * Discussions (reference `Discussion`, `Notes::CreateService` with `in_reply_to_discussion_id`,
 * `Discussions::ResolveService`): start one, reply to one, read them, resolve them. Notes are
 * written through the notes service, so a user's note records `commented` as every note does.
 * Callers are trusted: permission checks belong to the routes.
 */
import { err, ok, type ResultAsync } from "neverthrow";
import { attempt, inTransaction } from "../accounts/service-kit.js";
import { isResolvable, newDiscussionId } from "../activity/note-fields.js";
import type { NotesService, NoteTarget } from "../activity/notes.js";
import type { DiffPosition, Note, NoteableType } from "../activity/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { DiscussionRecord } from "../ports/discussions-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";

/** A noteable by type and record id, with the target the notes service takes. */
export interface NoteableRef {
  target: NoteTarget;
  type: NoteableType;
  id: number;
}

/** Input of {@link DiscussionsService.start} and {@link DiscussionsService.reply}. */
export interface DiscussionNoteInput {
  authorId: number;
  body: string;
  createdAt?: Date;
}

/** Discussions service. */
export interface DiscussionsService {
  /** One page of the noteable's discussions, oldest first. */
  page(on: NoteableRef, page: OffsetPageRequest): ResultAsync<OffsetPageResult<DiscussionRecord>, ForgekitError>;
  /** The discussion `discussionId` of the noteable; 404 `Discussion`. */
  find(on: NoteableRef, discussionId: string): ResultAsync<DiscussionRecord, ForgekitError>;
  /** Starts a discussion: a `DiscussionNote`, or with `position` a `DiffNote` (validated by the caller). */
  start(on: NoteableRef, input: DiscussionNoteInput & { position?: DiffPosition }): ResultAsync<DiscussionRecord, ForgekitError>;
  /**
   * Replies to a discussion (404 `Discussion`). An individual note becomes a `DiscussionNote` when
   * first replied to; a system note, or a snippet's individual note, cannot be replied to (400). The
   * reply takes the discussion's type and position (a diff discussion's replies are diff notes).
   */
  reply(on: NoteableRef, discussionId: string, input: DiscussionNoteInput): ResultAsync<Note, ForgekitError>;
  /** Resolves or unresolves one note (400 `Note is not resolvable`); returns it. */
  resolveNote(note: Note, resolved: boolean, byId: number): ResultAsync<Note, ForgekitError>;
  /** Resolves or unresolves every resolvable note of the discussion; returns the discussion. */
  resolveDiscussion(on: NoteableRef, discussion: DiscussionRecord, resolved: boolean, byId: number): ResultAsync<DiscussionRecord, ForgekitError>;
}

/** Builds the discussions service over the notes service. */
export function discussionsService(config: ForgekitConfig, notes: NotesService): DiscussionsService {
  const { store, clock } = config;
  const find = async (on: NoteableRef, discussionId: string) => {
    const found = await store.discussions.notesOf(on.type, on.id, discussionId);
    return found.length === 0 ? err(errors.notFound("Discussion")) : ok({ id: discussionId, notes: found });
  };
  const at = (input: DiscussionNoteInput) => (input.createdAt === undefined ? {} : { createdAt: input.createdAt });
  return {
    page: (on, page) => attempt(async () => ok(await store.discussions.page(on.type, on.id, page))),
    find: (on, discussionId) => attempt(() => find(on, discussionId)),
    start: (on, input) =>
      notes
        .create({
          on: on.target,
          authorId: input.authorId,
          body: input.body,
          ...at(input),
          discussion: input.position === undefined ? { id: newDiscussionId(config.random), type: "DiscussionNote" } : { id: newDiscussionId(config.random), type: "DiffNote", position: input.position },
        })
        .map((note) => ({ id: note.discussionId, notes: [note] })),
    reply: (on, discussionId, input) =>
      attempt(() => find(on, discussionId)).andThen(({ notes: thread }) => {
        const first = thread[0] as Note;
        const individual = thread.length === 1 && first.type === null;
        if (first.system || (individual && on.type === "Snippet")) return err(errors.badRequest("Discussion can not be replied to."));
        // Reference `Note#convert_to_discussion!` when an individual note gets its first reply.
        const reply = { id: discussionId, type: first.type ?? "DiscussionNote", position: first.position, commitId: first.commitId, ...(individual ? { converts: first.id } : {}) } as const;
        return notes.create({ on: on.target, authorId: input.authorId, body: input.body, ...at(input), discussion: reply });
      }),
    resolveNote: (note, resolved, byId) =>
      isResolvable(note)
        ? inTransaction(store, async (tx) => {
            await tx.discussions.setResolved([note.id], resolved ? { byId, at: clock.now() } : null);
            const fresh = await tx.activity.notes.findById(note.id);
            return fresh === null ? err(errors.notFound("Note")) : ok(fresh);
          })
        : attempt(async () => err(errors.badRequest("Note is not resolvable"))),
    resolveDiscussion: (on, discussion, resolved, byId) =>
      inTransaction(store, async (tx) => {
        const ids = discussion.notes.filter(isResolvable).map((n) => n.id);
        await tx.discussions.setResolved(ids, resolved ? { byId, at: clock.now() } : null);
        return ok({ id: discussion.id, notes: await tx.discussions.notesOf(on.type, on.id, discussion.id) });
      }),
  };
}

