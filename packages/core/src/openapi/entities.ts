/**
 * JSON Schemas of the main response entities, as zod schemas that the compiler holds to the
 * renderers: each entry's type must have exactly the renderer's keys and accept exactly its
 * values ({@link Same}), so a field added to or changed in `eventEntity` without its schema here
 * is a type error, not a stale document.
 */
import * as z from "zod";
import type { accessTokenEntity, personalAccessTokenEntity } from "../accounts/entities/tokens.js";
import type { userBasic } from "../accounts/entities/users.js";
import type { eventEntity } from "../events/entity.js";
import { EVENT_TARGET_TYPES } from "../events/types.js";
import type { versionEntity } from "../instance/version.js";
import type { iterationEntity } from "../iterations/entity.js";
import type { basicMoveEntity } from "../storage-moves/entities.js";
import * as accounts from "./schemas/accounts.js";
import * as activity from "./schemas/activity.js";
import * as approvals from "./schemas/approvals.js";
import * as instance from "./schemas/instance.js";
import * as labels from "./schemas/labels.js";
import * as mergeRequests from "./schemas/merge-requests.js";
import * as releases from "./schemas/releases.js";
import * as files from "./schemas/repository-files.js";
import * as repository from "./schemas/repository.js";
import { groupStorageMoveSchema, projectStorageMoveSchema, snippetStorageMoveSchema, storageMoveSchema } from "./schemas/storage-moves.js";
import * as uploads from "./schemas/uploads.js";
import * as variants from "./schemas/variants.js";
import * as webhooks from "./schemas/webhooks.js";

import type { EntityName } from "./entity-names.js";
import { date, timestamp, url, userBasicSchema, type Holds, type Same } from "./schemas/common.js";

export type { EntityName };

const noteObjectSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  attachment: z.string().nullable(),
  author: userBasicSchema.optional(),
  created_at: timestamp.nullable(),
  system: z.boolean(),
  noteable_id: z.number().int(),
  noteable_type: z.string(),
  noteable_iid: z.number().int().nullable().optional().meta({ description: "project event lists only" }),
});

const pushDataSchema = z.object({
  commit_count: z.number().int(),
  action: z.enum(["created", "removed", "pushed"]),
  ref_type: z.enum(["branch", "tag"]),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  ref: z.string(),
  commit_title: z.string().nullable(),
  ref_count: z.null(),
});

const eventSchema = z
  .object({
    id: z.number().int(),
    title: z.null(),
    project_id: z.number().int().nullable(),
    action_name: z.string(),
    target_id: z.number().int().nullable(),
    target_iid: z.number().int().nullable().optional().meta({ description: "project event lists only" }),
    target_type: z.enum(EVENT_TARGET_TYPES).nullable(),
    author_id: z.number().int(),
    author: userBasicSchema.optional(),
    author_username: z.string().nullable(),
    target_title: z.string().nullable(),
    created_at: timestamp.nullable(),
    data: z.null().optional().meta({ description: "project event lists only" }),
    note: noteObjectSchema.optional().meta({ description: "only when target_type is Note" }),
    push_data: pushDataSchema.optional().meta({ description: "only on push events" }),
  })
  .meta({ description: "Event (spec \"Event\")" });

const iterationSchema = z
  .object({
    id: z.number().int(),
    iid: z.number().int(),
    sequence: z.number().int(),
    group_id: z.number().int(),
    title: z.string(),
    description: z.string(),
    state: z.union([z.literal(1), z.literal(2), z.literal(3)]).meta({ description: "1 upcoming, 2 current, 3 closed" }),
    created_at: timestamp,
    updated_at: timestamp,
    due_date: date,
    start_date: date,
    web_url: url,
  })
  .meta({ description: "Group iteration (spec \"Group iteration\")" });

const accessTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    revoked: z.boolean(),
    created_at: timestamp.nullable(),
    description: z.null(),
    scopes: z.array(z.string()),
    user_id: z.number().int(),
    last_used_at: timestamp.nullable(),
    active: z.boolean(),
    expires_at: date.nullable(),
  })
  .meta({ description: "Access token (never its secret)" });

const personalAccessTokenSchema = accessTokenSchema.extend({ last_used_ips: z.array(z.never()).meta({ description: "always empty: forgekit does not record them" }) }).meta({ description: "Personal access token" });

const versionSchema = z.object({ version: z.string(), revision: z.string() }).meta({ description: "Version of the API forgekit is compatible with, and forgekit's own" });

