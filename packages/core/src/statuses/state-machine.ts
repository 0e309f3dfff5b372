/**
 * The commit-status state machine and the pipeline status derived from it (reference `HasStatus`,
 * `CommitStatus` state machine, `Ci::CreateCommitStatusService#apply_job_state!`,
 * `Gitlab::Ci::Status::Composite`). A post updates the author's pending or running status of the
 * same name and ref, else starts a new one in `created`; each requested state fires the
 * reference's events, and an event the current state refuses is the reference's 400 message.
 */
import type { CommitStatusState } from "../ports/statuses-store.js";

/** States a status may be posted with (reference `values` of `state`). */
export const POSTED_STATES = ["pending", "running", "success", "failed", "canceled", "skipped"] as const;
/** A state a client may post. */
export type PostedState = (typeof POSTED_STATES)[number];

type Event = "enqueue" | "run" | "success" | "drop" | "cancel" | "skip";

/** From which states each event leaves, and where to (reference `CommitStatus` / `Ci::Processable`). */
const EVENTS: Record<Event, { from: readonly CommitStatusState[]; to: CommitStatusState }> = {
  enqueue: { from: ["created", "skipped"], to: "pending" },
  run: { from: ["pending"], to: "running" },
  success: { from: ["created", "pending", "running"], to: "success" },
  drop: { from: ["created", "pending", "running"], to: "failed" },
  cancel: { from: ["created", "pending", "running"], to: "canceled" },
  skip: { from: ["created", "pending"], to: "skipped" },
};

/** Events each posted state fires; a `?` event is tried quietly (reference `job.enqueue` without `!`). */
const FIRED: Record<PostedState, readonly (Event | `${Event}?`)[]> = {
  pending: ["enqueue"],
  running: ["enqueue?", "run"],
  success: ["success"],
  failed: ["drop"],
  canceled: ["cancel"],
  skipped: ["skip"],
};

/** The state after posting `requested` to a status in `current`, or the reference's refusal message. */
export function transition(current: CommitStatusState, requested: PostedState): { state: CommitStatusState } | { refused: string } {
  let state = current;
  for (const fired of FIRED[requested]) {
    const quiet = fired.endsWith("?");
    const event = (quiet ? fired.slice(0, -1) : fired) as Event;
    const rule = EVENTS[event];
    if (rule.from.includes(state)) state = rule.to;
    else if (!quiet) return { refused: `Cannot transition status via :${event} from :${state} (Reason(s): Status cannot transition via "${event}")` };
  }
  return { state };
}

/** Whether a status in this state has finished (reference `COMPLETED_STATUSES`). */
export const isCompleted = (state: CommitStatusState): boolean => state === "success" || state === "failed" || state === "canceled" || state === "skipped";

/** Whether a pipeline in this state is still active (reference `ACTIVE_STATUSES` plus `created`). */
export const isActive = (state: CommitStatusState): boolean => state === "created" || state === "pending" || state === "running";

/** The composite status of a pipeline's latest statuses (reference `Gitlab::Ci::Status::Composite`, without allowed failures: generic statuses never allow them). */
export function compositeStatus(states: readonly CommitStatusState[]): CommitStatusState {
  const set = new Set(states);
  const only = (...allowed: CommitStatusState[]) => [...set].every((s) => allowed.includes(s));
  if (set.size === 0 || only("skipped")) return "skipped";
  if (only("success", "skipped")) return "success";
  if (only("created")) return "created";
  if (only("canceled", "success", "skipped")) return "canceled";
  if (only("pending", "created", "skipped")) return "pending";
  if (set.has("running") || set.has("pending")) return "running";
  if (set.has("created")) return "running";
  return "failed";
}
