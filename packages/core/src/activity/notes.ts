/** Notes on issues, merge requests and snippets (host API: `fk.notes`); a user's note records `commented`. */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt, BLANK, inTransaction, Messages } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import type { TransactionStore } from "../ports/store.js";
import { issueAudience, noteEvent, snippetAudience, type NoteableFacts } from "./event-inputs.js";
import { foundOr404, isRecordId, pageOr400, projectOr404, userOr404, vanished } from "./kit.js";
import type { DiffPosition, Note, NoteableType, NoteType } from "./types.js";

/** What a note is on: an issue or merge request by project and iid, or a snippet by id. */
export type NoteTarget = { type: "Issue" | "MergeRequest"; projectId: number; iid: number } | { type: "Snippet"; id: number };

/** Input of {@link NotesService.create}. */
export interface CreateNoteInput {
  on: NoteTarget;
  authorId: number;
  body: string;
  /** A note the system writes (default false); system notes record no event (reference). */
  system?: boolean;
  /** The note's discussion (omitted: a new individual note), its type, and a diff note's position and commit. */
  discussion?: {
    id?: string;
    type: NoteType;
    position?: DiffPosition | null;
    commitId?: string | null;
    /** An individual note this reply turns into a `DiscussionNote`, in the same transaction (reference `convert_to_discussion!`). */
    converts?: number;
  };
  /** When the note was made (default now; the reference lets administrators and owners set it). */
  createdAt?: Date;
}

/** Notes service. Callers are trusted: no permission checks. */
export interface NotesService {
  /** 404 `Issue` / `Merge Request` / `Snippet` / `Project` / `User`; 400 `note can't be blank`. */
  create(input: CreateNoteInput): ResultAsync<Note, ForgekitError>;
  /** Notes on the target, oldest first. */
  list(on: NoteTarget): ResultAsync<Note[], ForgekitError>;
  /** One page of the target's notes by `orderBy` then id, in `sort` direction. 404 for the target; 400 bad page. */
  page(on: NoteTarget, order: { orderBy: "created_at" | "updated_at"; sort: "asc" | "desc" }, page: OffsetPageRequest): ResultAsync<OffsetPageResult<Note>, ForgekitError>;
  /** The note with `noteId` on the target; `404 Note Not Found` when it is on something else. */
  find(on: NoteTarget, noteId: number): ResultAsync<Note, ForgekitError>;
  /** Replaces the body of a user's note (no event: reference). 400 blank; 403 for system notes (read-only). */
  update(on: NoteTarget, noteId: number, body: string): ResultAsync<Note, ForgekitError>;
  /** Deletes a user's note; 403 for system notes. */
  remove(on: NoteTarget, noteId: number): ResultAsync<void, ForgekitError>;
}

async function noteOn(tx: TransactionStore, on: NoteTarget, noteId: number): Promise<Result<Note, ForgekitError>> {
  const noteable = await resolve(tx, on);
  if (noteable.isErr()) return err(noteable.error);
  const note = isRecordId(noteId) ? await tx.activity.notes.findById(noteId) : null;
  const matches = note !== null && note.noteableType === noteable.value.type && note.noteableId === noteable.value.id;
  return matches ? ok(note) : err(errors.notFound("Note"));
}

/** A user's note, or 403: system notes are read-only (reference NotePolicy: not editable). */
async function editableNote(tx: TransactionStore, on: NoteTarget, noteId: number): Promise<Result<Note, ForgekitError>> {
  const note = await noteOn(tx, on, noteId);
  return note.andThen((n) => (n.system ? err(errors.forbidden()) : ok(n)));
}

interface Noteable extends NoteableFacts {
  type: NoteableType;
  id: number;
  projectId: number | null;
}

async function resolve(tx: TransactionStore, on: NoteTarget): Promise<Result<Noteable, ForgekitError>> {
  if (on.type === "Snippet") {
    const found = foundOr404(isRecordId(on.id) ? await tx.activity.snippets.findById(on.id) : null, "Snippet");
    return found.map((s) => ({ type: "Snippet", id: s.id, projectId: s.projectId, iid: null, audience: snippetAudience(s) }));
  }
  const project = await projectOr404(tx, on.projectId);
  if (project.isErr()) return err(project.error);
  const valid = isRecordId(on.iid);
  if (on.type === "Issue") {
    const found = foundOr404(valid ? await tx.activity.issues.findByIid(on.projectId, on.iid) : null, "Issue");
    return found.map((i) => ({ type: "Issue", id: i.id, projectId: i.projectId, iid: i.iid, audience: issueAudience(i) }));
  }
  const found = foundOr404(valid ? await tx.activity.mergeRequests.findByIid(on.projectId, on.iid) : null, "Merge Request");
  return found.map((m) => ({ type: "MergeRequest", id: m.id, projectId: m.projectId, iid: m.iid, audience: { audience: "project", audienceUserId: null } }));
}

/** Builds the notes service. */
export function notesService(config: ForgekitConfig): NotesService {
  const { store, clock } = config;
  return {
    create(input) {
      const messages = new Messages();
      // The reference names the body `note` (`{"message":{"note":["can't be blank"]}}`).
      if (typeof input.body !== "string" || input.body.trim() === "") messages.add("note", BLANK);
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const now = input.createdAt ?? clock.now();
          const noteable = await resolve(tx, input.on);
          if (noteable.isErr()) return err(noteable.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const { type, id, projectId } = noteable.value;
          const d = input.discussion;
          const discussion = d === undefined ? {} : { ...(d.id === undefined ? {} : { discussionId: d.id }), type: d.type, position: d.position ?? null, commitId: d.commitId ?? null };
          const note = await tx.activity.notes.create({ projectId, noteableType: type, noteableId: id, authorId: input.authorId, body: input.body, system: input.system ?? false, ...discussion }, now);
          if (d?.converts !== undefined) await tx.discussions.setType(d.converts, "DiscussionNote");
          if (note.system) return ok(note);
          const event = await insertEvent(tx, noteEvent(note, noteable.value), now);
          return event.map(() => note);
        }),
      );
    },
    list: (on) =>
      attempt(async () => {
        const noteable = await resolve(store, on);
        return noteable.isErr() ? err(noteable.error) : ok(await store.activity.notes.listByNoteable(noteable.value.type, noteable.value.id));
      }),
    page: (on, order, page) =>
      attempt(async () => {
        const noteable = await resolve(store, on);
        if (noteable.isErr()) return err(noteable.error);
        const valid = pageOr400(page);
        if (valid.isErr()) return err(valid.error);
        return ok(await store.activity.issueDetails.listNotes(noteable.value.type, noteable.value.id, order.orderBy, order.sort, page));
      }),
    find: (on, noteId) => attempt(() => noteOn(store, on, noteId)),
    update(on, noteId, body) {
      const messages = new Messages();
      if (typeof body !== "string" || body.trim() === "") messages.add("note", BLANK);
      return messages.result(body).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const note = await editableNote(tx, on, noteId);
          if (note.isErr()) return err(note.error);
          const updated = await tx.activity.issueDetails.updateNote(note.value.id, body, clock.now());
          return updated === null ? err(vanished("note")) : ok(updated);
        }),
      );
    },
    remove: (on, noteId) =>
      inTransaction(store, async (tx) => {
        const note = await editableNote(tx, on, noteId);
        if (note.isErr()) return err(note.error);
        await tx.activity.issueDetails.removeNote(note.value.id);
        return ok(undefined);
      }),
  };
}
