/**
 * The composition root: one call builds an instance from its configuration (DESIGN §1). The
 * instance is both the host's programmatic API (services) and an HTTP handler adapters mount.
 */
import type { ResultAsync } from "neverthrow";
import { fromStore } from "./accounts/service-kit.js";
import type { ForgekitError } from "./errors.js";
import { accountsRoutes } from "./accounts/routes/index.js";
import { instanceRoutes } from "./instance/index.js";
import { oauthCapability, withOAuth, type GitCredentialsService, type OAuthService, type RegistryCredentialsService } from "./oauth/capability.js";
import { accountsServices, type AccountsServices } from "./accounts/services.js";
import { userActivityRecorder } from "./accounts/user-activity.js";
import { repositoryRemoval } from "./repositories/removal.js";
import { activityServices, type ActivityServices } from "./activity/services.js";
import { eventRoutes } from "./events/routes/index.js";
import { activityRoutes } from "./activity/routes/index.js";
import { iterationsRoutes, iterationsService, type IterationsService } from "./iterations/index.js";
import { protectedRefsRoutes, protectedRefsService, type ProtectedRefsService } from "./protected-refs/index.js";
import { webHooksCapability, type WebHooksService } from "./webhooks/index.js";
import { jobsCapability, type JobsService, type Workers } from "./jobs/index.js";
import { storageMovesCapability, type StorageMovesService } from "./storage-moves/index.js";
import { importsCapability, type ImportsService } from "./imports/index.js";
import { notificationsRoutes, notificationsServices, type NotificationsServices } from "./notifications/index.js";
import { createAuthenticator, type Authenticate } from "./auth/authenticate.js";
import { errorTrackingRoutes, errorTrackingService, type ErrorTrackingService } from "./error-tracking/index.js";
import { ForgekitConfigError, parseConfig, type ForgekitConfig, type ForgekitOptions } from "./config.js";
import { gitHttpService } from "./git-http/service.js";
import { repositoryApiRoutes } from "./repository-api/index.js";
import { mergeRequestsCapability, withBranchMoves, withClosingIssues } from "./merge-requests-api/capability.js";
import { labelRoutes } from "./labels/index.js";
import { discussionsCapability } from "./discussions/index.js";
import { snippetRoutes } from "./snippets-api/routes.js";
import { releasesRoutes } from "./releases/index.js";
import { uploadRoutes } from "./uploads/routes.js";
import { namespacesRoutes } from "./namespaces/index.js";
import type { GitHttpServer } from "./git-http/types.js";
import type { HttpInstance } from "./http/instance.js";
import { createApiHandler } from "./http/pipeline.js";
import type { AnyRoute } from "./http/router.js";
import { discoveryAliases } from "./http/discovery-alias.js";
import { routeTable } from "./http/serves.js";
import { clientAddress, trustHop, type TrustHop } from "./http/client-address.js";
import { openApiDocument, type OpenApiDocument } from "./openapi/document.js";
import { openApiRoutes } from "./openapi/route.js";
import type { HttpRequest, HttpResponse } from "./http/types.js";
import type { MigrateOptions, MigrationReport, Store } from "./ports/store.js";
import { boundedPasswordHasher } from "./runtime/bounded-password-hasher.js";
import { boundedLogger } from "./runtime/bounded-logger.js";

