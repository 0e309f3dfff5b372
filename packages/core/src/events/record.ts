/**
 * Recording events: the host's `fk.events.record(...)` (for hosts that keep their own issues, merge
 * requests, … and only want forgekit's feeds) and the activity services both end here. Input is
 * checked field by field into the validation body shape (`{"message": {"field": [...]}}`).
 */
import { err, ok, type Result } from "neverthrow";
import { BLANK, INVALID, tooLong } from "../accounts/service-kit.js";
import { errors, type ForgekitError, type ValidationMessages } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { NewEvent } from "../ports/activity-store.js";
import type { TransactionStore } from "../ports/store.js";
import { queueHookDeliveries, type HookPayloadBuilder } from "../webhooks/fanout.js";
import {
  EVENT_ACTIONS,
  EVENT_AUDIENCES,
  EVENT_TARGET_TYPES,
  type Event,
  type EventAction,
  type EventAudience,
  type EventTargetType,
  type NoteData,
  type PushData,
} from "./types.js";

/** Input of {@link recordEvent} and `fk.events.record`. */
export interface RecordEventInput {
  /** The project the event happened in; null for events outside projects (they never appear in feeds). */
  projectId: number | null;
  authorId: number;
  action: EventAction;
  /** What the event is about; absent for pushes and project-level events (created, joined, left). */
  target?: { type: EventTargetType; id: number; iid?: number | null; title?: string | null } | null;
  /** Default `project`: everyone who can read the project. */
  audience?: EventAudience;
  audienceUserId?: number | null;
  /** Required exactly when `action` is `pushed`. */
  push?: PushData | null;
  /** Required exactly when the target is a `Note` (its id is the target id). */
  note?: NoteData | null;
  /** Default: the clock's now (hosts importing history may pass earlier times). */
  createdAt?: Date;
}

const NOT_IN_LIST = "is not included in the list";
const MUST_BE_BLANK = "must be blank";
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const TITLE_MAX = 255;
/** The reference stores push commit titles cut to 70 characters. */
export const COMMIT_TITLE_MAX = 70;

/** Collects messages under `field` or `entity → field` (nested entities nest, spec "Errors" 2). */
class Messages {
  readonly messages: ValidationMessages = {};

  add(field: string, message: string, entity?: string): void {
    const into = entity === undefined ? this.messages : ((this.messages[entity] ??= {}) as ValidationMessages);
    ((into[field] ??= []) as string[]).push(message);
  }

  get empty(): boolean {
    return Object.keys(this.messages).length === 0;
  }
}

const includes = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === "string" && (list as readonly string[]).includes(value);

function checkPush(messages: Messages, push: PushData): void {
  if (!Number.isSafeInteger(push.commitCount) || push.commitCount < 0) messages.add("commit_count", INVALID, "push_data");
  if (!includes(["created", "removed", "pushed"], push.action)) messages.add("action", NOT_IN_LIST, "push_data");
  if (!includes(["branch", "tag"], push.refType)) messages.add("ref_type", NOT_IN_LIST, "push_data");
  if (typeof push.ref !== "string" || push.ref.trim() === "") messages.add("ref", BLANK, "push_data");
  else if (push.ref.length > TITLE_MAX) messages.add("ref", tooLong(TITLE_MAX), "push_data");
  if (push.commitTitle != null && typeof push.commitTitle !== "string") messages.add("commit_title", INVALID, "push_data");
  const sha = (field: "commit_from" | "commit_to", value: string | null, expectBlank: boolean) => {
    if (expectBlank) {
      if (value !== null) messages.add(field, MUST_BE_BLANK, "push_data");
    } else if (value === null) messages.add(field, BLANK, "push_data");
    else if (!SHA.test(value)) messages.add(field, INVALID, "push_data");
  };
  // A created ref has no previous commit, a removed ref no new one (reference push payloads).
  sha("commit_from", push.commitFrom ?? null, push.action === "created");
  sha("commit_to", push.commitTo ?? null, push.action === "removed");
}

function normalisePush(push: PushData): PushData {
  return {
    commitCount: push.commitCount,
    action: push.action,
    refType: push.refType,
    commitFrom: push.commitFrom ?? null,
    commitTo: push.commitTo ?? null,
    ref: push.ref,
    commitTitle: push.commitTitle == null ? null : push.commitTitle.slice(0, COMMIT_TITLE_MAX),
  };
}

function checkNote(messages: Messages, note: NoteData, targetId: number | undefined): void {
  if (!isRecordId(note.id) || note.id !== targetId) messages.add("id", "must be the target id", "note");
  if (typeof note.body !== "string" || note.body.trim() === "") messages.add("body", BLANK, "note");
  if (!isRecordId(note.authorId)) messages.add("author_id", INVALID, "note");
  if (!isRecordId(note.noteableId)) messages.add("noteable_id", INVALID, "note");
  if (!includes(["Issue", "MergeRequest", "Snippet", "Commit"], note.noteableType)) messages.add("noteable_type", NOT_IN_LIST, "note");
  if (!(note.createdAt instanceof Date) || Number.isNaN(note.createdAt.getTime())) messages.add("created_at", INVALID, "note");
}

