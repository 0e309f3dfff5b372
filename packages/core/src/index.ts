/**
 * `@forgekit/core`: an embeddable GitLab-compatible `/api/v4` REST API and OAuth 2.0 provider
 * (DESIGN §1). The package's one face: the instance factory, configuration and error types, the
 * ports a host implements, and the framework-agnostic HTTP helpers. Helpers forgekit's own packages
 * share live in `@forgekit/core/internal`, which is not covered by semver.
 */
export { createForgekit, ForgekitConfigError, type Forgekit } from "./forgekit.js";
export { configSchema, parseConfig, TIERS, type ForgekitConfig, type ForgekitOptions, type Tier } from "./config.js";
export { errors, type ErrorCode, type ForgekitError, type ValidationMessages } from "./errors.js";

// Accounts: records and services.
export * from "./accounts/types.js";
export { DEFAULT_PROJECT_FEATURES, FEATURE_LEVEL_NUMBERS, featureLevelOf, type FeatureAccessLevel, type ProjectFeature, type ProjectFeatures } from "./accounts/project-features.js";
export { DEFAULT_MERGE_CHECKS, type ProjectMergeChecks } from "./accounts/merge-checks.js";
export type { AccountsServices } from "./accounts/services.js";
export type { CreateUserInput, UsersService } from "./accounts/users.js";
export type { CreateGroupInput, GroupsService } from "./accounts/groups.js";
export type { CreateProjectInput, ProjectsService } from "./accounts/projects.js";
export type { AddMemberInput, MembersService, MemberTarget } from "./accounts/members.js";
export type { CreatedResourceToken, CreatedToken, CreateResourceTokenInput, CreateTokenInput, TokensService } from "./accounts/tokens.js";
export { IMPERSONATION_ENABLED, type SettingsService } from "./accounts/settings.js";

// Activity: issues, merge requests, milestones, snippets, notes, pushes and their events.
export * from "./activity/index.js";

// Tiers: the one gate of premium and ultimate features.
export { featureAvailable, requireFeature, TIER_FEATURES, type TierFeature } from "./access/tier.js";

// Notification settings and recipients.
export {
  CUSTOM_EVENT_KEYS,
  NOTIFICATION_LEVELS,
  type CustomEventKey,
  type NotificationLevel,
  type NotificationRecipient,
  type NotificationRecipients,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationSettingsService,
  type NotificationSource,
  type NotificationsServices,
  type NotificationTarget,
  type RecipientReason,
  type RecipientsQuery,
} from "./notifications/index.js";

// Group iterations.
export {
  ITERATION_STATE_FILTERS,
  ITERATION_STATES,
  type CreateIterationInput,
  type GroupsForOptions,
  type Iteration,
  type IterationListQuery,
  type IterationsService,
  type IterationState,
  type IterationStateFilter,
} from "./iterations/index.js";

// Protected branches and tags.
export {
  PROTECTED_ACCESS_LEVELS,
  type BranchProtectionLevel,
  type ProtectedAccessLevel,
  type ProtectedRef,
  type ProtectedRefAccess,
  type ProtectedRefAction,
  type ProtectedRefKind,
  type ProtectedRefsService,
  type ProtectInput,
} from "./protected-refs/index.js";
export {
  BRANCH_FILTER_STRATEGIES,
  GROUP_HOOK_EVENTS,
  PROJECT_HOOK_EVENTS,
  SYSTEM_HOOK_EVENTS,
  type BranchFilterStrategy,
  type HookAlertStatus,
  type HookEvent,
  type HookScope,
  type WebHook,
  type WebHooksService,
} from "./webhooks/index.js";

// Authentication.
export { createAuthenticator, type Authenticate } from "./auth/authenticate.js";
export { anonymous, type Credential, type CredentialKind, type Identity } from "./auth/identity.js";
export { noOAuthTokens, type OAuthAccessTokenRecord, type OAuthTokenLookup } from "./auth/oauth-token-lookup.js";
export { TOKEN_SCOPES, type TokenScope } from "./auth/scopes.js";

// OAuth 2.0 provider.
export { oauthStoreFrom, type StoreWithOAuth } from "./oauth/store-adapter.js";
export type { OAuthApplicationsService, OAuthService } from "./oauth/service.js";
export { type ApplicationWithSecret, type NewApplicationInput } from "./oauth/applications.js";
export type { CleanupResult } from "./oauth/cleanup.js";
export type { OAuthOptions } from "./oauth/config.js";
export { decodeKeyEncryptionKey, KEY_ID_PATTERN } from "./oauth/key-envelope.js";
export { createMemoryRateLimiter, rateLimitKeys, type MemoryRateLimiter, type MemoryRateLimiterOptions, type RateLimiter } from "./oauth/rate-limiter.js";
export { OAUTH_PATHS } from "./oauth/discovery.js";
export { OAUTH_SCOPES, SCOPE_DESCRIPTIONS, type OAuthScope } from "./oauth/scopes.js";
export {
  OAUTH_GIT_USERNAME,
  type CredentialDenial,
  type CredentialSource,
  type GitAccess,
  type GitCredentialsInput,
  type GitCredentialsResult,
  type GitCredentialsService,
  type GitProjectRef,
  type RegistryAccess,
  type RegistryCredentialsResult,
  type RegistryCredentialsService,
} from "./oauth/git-credentials.js";

