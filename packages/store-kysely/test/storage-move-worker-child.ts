/**
 * Child process of crash-takeover.test.ts: a worker process of a shared SQLite file whose storage
 * move never gets past the copy. It starts the worker pool with the default options (lease 60 s,
 * registry heartbeat 2 s), prints `replicating <moveId>` once the move's job is inside
 * `replicate` (the project read-only, the job running under this process's lease), and then hangs
 * there until the test kills it with SIGKILL.
 *
 * argv: <file> <default shard dir> <secondary shard dir>.
 */
import { createForgekit, gitRepositoryStorage, type RepositoryStorage } from "@forgekit/core";
import { kyselyStore, sqlite } from "../src/index.js";

const [file, defaultShard, secondaryShard] = process.argv.slice(2);
if (file === undefined || defaultShard === undefined || secondaryShard === undefined) throw new Error("usage: <file> <default shard> <secondary shard>");

const shards = { default: { path: defaultShard }, secondary: { path: secondaryShard } };
const real = gitRepositoryStorage({ shards: { default: defaultShard, secondary: secondaryShard } });
const stalled: RepositoryStorage = {
  ...real,
  replicate(ref) {
    process.stdout.write(`replicating ${ref.kind} ${ref.id}\n`);
    return new Promise<never>(() => undefined);
  },
};
const fk = createForgekit({ baseUrl: "https://forge.example.com", store: kyselyStore(sqlite(file)), repositoryStorages: shards, repositoryStorage: stalled, logger: { log: () => undefined } });
fk.workers.start({ recurring: false, pollIntervalMs: 50 })._unsafeUnwrap();
process.stdout.write(`worker ${fk.workers.owner}\n`);