/** The component schemas, by name (`#/components/schemas/<name>`). */
export const ENTITY_SCHEMAS = {
  UserBasic: userBasicSchema,
  Event: eventSchema,
  Iteration: iterationSchema,
  RepositoryStorageMove: storageMoveSchema,
  ProjectRepositoryStorageMove: projectStorageMoveSchema,
  SnippetRepositoryStorageMove: snippetStorageMoveSchema,
  GroupRepositoryStorageMove: groupStorageMoveSchema,
  AccessToken: accessTokenSchema,
  PersonalAccessToken: personalAccessTokenSchema,
  Version: versionSchema,
  User: accounts.userSchema,
  UserSelf: accounts.userSelfSchema,
  UserWithAdmin: accounts.userWithAdminSchema,
  UserActivity: accounts.userActivitySchema,
  Group: accounts.groupSchema,
  NamespaceBasic: accounts.namespaceBasicSchema,
  Namespace: accounts.namespaceSchema,
  NamespaceExists: accounts.namespaceExistsSchema,
  Member: accounts.memberSchema,
  ProjectBasic: accounts.projectBasicSchema,
  Project: accounts.projectSchema,
  PersonalAccessTokenWithToken: accounts.personalAccessTokenWithTokenSchema,
  ImpersonationToken: accounts.impersonationTokenSchema,
  ImpersonationTokenWithToken: accounts.impersonationTokenWithTokenSchema,
  ResourceAccessToken: accounts.resourceAccessTokenSchema,
  ResourceAccessTokenWithToken: accounts.resourceAccessTokenWithTokenSchema,
  Email: accounts.emailSchema,
  Milestone: activity.milestoneSchema,
  GroupMilestone: activity.groupMilestoneSchema,
  Issue: activity.issueSchema,
  Note: activity.noteSchema,
  Discussion: activity.discussionSchema,
  Snippet: activity.snippetSchema,
  NotificationSettings: activity.notificationSettingsSchema,
  Commit: repository.commitSchema,
  TreeEntry: repository.treeEntrySchema,
  Branch: repository.branchSchema,
  Tag: repository.tagSchema,
  Diff: repository.diffSchema,
  CommitStatus: repository.commitStatusSchema,
  PipelineBasic: repository.pipelineBasicSchema,
  ProtectedBranch: repository.protectedBranchSchema,
  ProtectedTag: repository.protectedTagSchema,
  SystemHookTestSample: webhooks.systemHookTestSampleSchema,
  Pipeline: repository.pipelineSchema,
  CommitDetail: repository.commitDetailSchema,
  LabelBasic: labels.labelBasicSchema,
  GroupLabel: labels.groupLabelSchema,
  ProjectLabel: labels.projectLabelSchema,
  MergeRequestBasic: mergeRequests.mergeRequestBasicSchema,
  MergeRequest: mergeRequests.mergeRequestSchema,
  MergeRequestChanges: mergeRequests.mergeRequestChangesSchema,
  MergeRequestVersion: mergeRequests.mergeRequestVersionSchema,
  MergeRequestVersionFull: mergeRequests.mergeRequestVersionFullSchema,
  Release: releases.releaseSchema,
  ReleaseLink: releases.releaseLinkSchema,
  RepositoryFile: files.repositoryFileSchema,
  RepositoryFileWrite: files.repositoryFileWriteSchema,
  Blob: files.blobSchema,
  Compare: files.compareSchema,
  ApprovalRule: approvals.approvalRuleSchema,
  MergeRequestApprovals: approvals.mergeRequestApprovalsSchema,
  ApprovalState: approvals.approvalStateSchema,
  ApprovalSettings: approvals.approvalSettingsSchema,
  ProjectHook: webhooks.projectHookSchema,
  GroupHook: webhooks.groupHookSchema,
  SystemHook: webhooks.systemHookSchema,
  HookLog: webhooks.hookLogSchema,
  Upload: uploads.uploadSchema,
  UploadListEntry: uploads.uploadListEntrySchema,
  Metadata: instance.metadataSchema,
  ApplicationSettings: instance.applicationSettingsSchema,
  Application: instance.applicationSchema,
  ApplicationWithSecret: instance.applicationWithSecretSchema,
  ErrorTrackingSettings: instance.errorTrackingSettingsSchema,
  ErrorTrackingClientKey: instance.errorTrackingClientKeySchema,
  ProjectImport: instance.projectImportSchema,
  ProjectImportStatus: instance.projectImportStatusSchema,
  Message: instance.messageSchema,
  Empty: instance.emptySchema,
  True: instance.trueSchema,
  CurrentUser: variants.currentUserSchema,
  UserForViewer: variants.userForViewerSchema,
  UserListEntry: variants.userListEntrySchema,
  ProjectListEntry: variants.projectListEntrySchema,
  GroupDetail: variants.groupDetailSchema,
  OpenApiDocument: variants.openApiDocumentSchema,
} as const satisfies Record<EntityName, z.ZodType>;


/** Compile-time: every schema above matches its renderer (a mismatch fails `tsc`). */
export type EntitySchemasMatchRenderers = [
  Holds<Same<z.output<typeof userBasicSchema>, ReturnType<typeof userBasic>>>,
  Holds<Same<z.output<typeof eventSchema>, ReturnType<typeof eventEntity>>>,
  Holds<Same<z.output<typeof iterationSchema>, ReturnType<typeof iterationEntity>>>,
  Holds<Same<z.output<typeof storageMoveSchema>, ReturnType<typeof basicMoveEntity>>>,
  Holds<Same<z.output<typeof accessTokenSchema>, ReturnType<typeof accessTokenEntity>>>,
  Holds<Same<z.output<typeof personalAccessTokenSchema>, ReturnType<typeof personalAccessTokenEntity>>>,
  Holds<Same<z.output<typeof versionSchema>, ReturnType<typeof versionEntity>>>,
];

/** The JSON Schema of each entity, referring to the others by `$ref` (`#/components/schemas/…`). */
export function entityJsonSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(ENTITY_SCHEMAS)) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { io: "input", uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Record<string, unknown>> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, json]) => {
      const { $schema: _schema, $id: _id, ...rest } = json;
      return [name, rest];
    }),
  );
}
