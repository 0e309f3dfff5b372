/**
 * `npx -y pnpm@10.34.8 -C examples/cluster start`: the example cluster (cluster.ts). Environment:
 * PORT (the proxy's, default 3000), INSTANCES (default 3), DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/forgekit_cluster, which must exist: `createdb forgekit_cluster`),
 * REDIS_URL (e.g. redis://127.0.0.1:6379/0: jobs on BullMQ and the throttle there; default none:
 * both in the database), REDIS_PREFIX (default forgekit), REDIS_UNAVAILABLE (memory, closed, open).
 * The data folder is ./data-cluster in the working directory. Ctrl-C stops every part.
 */
import { join } from "node:path";
import { startCluster } from "./cluster.js";

const port = Number(process.env["PORT"] ?? "3000");
const instances = Number(process.env["INSTANCES"] ?? "3");
const database = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/forgekit_cluster";
const redis = process.env["REDIS_URL"] || undefined;
const prefix = process.env["REDIS_PREFIX"] || undefined;
const policy = process.env["REDIS_UNAVAILABLE"];
if (policy !== undefined && policy !== "memory" && policy !== "closed" && policy !== "open") {
  console.error(`REDIS_UNAVAILABLE must be memory, closed or open, got "${policy}"`);
  process.exit(2);
}
const cluster = await startCluster({
  port,
  instances,
  database,
  dataDir: join(process.cwd(), "data-cluster"),
  ...(redis === undefined ? {} : { redis }),
  ...(prefix === undefined ? {} : { redisPrefix: prefix }),
  ...(policy === undefined ? {} : { whenRedisUnavailable: policy }),
}).catch((error: unknown) => {
  console.error(`the cluster failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(cluster.banner);
console.log(`\n${instances} instances, 1 worker${redis === undefined ? "" : `, jobs and throttle on ${redis}`}, HAProxy round-robin at ${cluster.url} (Ctrl-C stops all)`);
const stop = () => void cluster.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
