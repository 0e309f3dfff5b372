/**
 * Profiling harness for issue 12's authenticated read (not a benchmark `pnpm bench` runs): the
 * seeded instance (`memory`, or SQLite by default) behind core's node handler, loaded for 5 s with
 * 32 keep-alive connections. Run it under the profiler:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=@forgekit/source bench/_profile-read.ts [memory]
 */
import { createServer } from "node:http";
import { createNodeHandler } from "../packages/core/src/node/index.js";
import { defaultTarget, sqliteTarget } from "./http-serving.js";
import { load } from "./_http-load.js";
const target = process.argv[2] === "memory" ? await defaultTarget() : await sqliteTarget();
const server = createServer(createNodeHandler(target.instance));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
const port = (server.address() as { port: number }).port;
const r = await load({ port, path: target.path, headers: target.headers, connections: 32, warmupMs: 500, durationMs: 5000 });
console.log(process.argv[2] ?? "sqlite", Math.round(r.requestsPerSecond), "req/s", r.badStatus);
server.closeAllConnections(); server.close();
process.exit(0);
