/** Notes on issues, merge requests and snippets (host API: `fk.notes`); a user's note records `commented`. */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import { attempt, BLANK, inTransaction, Messages } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import type { TransactionStore } from "../ports/store.js";
import { issueAudience, noteEvent, snippetAudience, type NoteableFacts } from "./event-inputs.js";
import { foundOr404, isRecordId, projectOr404, userOr404 } from "./kit.js";
import type { Note, NoteableType } from "./types.js";

/** What a note is on: an issue or merge request by project and iid, or a snippet by id. */
export type NoteTarget = { type: "Issue" | "MergeRequest"; projectId: number; iid: number } | { type: "Snippet"; id: number };

/** Input of {@link NotesService.create}. */
export interface CreateNoteInput {
  on: NoteTarget;
  authorId: number;
  body: string;
  /** A note the system writes (default false); system notes record no event (reference). */
  system?: boolean;
}

/** Notes service. Callers are trusted: no permission checks. */
export interface NotesService {
  /** 404 `Issue` / `Merge Request` / `Snippet` / `Project` / `User`; 400 `note can't be blank`. */
  create(input: CreateNoteInput): ResultAsync<Note, ForgekitError>;
  /** Notes on the target, oldest first. */
  list(on: NoteTarget): ResultAsync<Note[], ForgekitError>;
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
          const now = clock.now();
          const noteable = await resolve(tx, input.on);
          if (noteable.isErr()) return err(noteable.error);
          const author = await userOr404(tx, input.authorId);
          if (author.isErr()) return err(author.error);
          const { type, id, projectId } = noteable.value;
          const note = await tx.activity.notes.create({ projectId, noteableType: type, noteableId: id, authorId: input.authorId, body: input.body, system: input.system ?? false }, now);
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
  };
}
