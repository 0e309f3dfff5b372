/**
 * The in-memory Store (`@forgekit/core/memory`): every rule of ports/store.ts over journaled Maps,
 * in one process, nothing durable. Demos, prototypes, single-process tools and tests use it.
 */
import { memoryWebHooks } from "./webhooks.js";
import type { Store, TransactionStore } from "../ports/store.js";
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
import { memoryMergeRequestClosingIssues } from "./merge-request-closing-issues.js";
import { memoryReleases } from "./releases.js";
import { memoryUploads } from "./uploads.js";
import { memoryProtectedRefs } from "./protected-refs.js";
import { memoryDiscussions } from "./discussions.js";
import { restoreSkeleton, runJournaled, snapshotSkeleton, UndoLog } from "./journal.js";
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
    mergeRequestClosingIssues: memoryMergeRequestClosingIssues(run),
    approvals: memoryApprovals(run),
    releases: memoryReleases(run),
    uploads: memoryUploads(run),
    protectedRefs: memoryProtectedRefs(run),
    webHooks: memoryWebHooks(run),
    discussions: memoryDiscussions(run),
  };
}

/**
 * A fresh, empty in-memory Store. Operations are serialised by one lock and each is atomic: one that
 * throws leaves no trace. `transaction` holds the lock for the whole of `fn`, whose operations write
 * the tables directly (so they read their own writes) and record the inverse of each write in an
 * undo log (journal.ts); a rejection plays the log backwards and restores the sequences, so a
 * transaction costs what it changes, not what is stored. There are no nested transactions (the
 * handle has no `transaction`), as on every store. As with a single SQLite connection, `fn` must use
 * the handle it is given: calling the outer store (or `transaction` again) from inside waits for
 * `fn` forever.
 */
export function memoryStore(): Store {
  const state: MemoryState = emptyState();
  const lock = new Lock();
  const live = repositories((fn) => lock.run(() => runJournaled(() => fn(state), null)));
  return {
    ...live,
    transaction: (fn) =>
      lock.run(async () => {
        const skeleton = snapshotSkeleton(state);
        const log = new UndoLog();
        let open = true;
        const tx = repositories((op) => {
          const finished = () => new Error("transaction already finished");
          if (!open) return Promise.reject(finished());
          return Promise.resolve().then(() => {
            if (!open) throw finished();
            return runJournaled(() => op(state), log);
          });
        });
        try {
          return await fn(tx);
        } catch (error) {
          open = false;
          log.undo();
          restoreSkeleton(skeleton);
          throw error;
        } finally {
          open = false;
        }
      }),
    migrate: async () => {},
    close: async () => {},
  };
}
