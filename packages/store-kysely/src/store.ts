/** `kyselyStore`: the Store port over Kysely, for SQLite, PostgreSQL and MySQL / MariaDB. */
import type { Store, TransactionStore } from "@forgekit/core";
import { Kysely } from "kysely";
import type { DialectConfig } from "./dialects/traits.js";
import { migrateToLatest } from "./migrations/index.js";
import type { CompiledCache } from "./sql/compiled.js";
import { sqlAccessTokens, sqlSettings } from "./repositories/access-tokens.js";
import { sqlActivity } from "./repositories/activity.js";
import { inNewTransaction, type SqlContext } from "./repositories/context.js";
import { sqlEmails } from "./repositories/emails.js";
import { sqlIterations } from "./repositories/iterations.js";
import { sqlWebHooks } from "./repositories/webhooks.js";
import { sqlProtectedRefs } from "./repositories/protected-refs.js";
import { sqlJobs } from "./repositories/jobs.js";
import { sqlImports } from "./repositories/imports.js";
import { sqlLabelsStore } from "./repositories/labels.js";
import { sqlErrorTracking } from "./repositories/error-tracking.js";
import { sqlMembers } from "./repositories/members.js";
import { sqlNamespaces } from "./repositories/namespaces.js";
import { sqlNotificationSettings } from "./repositories/notification-settings.js";
import { sqlOAuth } from "./repositories/oauth.js";
import { sqlProjects } from "./repositories/projects.js";
import { sqlStorageMoves } from "./repositories/storage-moves.js";
import { sqlReviews } from "./repositories/reviews.js";
import { sqlStatuses } from "./repositories/statuses.js";
import { sqlMergeRequestExtras } from "./repositories/merge-request-extras.js";
import { sqlApprovals, sqlMergeRequestVersions } from "./repositories/merge-request-reviews.js";
import { sqlMergeRequestClosingIssues } from "./repositories/merge-request-closing-issues.js";
import { sqlReleases } from "./repositories/releases.js";
import { sqlUploads } from "./repositories/uploads.js";
import { sqlDiscussions } from "./repositories/discussions.js";
import { sqlUsers } from "./repositories/users.js";
import type { Database } from "./schema.js";

function repositories(ctx: SqlContext): TransactionStore {
  return {
    users: sqlUsers(ctx),
    emails: sqlEmails(ctx),
    namespaces: sqlNamespaces(ctx),
    projects: sqlProjects(ctx),
    members: sqlMembers(ctx),
    accessTokens: sqlAccessTokens(ctx),
    settings: sqlSettings(ctx),
    activity: sqlActivity(ctx),
    notificationSettings: sqlNotificationSettings(ctx),
    iterations: sqlIterations(ctx),
    protectedRefs: sqlProtectedRefs(ctx),
    webHooks: sqlWebHooks(ctx),
    oauth: sqlOAuth(ctx),
    errorTracking: sqlErrorTracking(ctx),
    jobs: sqlJobs(ctx),
    imports: sqlImports(ctx),
    labels: sqlLabelsStore(ctx),
    storageMoves: sqlStorageMoves(ctx),
    reviews: sqlReviews(ctx),
    statuses: sqlStatuses(ctx),
    mergeRequestExtras: sqlMergeRequestExtras(ctx),
    mergeRequestVersions: sqlMergeRequestVersions(ctx),
    mergeRequestClosingIssues: sqlMergeRequestClosingIssues(ctx),
    approvals: sqlApprovals(ctx),
    releases: sqlReleases(ctx),
    uploads: sqlUploads(ctx),
    discussions: sqlDiscussions(ctx),
  };
}

/**
 * A Store on the database described by `config` (from `sqlite()`, `postgres()`, `mysql()` or
 * `fromUrl()`). Call `migrate()` once before use; `close()` releases the connections the store
 * opened itself (a pool or database handle passed in by the caller stays open).
 */
export function kyselyStore(config: DialectConfig): Store {
  const base = new Kysely<Database>({ dialect: config.dialect });
  const db = config.schema === undefined ? base : base.withSchema(config.schema);
  const { traits } = config;
  const compiled: CompiledCache = new Map();
  return {
    ...repositories({ db, traits, compiled }),
    // At the dialect's isolation level, run again after a deadlock (repositories/context.ts).
    transaction: (fn) => inNewTransaction({ db, traits, compiled }, (tx) => fn(repositories(tx))),
    migrate: (options) => (config.withoutLimits ?? ((fn) => fn()))(() => migrateToLatest(db as Kysely<unknown>, traits, config.schema, options)),
    close: () => base.destroy(),
    useLogger: (logger) => config.useLogger?.(logger),
  };
}
