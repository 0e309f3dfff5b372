/** Schemas of issues, notes, milestones, discussions, snippets and notification settings. */
import * as z from "zod";
import type { groupMilestoneEntity, issueEntity, milestoneEntity, noteEntity } from "../../activity/entities.js";
import type { discussionEntity } from "../../discussions/entities.js";
import type { snippetEntity } from "../../snippets-api/entities.js";
import { labelBasicSchema } from "./labels.js";
import { date, type Fits, type Holds, int, timeStatsSchema, timestamp, url, userBasicSchema } from "./common.js";

export const milestoneSchema = z
  .object({
    id: int,
    iid: int,
    project_id: int,
    title: z.string(),
    description: z.string(),
    state: z.enum(["active", "closed"]),
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    due_date: date.nullable(),
    start_date: date.nullable(),
    expired: z.boolean(),
    web_url: url,
  })
  .meta({ description: "Project milestone (reference `Milestone`)" });

export const groupMilestoneSchema = milestoneSchema
  .omit({ project_id: true })
  .extend({ group_id: int })
  .meta({ description: "Group milestone (reference `Milestone`)" });

const references = z.object({ short: z.string(), relative: z.string(), full: z.string() });

export const issueSchema = z
  .object({
    id: int,
    iid: int,
    project_id: int,
    title: z.string(),
    description: z.string(),
    state: z.enum(["opened", "closed"]),
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    closed_at: timestamp.nullable(),
    closed_by: userBasicSchema.nullable(),
    labels: z.array(z.union([z.string(), labelBasicSchema])).meta({ description: "names; label objects with `with_labels_details=true`" }),
    milestone: milestoneSchema.nullable(),
    assignees: z.array(userBasicSchema),
    author: userBasicSchema.nullable(),
    type: z.string(),
    assignee: userBasicSchema.nullable(),
    user_notes_count: int,
    merge_requests_count: int,
    upvotes: int,
    downvotes: int,
    due_date: date.nullable(),
    confidential: z.boolean(),
    discussion_locked: z.boolean().nullable(),
    issue_type: z.string(),
    web_url: url,
    time_stats: timeStatsSchema,
    task_completion_status: z.object({ count: int, completed_count: int }),
    has_tasks: z.boolean(),
    task_status: z.string().optional().meta({ description: "only when the description has tasks" }),
    blocking_issues_count: int,
    _links: z.object({ self: url, notes: url, award_emoji: url, project: url, closed_as_duplicate_of: url.nullable() }),
    references,
    severity: z.string(),
    moved_to_id: int.nullable(),
    imported: z.boolean(),
    imported_from: z.string(),
    service_desk_reply_to: z.string().nullable(),
  })
  .meta({ description: "Issue (reference `Issue`)" });

const lineEnd = z.object({ line_code: z.string().nullable(), type: z.string().nullable(), old_line: int.nullable(), new_line: int.nullable() }).nullable();
export const positionSchema = z.object({
  base_sha: z.string().nullable(),
  start_sha: z.string().nullable(),
  head_sha: z.string().nullable(),
  old_path: z.string().nullable(),
  new_path: z.string().nullable(),
  position_type: z.string(),
  old_line: int.nullable(),
  new_line: int.nullable(),
  line_range: z.object({ start: lineEnd, end: lineEnd }).nullable(),
});

export const noteSchema = z
  .object({
    id: int,
    type: z.enum(["DiscussionNote", "DiffNote"]).nullable(),
    body: z.string(),
    attachment: z.null(),
    author: userBasicSchema.nullable(),
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    system: z.boolean(),
    noteable_id: int,
    noteable_type: z.string(),
    project_id: int.nullable(),
    commit_id: z.string().nullable().optional().meta({ description: "a merge request's diff notes only" }),
    position: positionSchema.optional().meta({ description: "diff notes only" }),
    resolvable: z.boolean(),
    resolved: z.boolean().optional().meta({ description: "resolvable notes only" }),
    resolved_by: userBasicSchema.nullable().optional().meta({ description: "resolvable notes only" }),
    resolved_at: timestamp.nullable().optional().meta({ description: "resolvable notes only" }),
    confidential: z.boolean(),
    internal: z.boolean(),
    imported: z.boolean(),
    imported_from: z.string(),
    noteable_iid: int.nullable(),
    commands_changes: z.object({}),
  })
  .meta({ description: "Note (reference `Note`)" });

export const discussionSchema = z.object({ id: z.string(), individual_note: z.boolean(), notes: z.array(noteSchema) }).meta({ description: "Discussion (reference `Discussion`)" });

export const snippetSchema = z
  .object({
    id: int,
    title: z.string(),
    description: z.string().nullable(),
    visibility: z.enum(["private", "internal", "public"]),
    author: userBasicSchema.nullable(),
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    project_id: int.nullable(),
    web_url: url,
    raw_url: url,
    ssh_url_to_repo: z.string(),
    http_url_to_repo: url,
    file_name: z.string().nullable(),
    files: z.array(z.object({ path: z.string(), raw_url: url })),
    imported: z.boolean(),
    imported_from: z.string(),
  })
  .meta({ description: "Snippet (reference `Snippet`, `PersonalSnippet`, `ProjectSnippet`)" });

export const notificationSettingsSchema = z
  .object({
    level: z.string(),
    events: z.record(z.string(), z.boolean()).optional().meta({ description: "only when `level` is `custom`" }),
    notification_email: z.string().nullable().optional().meta({ description: "global settings only" }),
  })
  .meta({ description: "Notification settings (reference `NotificationSetting`, `GlobalNotificationSetting`)" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type ActivitySchemasMatchRenderers = [
  Holds<Fits<typeof milestoneSchema, ReturnType<typeof milestoneEntity>>>,
  Holds<Fits<typeof groupMilestoneSchema, ReturnType<typeof groupMilestoneEntity>>>,
  Holds<Fits<typeof issueSchema, ReturnType<typeof issueEntity>>>,
  Holds<Fits<typeof noteSchema, ReturnType<typeof noteEntity>>>,
  Holds<Fits<typeof discussionSchema, ReturnType<typeof discussionEntity>>>,
  Holds<Fits<typeof snippetSchema, ReturnType<typeof snippetEntity>>>,
];
