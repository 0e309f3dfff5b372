/**
 * Event records (spec "Event" resource): what happened, by whom, in which project, to what. Events
 * carry the facts their JSON entity shows (target iid and title, note and push payloads) as of the
 * moment they were recorded, and the audience that may see them, so a feed is one indexed query
 * and a host recording events about its own domain needs no forgekit tables for its targets.
 */

/** Actions (reference `Event.actions`, in the order of their integer values 1…12). */
export const EVENT_ACTIONS = [
  "created",
  "updated",
  "closed",
  "reopened",
  "pushed",
  "commented",
  "merged",
  "joined",
  "left",
  "destroyed",
  "expired",
  "approved",
] as const;
/** What an event records (`created`, `closed`, `pushed to`, `commented on`, …). */
export type EventAction = (typeof EVENT_ACTIONS)[number];

/**
 * Target types, capitalised as the entity shows them; the lowercase `target_type` filter values of
 * the spec map onto these. Epics are not among them: the spec says epic events are not available,
 * so they are never recorded and never returned.
 */
export const EVENT_TARGET_TYPES = ["Issue", "Milestone", "MergeRequest", "Note", "Project", "Snippet", "User"] as const;
/** The kind of record an event is about (issue, merge request, note, milestone, …). */
export type EventTargetType = (typeof EVENT_TARGET_TYPES)[number];

/** The spec's lowercase `target_type` filter values → the stored type. */
export const TARGET_TYPE_FILTERS = {
  issue: "Issue",
  milestone: "Milestone",
  merge_request: "MergeRequest",
  note: "Note",
  project: "Project",
  snippet: "Snippet",
  user: "User",
} as const satisfies Record<string, EventTargetType>;
/** A `target_type` value the event lists accept as a filter. */
export type TargetTypeFilter = keyof typeof TARGET_TYPE_FILTERS;

/**
 * Who may see an event, beyond being able to read its project (ordered from widest to narrowest):
 * - `project`: everyone who can read the project;
 * - `signed_in`: signed-in users who can read the project (internal snippets);
 * - `members`: project members at any level, administrators, and `audienceUserId` (private snippets);
 * - `reporters`: members at Reporter or above, administrators, and `audienceUserId` (confidential
 *   issues and their notes; the issue's author keeps seeing them).
 */
export const EVENT_AUDIENCES = ["project", "signed_in", "members", "reporters"] as const;
/**
 * Who may see an event: derived from the visibility of its project or group and the confidentiality of its
 * target.
 */
export type EventAudience = (typeof EVENT_AUDIENCES)[number];

/** What a push event says about the push (spec "Push data object"). */
export interface PushData {
  commitCount: number;
  action: "created" | "removed" | "pushed";
  refType: "branch" | "tag";
  /** Null when the ref was created. */
  commitFrom: string | null;
  /** Null when the ref was removed. */
  commitTo: string | null;
  ref: string;
  /** Title of the newest commit, at most 70 characters (reference `commit_title`); null without commits. */
  commitTitle: string | null;
}

/** The note a `Note` event is about (spec "Note object"), as it was when the event was recorded. */
export interface NoteData {
  id: number;
  body: string;
  attachment: string | null;
  authorId: number;
  createdAt: Date;
  system: boolean;
  noteableType: string;
  noteableId: number;
  /** The noteable's iid for issues and merge requests, else null. */
  noteableIid: number | null;
}

/** An event to insert; `createdAt` is the event's time (recorders pass the clock's now). */
export interface NewEvent {
  /** Null for events outside projects (notes on personal snippets, personal snippets): those are never listed in feeds. */
  projectId: number | null;
  authorId: number;
  action: EventAction;
  /** Null for pushes and for project-level events (created, joined, left). */
  targetType: EventTargetType | null;
  targetId: number | null;
  /** The target's iid when it has one, else its id (reference `target_iid`); null without a target. */
  targetIid: number | null;
  targetTitle: string | null;
  audience: EventAudience;
  /** A user who always sees the event when they can read the project (the confidential issue's or private snippet's author). */
  audienceUserId: number | null;
  /** Set exactly on `pushed` events. */
  push: PushData | null;
  /** Set exactly on events whose target is a `Note`. */
  note: NoteData | null;
  createdAt: Date;
}

/** A stored event. */
export interface Event extends NewEvent {
  id: number;
}

/** Events older than this many years are removed (spec "Limits": event retention 3 years). */
export const EVENT_RETENTION_YEARS = 3;
