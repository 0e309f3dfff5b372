/**
 * The configuration of one forgekit instance: a zod schema, parsed once by `createForgekit`, then
 * frozen (DESIGN §2 "config.ts"). Every optional port gets a real default here, so the rest of core
 * never checks for `undefined` ports.
 */
import * as z from "zod";
import { err, ok, type Result } from "neverthrow";
import type { OAuthTokenLookup } from "./auth/oauth-token-lookup.js";
import { noOAuthTokens } from "./auth/oauth-token-lookup.js";
import { describeConfigIssues } from "./config-issues.js";
import { oauthOptionsSchema } from "./oauth/config.js";
import { createOAuthTokenLookup } from "./oauth/introspect.js";
import type { RateLimiter } from "./oauth/rate-limiter.js";
import { trustHop } from "./http/client-address.js";
import { signingKeyFromPem } from "./oauth/signing-key.js";
import { oauthStoreFrom } from "./oauth/store-adapter.js";
import type { JobTokenResolver, SessionResolver, SpamChecker } from "./ports/host.js";
import type { Clock, Logger, PasswordHasher, Random } from "./ports/runtime.js";
import type { RepositoryStorage } from "./ports/repository-storage.js";
import type { Notifier } from "./ports/notifier.js";
import { importsOptionsSchema } from "./imports/options.js";
import type { JobRepository } from "./ports/jobs-store.js";
import type { Store } from "./ports/store.js";
import { repositoryStoragesSchema, shardDirectories } from "./repositories/config.js";
import { gitRepositoryStorage } from "./repositories/git-repository-storage.js";
import { isHostLogger, toLogger, type HostLogger } from "./runtime/host-logger.js";
import { defaultHashingConcurrency, type PasswordHashingLimits } from "./runtime/bounded-password-hasher.js";
import { scryptPasswordHasher } from "./runtime/scrypt-password-hasher.js";
import { stderrLogger, systemClock, systemRandom } from "./runtime/defaults.js";
import { TIERS } from "./domain/tier.js";
import { ForgekitConfigError } from "./domain/config-error.js";

export { TIERS, type Tier } from "./domain/tier.js";

const hasMethods =
  <T>(...names: string[]) =>
  (value: unknown): value is T =>
    typeof value === "object" && value !== null && names.every((n) => typeof (value as Record<string, unknown>)[n] === "function");

