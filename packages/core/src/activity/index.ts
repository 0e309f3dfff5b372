/** The activity capability's public face: records, services, event types and helpers. */
export * from "./types.js";
export * from "../events/types.js";
export type * from "../ports/activity-store.js";
export type * from "../ports/issue-details-store.js";
export type * from "../ports/group-milestones-store.js";
export type { ActivityServices } from "./services.js";
export type { CreateIssueInput, IssueChanges, IssuesService } from "./issues.js";
export type { CreateMergeRequestInput, MergeRequestsService } from "./merge-requests.js";
export type { CreateMilestoneInput, MilestoneChanges, MilestonesService } from "./milestones.js";
export type { CreateNoteInput, NotesService, NoteTarget } from "./notes.js";
export type { PushesService, RecordPushInput } from "./pushes.js";
export type { CreateSnippetInput, SnippetsService } from "./snippets.js";
export type { EventsService } from "../events/service.js";
export type { EventQuery, OwnEventQuery } from "../events/feeds.js";
export type { RecordEventInput } from "../events/record.js";
export type { PruneOptions, PruneResult } from "../events/retention.js";
