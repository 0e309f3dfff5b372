/** The human-readable `action_name` of an event (reference §2.3, `Event#action_name`). */
import type { Event } from "./types.js";

/**
 * The reference's branches, in its order: pushes by what the push did; then closed, merged
 * ("accepted"), joined, left, expired, destroyed, commented; a `created` event without a target
 * (a project was created); approved; and "opened" for everything else — created issues, merge
 * requests, milestones and snippets, but also `reopened` and `updated` (reference behaviour, kept
 * for client compatibility).
 */
export function actionName(event: Pick<Event, "action" | "targetType" | "push">): string {
  if (event.action === "pushed" && event.push !== null) {
    if (event.push.action === "created") return "pushed new";
    if (event.push.action === "removed") return "deleted";
    return "pushed to";
  }
  switch (event.action) {
    case "closed":
      return "closed";
    case "merged":
      return "accepted";
    case "joined":
      return "joined";
    case "left":
      return "left";
    case "expired":
      return "removed due to membership expiration from";
    case "destroyed":
      return "destroyed";
    case "commented":
      return "commented on";
    case "approved":
      return "approved";
    case "created":
      return event.targetType === null ? "created" : "opened";
    default:
      return "opened";
  }
}