/** RFC 6265 cookie-name (an RFC 9110 token). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const port = <T>(name: string, ...methods: string[]) =>
  z.custom<T>(hasMethods<T>(...methods), { message: `must be a ${name} (methods: ${methods.join(", ")})` });

const storeSchema = z.custom<Store>(
  (v) =>
    hasMethods<Store>("transaction", "migrate", "close")(v) &&
    ["users", "emails", "namespaces", "projects", "members", "accessTokens", "settings"].every(
      (k) => typeof (v as unknown as Record<string, unknown>)[k] === "object",
    ),
  { message: "must be a Store (see @forgekit/core ports/store)" },
);

const baseUrlSchema = z
  .string()
  .refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL without query or fragment")
  // Links are built as `${baseUrl}/api/v4/...`, so a trailing slash would double up.
  .transform((s) => s.replace(/\/+$/, ""));

/** The input schema; defaults are the production defaults. Unknown keys are errors (a typo must not silently do nothing). */
export const configSchema = z.strictObject({
  /** Externally visible root, e.g. `https://code.example.com` or `https://example.com/forge`. */
  baseUrl: baseUrlSchema,
  store: storeSchema,
  tier: z.enum(TIERS).default("free"),
  /** The host's login session: `resolve(cookieValue, request)`, `cookieName` (default `_service_session`; `null` reads the request), `verifyCsrfToken`. */
  session: port<SessionResolver>("SessionResolver", "resolve")
    .refine((s) => s.cookieName === undefined || s.cookieName === null || (typeof s.cookieName === "string" && COOKIE_NAME.test(s.cookieName)), {
      message: "cookieName must be a cookie name (letters, digits and !#$%&'*+-.^_`|~) or null",
    })
    .optional(),
  jobTokens: port<JobTokenResolver>("JobTokenResolver", "resolve").optional(),
  spamChecker: port<SpamChecker>("SpamChecker", "check").optional(),
  /** Where OAuth access tokens are looked up; forgekit's OAuth capability plugs its own in. */
  oauthTokens: port<OAuthTokenLookup>("OAuthTokenLookup", "find").default(() => noOAuthTokens),
  clock: port<Clock>("Clock", "now").default(() => systemClock),
  random: port<Random>("Random", "read").default(() => systemRandom),
  /** forgekit's `Logger`, a pino-style logger (`info(obj, msg)`), or `console` and console-like ones (runtime/host-logger.ts). */
  logger: z
    .custom<Logger | HostLogger>(isHostLogger, { message: "must be a Logger (log(level, event, fields)), a pino-style logger or console" })
    .transform((value): Logger => toLogger(value))
    .default(() => stderrLogger),
  passwordHasher: port<PasswordHasher>("PasswordHasher", "hash", "verify").default(() => scryptPasswordHasher()),
  /**
   * Bounds on password hashing (runtime/bounded-password-hasher.ts): `concurrency` hashes at once
   * (default: the CPUs, below libuv's thread pool), `queue` waiting (default 2 × concurrency);
   * beyond them a password attempt is answered 503 with `Retry-After: retryAfterSeconds` (default 1).
   */
  passwordHashing: z
    .strictObject({
      concurrency: z.number().int().positive().default(defaultHashingConcurrency),
      queue: z.number().int().nonnegative().optional(),
      retryAfterSeconds: z.number().int().positive().default(1),
    })
    .prefault({})
    .transform(({ concurrency, queue, retryAfterSeconds }): PasswordHashingLimits => ({ concurrency, queue: queue ?? 2 * concurrency, retryAfterSeconds })),
  /** Prefix of personal, impersonation, project and group access tokens (reference: `glpat-`). */
  tokenPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,20}$/, "must be 1-20 characters of A-Z a-z 0-9 _ -")
    .default("fkpat-"),
  /**
   * Repository storage shards: name → `{ path }`, the directory its bare repositories live in
   * (an array of names is accepted too: shards without directories). Default: `{ default: {} }`,
   * a shard without a directory, on which creating a repository fails with a message saying to set
   * `repositoryStorages.default.path` (see repositories/config.ts).
   */
  repositoryStorages: repositoryStoragesSchema,
  /** The shard new projects, snippets and group wikis go to (default: the first of `repositoryStorages`). */
  defaultRepositoryStorage: z.string().optional(),
  /** Where repositories are kept; default: the `git` CLI on the shards' directories. */
  repositoryStorage: port<RepositoryStorage>("RepositoryStorage", "create", "exists", "delete", "replicate", "checksum", "size").optional(),
  limits: z
    .strictObject({
      /** Largest accepted request body in bytes (413 above it). */
      bodyBytes: z.number().int().positive().default(1024 * 1024),
      /** Longest accepted request target, path plus query, in characters (414 above it; spec "Limits"). */
      uriLength: z.number().int().positive().default(8192),
      /**
       * Largest file `POST /projects/:id/uploads` takes, in bytes (413 above it); multipart requests
       * may be this large even when `bodyBytes` is smaller. Default 10 MiB.
       */
      uploadBytes: z.number().int().positive().default(10 * 1024 * 1024),
    })
    .prefault({}),
  /**
   * Which reverse proxies' `X-Forwarded-For` to believe for the client address (per-address rate
   * limits, audit logs), as express's `trust proxy`: `false` (default) the peer address only; a
   * number of proxy hops in front (1 behind one HAProxy or nginx); a list of proxy addresses and
   * CIDR ranges; `true` every hop (http/client-address.ts).
   */
  trustProxy: z
    .union([z.boolean(), z.number().int().min(0), z.array(z.string())])
    .default(false)
    .superRefine((value, ctx) => {
      try {
        trustHop(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    }),
  /**
   * Value used while the instance setting `impersonation_enabled` is absent (spec Authentication
   * rule 3: enabled by default; the setting `false` disables it; removing the setting restores this).
   */
  impersonationEnabled: z.boolean().default(true),
  /**
   * Value used while the instance setting `default_branch_protection` is absent (reference default 2,
   * fully protected): how a project's first branch, which becomes its default, is protected — 0 not
   * at all, 1 Developers push and Maintainers merge, 2 Maintainers push and merge, 3 Maintainers push
   * and Developers merge, 4 as 2 once the first commit is in. At 1–3 only Maintainers may write the
   * first branch of an empty repository. Never a force push.
   */
  defaultBranchProtection: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(2),
  /**
   * Whether git over HTTP accepts a username and password (reference
   * `password_authentication_enabled_for_git`, default on). Tokens are always accepted.
   */
  passwordAuthenticationForGit: z.boolean().default(true),
  /** The OAuth 2.0 provider (`/oauth`): lifetimes, the host login page, id_token key, throttling. */
  oauth: oauthOptionsSchema.prefault({}),
  /**
   * Counts failed OAuth client authentications and password-grant attempts (brute-force
   * protection); default: in memory, per process (`oauth.rateLimit`). Share one between processes.
   */
  rateLimiter: port<RateLimiter>("RateLimiter", "retryAfter", "recordFailure", "reset").optional(),
  /** The OpenAPI 3.1 document of the route table (`fk.openApi()`): `serve: true` also answers it at `GET /api/v4/openapi.json` (default off: 404). */
  openapi: z.strictObject({ serve: z.boolean().default(false) }).prefault({}),
  /** Project imports: `allowLocalNetwork` (the URL guard, default false), client factories (imports/options.ts). */
  imports: importsOptionsSchema.prefault({}),
  /** Tells users things outside a response (the gists import's skipped gists); default: the logger (ports/notifier.ts). */
  notifier: port<Notifier>("Notifier", "notify").optional(),
  /**
   * Where durable background jobs are kept and claimed (`fk.jobs`, `fk.workers`); default: the
   * store's own table (`store.jobs`). E.g. `bullmqJobs(...)` from `@forgekit/jobs-bullmq` (Redis).
   */
  jobs: port<JobRepository>("JobRepository", "enqueue", "claim", "extendLease", "progress", "complete", "fail", "release", "acknowledgeCancel", "cancel", "findById", "list")
    .refine((j) => j.clock === "caller" || j.clock === "real", { message: 'must say its clock ("caller" or "real")' })
    .optional(),
}).superRefine((config, ctx) => {
  const names = Object.keys(config.repositoryStorages);
  if (config.defaultRepositoryStorage !== undefined && !names.includes(config.defaultRepositoryStorage)) {
    ctx.addIssue({ code: "custom", path: ["defaultRepositoryStorage"], message: `must be one of the repositoryStorages (${names.join(", ")}), got "${config.defaultRepositoryStorage}"` });
  }
});