/** A forgekit instance. */
export interface Forgekit extends AccountsServices, ActivityServices, NotificationsServices, HttpInstance {
  /** Group iterations: create and list (the HTTP endpoint is premium; access/tier.ts). */
  readonly iterations: IterationsService;
  /** Protected branches and tags, and the instance's default-branch protection. */
  readonly protectedRefs: ProtectedRefsService;
  /** Project, group and system webhooks (deliveries run as `webhooks.deliver` jobs). */
  readonly webHooks: WebHooksService;
  /** Error tracking: settings, client keys (Sentry DSNs), the errors the collector grouped. */
  readonly errorTracking: ErrorTrackingService;
  /** Durable background jobs: define kinds, enqueue, find, list, cancel (DESIGN §6). */
  readonly jobs: JobsService;
  /** Background workers in this process: `start({ concurrency })`, graceful `stop()`. */
  readonly workers: Workers;
  /** Repository storage moves: schedule one container's or a whole shard's, find, list (spec "Repository storage moves"). */
  readonly storageMoves: StorageMovesService;
  /** Project imports from the external forge and repository server, gists into snippets (issue 10). */
  readonly imports: ImportsService;
  /** The OAuth 2.0 provider: applications and maintenance (its endpoints are served by `handle`). */
  readonly oauth: OAuthService;
  /** Git over HTTPS credential checks (OAuth tokens with username `oauth2`, access tokens). */
  readonly git: GitCredentialsService;
  /** Registry login checks (access tokens only; OAuth tokens are refused). */
  readonly registry: RegistryCredentialsService;
  /** Git over HTTP (smart protocol): the Node layer, the adapters and the fetch handler stream git requests through it. */
  readonly gitHttp: GitHttpServer;
  /** The parsed, frozen configuration. */
  readonly config: ForgekitConfig;
  readonly store: Store;
  /** The `/api/v4` route table (data: list, document, test it whole). */
  readonly routes: readonly AnyRoute[];
  /** The OpenAPI 3.1 document of {@link routes} (served at `GET /api/v4/openapi.json` when `openapi.serve` is on). */
  openApi(): OpenApiDocument;
  /** Resolves the caller of a request (credentials, scopes, sudo), as the pipeline does. */
  readonly authenticate: Authenticate;
  /** Handles one request; never rejects (failures are rendered responses). */
  handle(req: HttpRequest): Promise<HttpResponse>;
  readonly maxBodyBytes: number;
  /** Whether a route answers `method` + `path` (adapters' `unknownRoutes: "next"`). */
  serves(method: string, path: string): boolean;
  /** RFC 8414 path-inserted discovery URLs of an issuer with a path (http/discovery-alias.ts). */
  readonly discoveryAliases: Readonly<Record<string, string>>;
  /**
   * Creates or upgrades the store's schema (idempotent). A failure is `internal` (`unavailable` when
   * the store says the database cannot be reached) with the store's error as `cause`: store-kysely's
   * says what is wrong and what to do in its message (the cause, then `(hint: …)`), so a host that
   * prints `error.cause` at start-up shows e.g. 'database "x" does not exist on the PostgreSQL
   * server (hint: create it with createdb x, …)' rather than only "internal". Resolves the names
   * of the migrations applied now (`applied: []` when the schema was already up to date, or when
   * the store does not report them). `options.onProgress` hears each migration start and finish
   * (store-kysely reports them; see {@link MigrateOptions}).
   */
  migrate(options?: MigrateOptions): ResultAsync<MigrationReport, ForgekitError>;
  /** Releases the store's connections. */
  close(): ResultAsync<void, ForgekitError>;
}

/**
 * Builds an instance. Throws {@link ForgekitConfigError} for an invalid configuration (a
 * programming error at boot, reported with every offending field).
 */
