/** Opens the store for a database target and builds the forgekit instance the commands use. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { createForgekit, type Forgekit, type Logger, type Tier } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { repositoryStorages, storeLocation, type DatabaseTarget } from "./database.js";

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
  /** Where ./data/repositories is for a PostgreSQL or MySQL target (default: the process's working directory). */
  cwd?: string;
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
  try {
    const fk = createForgekit({
      baseUrl: options.baseUrl,
      store,
      tier: options.tier ?? "free",
      // Shards `default` and `secondary` next to the database (database.ts): a project made here has its repository there.
      repositoryStorages: repositoryStorages(options.database, options.cwd ?? process.cwd()),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return Promise.resolve({ fk, close: () => store.close() });
  } catch (error) {
    await store.close();
    throw error;
  }
}
