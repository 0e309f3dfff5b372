/**
 * The names of the component schemas (`#/components/schemas/<name>`), on their own so that a route's
 * declared response names an entity without the declarations carrying every schema's inferred zod
 * type (that type alone was 130 KB of core's published `.d.ts`). `ENTITY_SCHEMAS` must have exactly
 * these keys: a missing or extra one is a type error there.
 */
export type EntityName =
  | "UserBasic" | "Event" | "Iteration" | "RepositoryStorageMove" | "ProjectRepositoryStorageMove"
  | "SnippetRepositoryStorageMove" | "GroupRepositoryStorageMove" | "AccessToken" | "PersonalAccessToken" | "Version" | "User"
  | "UserSelf" | "UserWithAdmin" | "UserActivity" | "Group" | "NamespaceBasic" | "Namespace" | "NamespaceExists" | "Member"
  | "ProjectBasic" | "Project" | "PersonalAccessTokenWithToken" | "ImpersonationToken" | "ImpersonationTokenWithToken"
  | "ResourceAccessToken" | "ResourceAccessTokenWithToken" | "Email" | "Milestone" | "GroupMilestone" | "Issue" | "Note"
  | "Discussion" | "Snippet" | "NotificationSettings" | "Commit" | "TreeEntry" | "Branch" | "Tag" | "Diff" | "CommitStatus"
  | "PipelineBasic" | "ProtectedBranch" | "ProtectedTag" | "SystemHookTestSample" | "Pipeline" | "CommitDetail" | "LabelBasic"
  | "GroupLabel" | "ProjectLabel" | "MergeRequestBasic" | "MergeRequest" | "MergeRequestChanges" | "MergeRequestVersion"
  | "MergeRequestVersionFull" | "Release" | "ReleaseLink" | "RepositoryFile" | "RepositoryFileWrite" | "Blob" | "Compare"
  | "ApprovalRule" | "MergeRequestApprovals" | "ApprovalState" | "ApprovalSettings" | "ProjectHook" | "GroupHook" | "SystemHook"
  | "HookLog" | "Upload" | "UploadListEntry" | "Metadata" | "ApplicationSettings" | "Application" | "ApplicationWithSecret"
  | "ErrorTrackingSettings" | "ErrorTrackingClientKey" | "ProjectImport" | "ProjectImportStatus" | "Message" | "Empty" | "True"
  | "CurrentUser" | "UserForViewer" | "UserListEntry" | "ProjectListEntry" | "GroupDetail" | "OpenApiDocument";
