/**
 * `@forgekit/core/internal`: the helpers forgekit's own packages share (store-kysely, the adapters,
 * the CLI) — permission checks, keyset cursor codecs, storage-move state codes, event rendering.
 *
 * NOT part of the public API and NOT covered by semver: anything here may change or disappear in
 * any release. Hosts use `@forgekit/core`.
 *
 * @packageDocumentation
 */

// Permissions: what the routes and services check (hosts see their effect through the API).
export {
  canAdminGroup,
  canAdminProject,
  canReadGroup,
  canReadProject,
  groupAccess,
  hasGroupAccess,
  hasProjectAccess,
  projectAccess,
  viewerOf,
  visibleGroup,
  visibleProject,
  type AccessStore,
} from "./access/permissions.js";
export { tierAllows } from "./access/tier.js";
export { featureAvailableAt, privateFeatureLevel } from "./access/features.js";
export { eventFeature, NOTEABLE_FEATURES, TARGET_FEATURES } from "./events/features.js";
export { accessDeniedReason } from "./auth/authenticate.js";

// Stores: keyset cursors, the count limit, storage-move state codes and token digests as stores keep them.
export { TOTAL_COUNT_LIMIT } from "./ports/pagination.js";
export { decodeIdCursor, decodeNameCursor, encodeNameCursor } from "./ports/cursors.js";
export { STORAGE_MOVE_STATE_CODES, storageMoveStateOf } from "./ports/storage-moves-store.js";
export { tokenDigest } from "./accounts/token-string.js";

// Rendering and housekeeping of events, applications and iterations.
export { actionName } from "./events/action-name.js";
export { eventEntity, type EventRenderContext } from "./events/entity.js";
export { retentionCutoff, type PruneOptions, type PruneResult } from "./events/retention.js";
export { applicationEntity } from "./oauth/applications.js";
export { customEventKeys } from "./notifications/event-keys.js";
export { iterationState } from "./iterations/types.js";

// Git over HTTP routing, jobs scheduling arithmetic.
export { GIT_REALM, gitMessages, matchGitRoute } from "./git-http/index.js";
export { backoffDelayMs, recurringKey } from "./jobs/index.js";

// Imports: the URL guard and failure classification behind the forge and repository clients.
export { extForgeApiUrl } from "./imports/extforge/client.js";
export { checkUrl, classifyAddress, type HostLookup, type UrlGuardOptions, type UrlRefusal } from "./imports/url-guard.js";
export { guardedFetch, type GuardedFetchOptions } from "./imports/guarded-fetch.js";
export { externalFailureOf, type ExternalFailure, type ExternalFailureReason, type GitRemoteAccess } from "./imports/external-failure.js";

// Notes: the discussion fields stores fill in for a new note.
export { newNoteFields, isResolvable } from "./activity/note-fields.js";