/** Checks the input and turns it into the row to insert (times copied, commit titles cut to 70 characters). */
export function validateEvent(input: RecordEventInput, now: Date): Result<NewEvent, ForgekitError> {
  const messages = new Messages();
  const target = input.target ?? null;
  const push = input.push ?? null;
  const note = input.note ?? null;
  if (input.projectId !== null && !isRecordId(input.projectId)) messages.add("project_id", INVALID);
  if (!isRecordId(input.authorId)) messages.add("author_id", INVALID);
  if (!includes(EVENT_ACTIONS, input.action)) messages.add("action", NOT_IN_LIST);
  if (target !== null) {
    if (!includes(EVENT_TARGET_TYPES, target.type)) messages.add("target_type", NOT_IN_LIST);
    if (!isRecordId(target.id)) messages.add("target_id", INVALID);
    if (target.iid != null && !isRecordId(target.iid)) messages.add("target_iid", INVALID);
    if (target.title != null && target.title.length > TITLE_MAX) messages.add("target_title", tooLong(TITLE_MAX));
    if (input.action === "pushed") messages.add("target_type", MUST_BE_BLANK);
  }
  if (input.audience !== undefined && !includes(EVENT_AUDIENCES, input.audience)) messages.add("audience", NOT_IN_LIST);
  if (input.audienceUserId != null && !isRecordId(input.audienceUserId)) messages.add("audience_user_id", INVALID);
  if (input.action === "pushed" && push === null) messages.add("push_data", BLANK);
  if (input.action !== "pushed" && push !== null) messages.add("push_data", MUST_BE_BLANK);
  else if (push !== null) checkPush(messages, push);
  const noteTarget = target?.type === "Note";
  if (noteTarget && note === null) messages.add("note", BLANK);
  if (!noteTarget && note !== null) messages.add("note", MUST_BE_BLANK);
  else if (note !== null) checkNote(messages, note, target?.id);
  const createdAt = input.createdAt ?? now;
  if (!(createdAt instanceof Date) || Number.isNaN(createdAt.getTime())) messages.add("created_at", INVALID);
  if (!messages.empty) return err(errors.validation(messages.messages));
  return ok({
      projectId: input.projectId,
      authorId: input.authorId,
      action: input.action,
      targetType: target?.type ?? null,
      targetId: target?.id ?? null,
      targetIid: target === null ? null : (target.iid ?? target.id),
      targetTitle: target?.title ?? null,
      audience: input.audience ?? "project",
      audienceUserId: input.audienceUserId ?? null,
      push: push === null ? null : normalisePush(push),
      note: note === null ? null : { ...note, createdAt: new Date(note.createdAt) },
      createdAt: new Date(createdAt),
  });
}

/** Validates and inserts an event inside `tx`; the author and the project must exist (404 otherwise). */
export async function recordEvent(tx: TransactionStore, input: RecordEventInput, now: Date): Promise<Result<Event, ForgekitError>> {
  const checked = validateEvent(input, now);
  if (checked.isErr()) return err(checked.error);
  if (!(await tx.users.findById(input.authorId))) return err(errors.notFound("User"));
  if (input.projectId !== null && !(await tx.projects.findById(input.projectId))) return err(errors.notFound("Project"));
  await forgetReadme(tx, input);
  return ok(await insertAndQueue(tx, checked.value, now));
}

/** An event older than this when recorded is history (an import), not news for webhooks. */
const BACKDATED_MS = 60_000;

/** Inserts the event and queues its webhook deliveries in the same transaction (webhooks/fanout.ts). */
async function insertAndQueue(tx: TransactionStore, event: NewEvent, now: Date, hook?: HookPayloadBuilder): Promise<Event> {
  const inserted = await tx.activity.events.insert(event);
  // Back-dated events (imported history) happened before any hook could hear of them.
  if (inserted.createdAt.getTime() >= now.getTime() - BACKDATED_MS) await queueHookDeliveries(tx, inserted, now, hook);
  return inserted;
}

/** A branch push may change the default branch's README: the project forgets it (the project entity learns it again). */
async function forgetReadme(tx: TransactionStore, input: RecordEventInput): Promise<void> {
  if (input.projectId !== null && input.action === "pushed" && input.push?.refType === "branch") await tx.projects.update(input.projectId, { readmePath: null });
}

/**
 * Validates and inserts an event the activity services built inside their own transaction (they
 * have already checked the author and project); a validation failure here is a programming error
 * surfaced as the validation error it is. `hook` builds the webhook payload in this transaction
 * (issue and merge request hooks with their `changes`, webhooks/payloads/issuable.ts); without it
 * the payload is built from the stored event when it is sent.
 */
export async function insertEvent(tx: TransactionStore, input: RecordEventInput, now: Date, hook?: HookPayloadBuilder): Promise<Result<Event, ForgekitError>> {
  const checked = validateEvent(input, now);
  return checked.isErr() ? err(checked.error) : ok(await insertAndQueue(tx, checked.value, now, hook));
}
