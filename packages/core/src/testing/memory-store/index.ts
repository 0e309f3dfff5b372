/**
 * The in-memory reference Store: every rule of ports/store.ts over plain Maps. Tests and the store
 * conformance suite use it; it is not meant for production data.
 */
import { memoryWebHooks } from "./webhooks.js";
import type { Store, TransactionStore } from "../../ports/store.js";
import { memoryAccessTokens, memorySettings } from "./access-tokens.js";
import { memoryIterations } from "./iterations.js";
import { memoryJobs } from "./jobs.js";
import { memoryImports } from "./imports.js";
import { memoryLabelsStore } from "./labels.js";
import { memoryActivity } from "./activity.js";
import { memoryErrorTracking } from "./error-tracking.js";
import { memoryMembers } from "./members.js";
import { memoryNamespaces } from "./namespaces.js";
import { memoryNotificationSettings } from "./notification-settings.js";
import { memoryOAuth } from "./oauth.js";
import { memoryProjects } from "./projects.js";
import { memoryStorageMoves } from "./storage-moves.js";
import { memoryReviews } from "./reviews.js";
import { memoryStatuses } from "./statuses.js";
import { memoryMergeRequestExtras } from "./merge-request-extras.js";
import { memoryApprovals, memoryMergeRequestVersions } from "./merge-request-reviews.js";
import { memoryReleases } from "./releases.js";
import { memoryUploads } from "./uploads.js";
import { memoryProtectedRefs } from "./protected-refs.js";
import { memoryDiscussions } from "./discussions.js";
import { emptyState, Lock, type MemoryState, type Runner } from "./state.js";
import { memoryEmails, memoryUsers } from "./users.js";

function repositories(run: Runner): TransactionStore {
  return {
    users: memoryUsers(run),
    emails: memoryEmails(run),
    namespaces: memoryNamespaces(run),
    projects: memoryProjects(run),
    members: memoryMembers(run),
    accessTokens: memoryAccessTokens(run),
    settings: memorySettings(run),
    notificationSettings: memoryNotificationSettings(run),
    iterations: memoryIterations(run),
    activity: memoryActivity(run),
    errorTracking: memoryErrorTracking(run),
    oauth: memoryOAuth(run),
    jobs: memoryJobs(run),
    imports: memoryImports(run),
    labels: memoryLabelsStore(run),
    storageMoves: memoryStorageMoves(run),
    reviews: memoryReviews(run),
    statuses: memoryStatuses(run),
    mergeRequestExtras: memoryMergeRequestExtras(run),
    mergeRequestVersions: memoryMergeRequestVersions(run),
    approvals: memoryApprovals(run),
    releases: memoryReleases(run),
    uploads: memoryUploads(run),
    protectedRefs: memoryProtectedRefs(run),
    webHooks: memoryWebHooks(run),
    discussions: memoryDiscussions(run),
  };
}

/**
 * A fresh, empty in-memory Store. Operations are serialised by one lock; `transaction` holds it for
 * the whole of `fn` and works on a copy of the tables that replaces them only when `fn` resolves, so
 * a rejection leaves no trace. As with a single SQLite connection, `fn` must use the handle it is
 * given: calling the outer store (or `transaction` again) from inside waits for `fn` forever.
 */
export function memoryStore(): Store {
  let state: MemoryState = emptyState();
  const lock = new Lock();
  const live = repositories((fn) => lock.run(() => fn(state)));
  return {
    ...live,
    transaction: (fn) =>
      lock.run(async () => {
        const draft = structuredClone(state);
        let open = true;
        const tx = repositories((op) => {
          if (!open) return Promise.reject(new Error("transaction already finished"));
          return Promise.resolve().then(() => op(draft));
        });
        try {
          const result = await fn(tx);
          state = draft;
          return result;
        } finally {
          open = false;
        }
      }),
    migrate: async () => {},
    close: async () => {},
  };
}
