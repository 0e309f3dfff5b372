/** Opens the store for a database target and builds the forgekit instance the commands use. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createForgekit, type Forgekit, type JobRepository, type Logger, type RateLimiter, type Tier } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { repositoryStorages, storeLocation, type DatabaseTarget } from "./database.js";
import type { KeyEncryptionOptions } from "./key-encryption.js";

/**
 * Options of `openInstance`: the database, the external URL and the instance settings the CLI passes to
 * `createForgekit`.
 */
export interface OpenInstanceOptions {
  database: DatabaseTarget;
  baseUrl: string;
  /** The licensed tier (default free). */
  tier?: Tier;
  /** Receives forgekit's log events (the CLI shows warnings and errors only). */
  logger?: Logger;
  /**
   * Whether a missing SQLite file (and its folders) may be created (default true). False opens an
   * existing file only: a missing one fails as `file_missing` on first use, leaving nothing behind.
   */
  create?: boolean;
  /** Where ./data is for a PostgreSQL or MySQL target (default: the process's working directory). */
  cwd?: string;
  /** `oauth.keyEncryption`: encrypts the stored id_token and consent keys (key-encryption.ts reads it). */
  keyEncryption?: KeyEncryptionOptions | undefined;
  /**
   * Background jobs on BullMQ (Redis) instead of the database's table (env FORGEKIT_REDIS_URL,
   * FORGEKIT_REDIS_PREFIX): needs `@forgekit/jobs-bullmq` installed next to the CLI.
   */
  redis?: { url: string; prefix?: string | undefined };
  /**
   * `imports.allowLocalNetwork` (env FORGEKIT_IMPORTS_ALLOW_LOCAL_NETWORK=true): a worker that runs the
   * imports of servers allowing local sources (the demo's stand-in forge) needs the same setting.
   */
  allowLocalImports?: boolean;
  /** How `@forgekit/jobs-bullmq` is loaded (default: import by name; tests pass the workspace source). */
  loadJobsBullmq?: () => Promise<JobsBullmqModule>;
}

/** What the CLI uses of `@forgekit/jobs-bullmq` (an optional companion package, loaded when asked for). */
export interface JobsBullmqModule {
  bullmqJobs: (options: { connection: string; prefix?: string }) => JobRepository & { close(): Promise<void> };
  /** The shared limiter the demo host uses with FORGEKIT_REDIS_URL (demo-host.ts). */
  redisRateLimiter?: (options: { connection: string; maxFailures: number; windowSeconds: number; keyPrefix?: string; whenUnavailable?: "memory" | "closed" | "open"; logger?: Logger }) => RateLimiter & { close(): Promise<void> };
}

const JOBS_BULLMQ = "@forgekit/jobs-bullmq";

/** Imports `@forgekit/jobs-bullmq` by name; a clear error when it is not installed. */
export async function importJobsBullmq(): Promise<JobsBullmqModule> {
  try {
    // A variable specifier: the package is optional, so neither TypeScript nor the bundler must require it.
    const specifier: string = JOBS_BULLMQ;
    return (await import(specifier)) as JobsBullmqModule;
  } catch (error) {
    throw new Error(`FORGEKIT_REDIS_URL is set, but ${JOBS_BULLMQ} cannot be loaded (${error instanceof Error ? error.message : String(error)}): install it next to the CLI (npm install ${JOBS_BULLMQ} bullmq)`);
  }
}

/** An open instance; `close` releases the database connections. */
export interface OpenInstance {
  fk: Forgekit;
  close(): Promise<void>;
}

/** Creates the SQLite file's directory (unless `create` is false), opens the store and builds the instance. */
export async function openInstance(options: OpenInstanceOptions): Promise<OpenInstance> {
  const create = options.create ?? true;
  if (create && options.database.kind === "sqlite" && options.database.path !== ":memory:") {
    mkdirSync(dirname(options.database.path), { recursive: true });
  }
  const store = kyselyStore(fromUrl(storeLocation(options.database), { sqlite: { fileMustExist: !create } }));
  let jobs: (JobRepository & { close(): Promise<void> }) | undefined;
  try {
    if (options.redis !== undefined) {
      const { bullmqJobs } = await (options.loadJobsBullmq ?? importJobsBullmq)();
      jobs = bullmqJobs({ connection: options.redis.url, ...(options.redis.prefix === undefined ? {} : { prefix: options.redis.prefix }) });
    }
    const fk = createForgekit({
      baseUrl: options.baseUrl,
      store,
      tier: options.tier ?? "free",
      // Shards `default` and `secondary` next to the database (database.ts): a project made here has its repository there.
      repositoryStorages: repositoryStorages(options.database, options.cwd ?? process.cwd()),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.keyEncryption === undefined ? {} : { oauth: { keyEncryption: options.keyEncryption } }),
      ...(jobs === undefined ? {} : { jobs }),
      ...(options.allowLocalImports === true ? { imports: { allowLocalNetwork: true } } : {}),
    });
    const opened = jobs;
    return { fk, close: async () => void (await Promise.all([store.close(), opened?.close()])) };
  } catch (error) {
    await Promise.all([store.close(), jobs?.close()]);
    throw error;
  }
}