/** What a host passes to `createForgekit`. */
export type ForgekitOptions = z.input<typeof configSchema>;

/**
 * The parsed, frozen configuration every service reads. The repository storage fields are
 * resolved: the port (given or the git CLI default) and the shard new containers go to.
 */
export type ForgekitConfig = Readonly<
  Omit<z.output<typeof configSchema>, "repositoryStorage" | "defaultRepositoryStorage"> & { repositoryStorage: RepositoryStorage; defaultRepositoryStorage: string }
>;

export { ForgekitConfigError } from "./domain/config-error.js";

/** Parses and freezes a configuration. Ports are kept as given (only the config object is frozen). */
export function parseConfig(input: unknown): Result<ForgekitConfig, ForgekitConfigError> {
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    return err(new ForgekitConfigError(describeConfigIssues(parsed.error.issues)));
  }
  const names = Object.keys(parsed.data.repositoryStorages);
  const config = {
    ...parsed.data,
    // The schema guarantees at least one shard, and that a given default is one of them.
    defaultRepositoryStorage: parsed.data.defaultRepositoryStorage ?? names[0] ?? "default",
    repositoryStorage: parsed.data.repositoryStorage ?? gitRepositoryStorage({ shards: shardDirectories(parsed.data.repositoryStorages) }),
  };
  if (config.oauth.signingKeyPem !== undefined && signingKeyFromPem(config.oauth.signingKeyPem).isErr()) {
    return err(new ForgekitConfigError([{ path: "oauth.signingKeyPem", message: "must be a PEM RSA private key of at least 2048 bits" }]));
  }
  // OAuth access tokens authenticate /api/v4 through the instance's own OAuth store unless the host plugs in a lookup.
  if ((input as { oauthTokens?: unknown }).oauthTokens === undefined) config.oauthTokens = createOAuthTokenLookup({ store: oauthStoreFrom(config.store) });
  Object.freeze(config.oauth);
  Object.freeze(config.limits);
  Object.freeze(config.openapi);
  for (const shard of Object.values(config.repositoryStorages)) Object.freeze(shard);
  Object.freeze(config.repositoryStorages);
  return ok(Object.freeze(config));
}
