/** The activity services of one instance: the domain that produces events, and the events themselves. */
import type { ForgekitConfig } from "../config.js";
import { eventsService, type EventsService } from "../events/service.js";
import { issuesService, type IssuesService } from "./issues.js";
import { mergeRequestsService, type MergeRequestsService } from "./merge-requests.js";
import { milestonesService, type MilestonesService } from "./milestones.js";
import { notesService, type NotesService } from "./notes.js";
import { pushesService, type PushesService } from "./pushes.js";
import { snippetsService, type SnippetsService } from "./snippets.js";

/** Every activity service (`fk.issues`, `fk.mergeRequests`, …, `fk.events`). */
export interface ActivityServices {
  /** `fk.issues`. */
  issues: IssuesService;
  /** `fk.mergeRequests`. */
  mergeRequests: MergeRequestsService;
  /** `fk.milestones`. */
  milestones: MilestonesService;
  /** `fk.snippets`. */
  snippets: SnippetsService;
  /** `fk.notes`. */
  notes: NotesService;
  /** `fk.pushes`. */
  pushes: PushesService;
  /** `fk.events`. */
  events: EventsService;
}

/** Builds the activity services over the configuration's store and clock. */
export function activityServices(config: ForgekitConfig): ActivityServices {
  return {
    issues: issuesService(config),
    mergeRequests: mergeRequestsService(config),
    milestones: milestonesService(config),
    snippets: snippetsService(config),
    notes: notesService(config),
    pushes: pushesService(config),
    events: eventsService(config),
  };
}