export function createForgekit(options: ForgekitOptions): Forgekit {
  const parsed = parseConfig(options);
  if (parsed.isErr()) throw parsed.error;
  // Every log call of the instance passes through one wrapper that cuts request-sized values, and
  // every password hash through one gate that bounds their memory and CPU (issue #23 item 8).
  const config: ForgekitConfig = Object.freeze({
    ...parsed.value,
    logger: boundedLogger(parsed.value.logger),
    passwordHasher: boundedPasswordHasher(parsed.value.passwordHasher, parsed.value.passwordHashing),
  });
  // The store reports what happens outside any request (a dropped pooled connection) to the host's logger.
  config.store.useLogger?.(config.logger);
  // Deleting a project or group deletes its repositories; failures are retried by a job, registered below.
  const removal = repositoryRemoval(config);
  const services = accountsServices(config, { removal });
  const oauth = oauthCapability(config);
  // Every recorded branch push also refreshes merge requests and closes issues (merge-requests-api/branch-moves.ts);
  // merge requests opened or reopened by the host store what they close (merge-requests-api/closing-cache.ts).
  const activityBase = activityServices(config);
  const activity: ActivityServices = { ...activityBase, pushes: withBranchMoves(config, activityBase.pushes), mergeRequests: withClosingIssues(config, activityBase.mergeRequests) };
  const notifications = notificationsServices(config);
  const iterations = iterationsService(config);
  const protectedRefs = protectedRefsService(config);
  const errorTracking = errorTrackingService(config);
  // Event retention and OAuth cleanup run as recurring jobs once workers start.
  const jobs = jobsCapability({
    jobs: config.jobs ?? config.store.jobs,
    // Jobs written in a store transaction (webhook deliveries, automatic merges) stay in the store's table.
    ...(config.jobs === undefined ? {} : { outbox: config.store.jobs }),
    clock: config.clock,
    random: config.random,
    logger: config.logger,
    maintenance: { pruneEvents: () => unwrapped(activity.events.prune()), purgeExpiredOAuth: () => unwrapped(oauth.service.purgeExpired()) },
  });
  removal.useJobs(jobs.jobs);
  const storageMoves = storageMovesCapability({ config, jobs: jobs.jobs, services: { projects: services.projects, groups: services.groups, snippets: activity.snippets } });
  const imports = importsCapability(config, { jobs: jobs.jobs, projects: services.projects });
  const webHooks = webHooksCapability(config, { jobs: jobs.jobs });
  const apiRoutes: readonly AnyRoute[] = [...accountsRoutes({ config, services, storageMoves: storageMoves.service }), ...instanceRoutes({ config, services, protectedRefs }), ...oauth.routes, ...eventRoutes({ config, services: activity }), ...activityRoutes(config, activity), ...notificationsRoutes(config, notifications), ...iterationsRoutes(config, iterations), ...storageMoves.routes, ...errorTrackingRoutes({ config, errorTracking }), ...imports.routes, ...repositoryApiRoutes({ config, pushes: activity.pushes }), ...mergeRequestsCapability(config, { jobs: jobs.jobs }), ...snippetRoutes(config), ...labelRoutes(config), ...releasesRoutes({ config, pushes: activity.pushes }), ...uploadRoutes(config), ...namespacesRoutes(config), ...protectedRefsRoutes(config, protectedRefs), ...discussionsCapability(config, activity.notes), ...webHooks.routes];
  const openApi = (): OpenApiDocument => openApiDocument(routes, { baseUrl: config.baseUrl });
  const routes: readonly AnyRoute[] = Object.freeze([...apiRoutes, ...(config.openapi.serve ? openApiRoutes(openApi) : [])]);
  const authenticate = createAuthenticator(config);
  // Users' activity days: written after authenticated API requests the routes served and git requests
  // a user was let through, at most once a day per user and process (accounts/user-activity.ts).
  const userActivity = userActivityRecorder(config);
  // Behind trusted proxies every request carries the client's address, not the proxy's (issue 22).
  const trust = trustHop(config.trustProxy);
  const handle = createApiHandler({
    routes,
    authenticate,
    logger: config.logger,
    limits: { maxBodyBytes: config.limits.bodyBytes, maxUriLength: config.limits.uriLength, maxUploadBytes: config.limits.uploadBytes },
    // The user the request ran as: with sudo the target, with an impersonation token the
    // impersonated user (the reference's after-hook sees `@current_user`).
    onServed: (identity) => {
      if (identity.user !== null) userActivity.record(identity.user);
    },
  });
  return {
    ...services,
    ...activity,
    ...notifications,
    iterations,
    protectedRefs,
    webHooks: webHooks.webHooks,
    errorTracking,
    jobs: jobs.jobs,
    workers: jobs.workers,
    storageMoves: storageMoves.service,
    imports: imports.imports,
    config,
    oauth: oauth.service,
    git: oauth.git,
    registry: oauth.registry,
    gitHttp: withClientAddressGit(trust, gitHttpService({ config, git: oauth.git, pushes: activity.pushes, userActivity })),
    store: config.store,
    routes,
    openApi,
    authenticate,
    handle: withClientAddress(trust, withOAuth(oauth.handler, handle)),
    // The node layer reads up to the larger limit; the pipeline holds non-multipart bodies to bodyBytes.
    maxBodyBytes: Math.max(config.limits.bodyBytes, config.limits.uploadBytes),
    serves: routeTable(routes),
    discoveryAliases: discoveryAliases(config.baseUrl),
    // Start-up: the schema, then the OAuth keys (a wrong key-encryption key fails here, not later).
    migrate: (options) =>
      fromStore(config.store.migrate(options))
        .andThen((report) => oauth.prepareKeys().map((): MigrationReport => ({ applied: report?.applied ?? [] }))),
    // Activity writes still running finish first: none then meets a closed store.
    close: () => fromStore(userActivity.settled().then(() => config.store.close())),
  };
}

/** `handle` with `req.remoteAddress` replaced by the client address the trusted proxies name. */
function withClientAddress(trust: TrustHop, handle: (req: HttpRequest) => Promise<HttpResponse>): (req: HttpRequest) => Promise<HttpResponse> {
  return (req) => {
    const address = clientAddress(req.remoteAddress, req.headers["x-forwarded-for"], trust);
    return handle(address === req.remoteAddress || address === undefined ? req : { ...req, remoteAddress: address });
  };
}

/** The git server with the same client address rule. */
function withClientAddressGit(trust: TrustHop, git: GitHttpServer): GitHttpServer {
  return {
    ...git,
    handle: (req) => {
      const address = clientAddress(req.remoteAddress, req.headers["x-forwarded-for"], trust);
      return git.handle(address === req.remoteAddress || address === undefined ? req : { ...req, remoteAddress: address });
    },
  };
}

/** A service result as a promise: a job handler fails (and is retried) on an error result. */
async function unwrapped<T>(result: ResultAsync<T, ForgekitError>): Promise<T> {
  const settled = await result;
  if (settled.isErr()) throw new Error(`maintenance failed: ${settled.error.code}`, { cause: settled.error });
  return settled.value;
}

export { ForgekitConfigError };