// Git over HTTP (smart protocol): what adapters hand git requests to (`fk.gitHttp`).
export { type GitHttpRequest, type GitHttpResponse, type GitHttpServer } from "./git-http/index.js";

// Ports.
export type * from "./ports/store.js";
export { isOverloaded, isStoreUnavailable, overloaded, storeUnavailable, type OverloadedError, type StoreUnavailableError } from "./ports/store-errors.js";
export type * from "./ports/oauth-store.js";
export type * from "./ports/pagination.js";
export type * from "./ports/notification-settings-store.js";
export type * from "./ports/iterations-store.js";
export type * from "./ports/protected-refs-store.js";
export type * from "./ports/webhooks-store.js";
export type * from "./ports/jobs-store.js";
export { JOB_STATES } from "./ports/jobs-store.js";
export type * from "./ports/imports-store.js";
export type * from "./ports/labels-store.js";
export { IMPORT_STATUSES } from "./ports/imports-store.js";
export type * from "./ports/storage-moves-store.js";
export type * from "./ports/review-store.js";
export type * from "./ports/statuses-store.js";
export type * from "./ports/discussions-store.js";
export * from "./ports/merge-request-extras-store.js";
export type * from "./ports/merge-request-versions-store.js";
export type * from "./ports/merge-request-closing-issues-store.js";
export * from "./ports/approvals-store.js";
export type * from "./ports/releases-store.js";
export type * from "./ports/uploads-store.js";
export type * from "./ports/namespace-list.js";
export { RELEASE_LINK_TYPES, type Release, type ReleaseLink, type ReleaseLinkType } from "./releases/types.js";
export { FINAL_STORAGE_MOVE_STATES, STORAGE_MOVE_KINDS } from "./ports/storage-moves-store.js";
export {
  MAINTENANCE_KINDS,
  type AttemptOutcome,
  type BackoffOptions,
  type EnqueueOptions,
  type Job,
  type JobContext,
  type JobHandler,
  type JobKindOptions,
  type JobListOptions,
  type JobPage,
  type JobsService,
  type StopOptions,
  type WorkerOptions,
  type Workers,
} from "./jobs/index.js";
export type * from "./ports/runtime.js";
export type * from "./ports/host.js";
export type * from "./ports/error-tracking-store.js";
export { systemClock, systemRandom, stderrLogger } from "./runtime/defaults.js";
export { scryptPasswordHasher, type ScryptOptionsInput } from "./runtime/scrypt-password-hasher.js";

// Imports, the outside world: the external forge and repository server clients, the URL guard, the notifier port.
export type * from "./ports/notifier.js";
export { loggingNotifier } from "./ports/notifier.js";
export { restExtForge, octokitExtForge, PUBLIC_EXTFORGE_API, type ExtForgeClientFactory, type ExtForgeClientOptions } from "./imports/extforge/client.js";
export type * from "./imports/extforge/types.js";
export { fetchExtServer, type ExtServerClientFactory, type ExtServerClientOptions } from "./imports/extserver/client.js";
export type * from "./imports/extserver/types.js";
export { type HostLookup, type UrlGuardOptions, type UrlRefusal } from "./imports/url-guard.js";
export { type GuardedFetchOptions } from "./imports/guarded-fetch.js";
export { type ExternalFailure, type ExternalFailureReason, type GitRemoteAccess } from "./imports/external-failure.js";

// Repositories on storage shards (the RepositoryStorage port and its git CLI implementation).
export * from "./repositories/index.js";

// HTTP.
export type { HttpMethod, HttpRequest, HttpResponse, ParamValue, Params, Route, RouteAuth, RouteContext, RouteResult, TokenRead } from "./http/types.js";
export { DEFAULT_MOUNT_PATHS, servesPath, splitTarget, type HttpInstance, type MountOptions } from "./http/instance.js";
export { toFetchHandler, type FetchHandlerOptions } from "./http/fetch.js";
export { clientAddress, trustHop, type TrustHop, type TrustProxy } from "./http/client-address.js";

// The OpenAPI 3.1 document and the route list of docs/reference/routes.md, generated from the route table (`fk.openApi()`).
export { openApiDocument, routeListMarkdown, ROUTES_END, ROUTES_START, withRouteList, type OpenApiDocument, type OpenApiOperation, type OpenApiOptions } from "./openapi/index.js";
