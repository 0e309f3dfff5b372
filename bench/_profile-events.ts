/**
 * Profiling harness for issue 12's events route (not a benchmark `pnpm bench` runs): events seeded
 * on SQLite (FORGEKIT_PROFILE_EVENTS, default 200,000) behind adapter-express, loaded for 5 s with
 * 32 keep-alive connections. Run it under the profiler:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=@forgekit/source bench/_profile-events.ts
 */
import { createServer, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import { forgekit as expressForgekit } from "../packages/adapter-express/src/index.js";
import { load } from "./_http-load.js";
import { seedEvents } from "./_events-seed.js";

const express = createRequire(new URL("../packages/adapter-express/package.json", import.meta.url))("express") as () => RequestListener & { use(h: unknown): void };
const seeded = await seedEvents(Number(process.env["FORGEKIT_PROFILE_EVENTS"] ?? 200_000));
const app = express();
app.use(expressForgekit(seeded.fk));
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
const port = (server.address() as { port: number }).port;
const path = `/api/v4/projects/${seeded.projects[0]?.id ?? 0}/events?per_page=20`;
const r = await load({ port, path, headers: { "private-token": seeded.viewerToken }, connections: 32, warmupMs: 500, durationMs: 5000 });
console.log(`${Math.round(r.requestsPerSecond)} req/s, ${r.badStatus} bad`);
server.closeAllConnections();
server.close();
await seeded.dispose();
process.exit(0);
