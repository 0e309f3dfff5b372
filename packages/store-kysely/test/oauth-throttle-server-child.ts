/**
 * Child process of oauth-throttle-memory.test.ts: a real server (the node handler of createForgekit
 * on a SQLite file) whose OAuth throttle is watched from outside. It prints `ready <port>`, then
 * answers each `stats` line on stdin with one JSON line: resident set size and heap after a full
 * garbage collection, and the number of keys the rate limiter holds. `advance <seconds>` moves its
 * clock forward (the window passes without the test waiting for it).
 *
 * argv: <sqlite file> <rate-limit window in seconds>.
 */
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createForgekit, createMemoryRateLimiter, scryptPasswordHasher } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { kyselyStore, sqlite } from "../src/index.js";

const [file, windowArg] = process.argv.slice(2);
if (file === undefined || windowArg === undefined) throw new Error("usage: <file> <windowSeconds>");
const windowSeconds = Number(windowArg);

// A full collection before each reading, so the figures show what is kept, not what is garbage.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const rateLimit = { maxFailures: 10, maxFailuresPerAddress: 30, windowSeconds };
const limiter = createMemoryRateLimiter(rateLimit);
let offsetMs = 0;
const fk = createForgekit({
  baseUrl: "https://forge.example.com",
  clock: { now: () => new Date(Date.now() + offsetMs) },
  store: kyselyStore(sqlite(file)),
  rateLimiter: limiter,
  oauth: { rateLimit },
  // Cheap hashing: the figures are about memory, not about scrypt's cost.
  passwordHasher: scryptPasswordHasher({ cost: 1024 }),
  // Room for the test's 8 requests in flight: this test is about the throttle's memory, not the hashing gate's 503s.
  passwordHashing: { concurrency: 2, queue: 16 },
});
const migrated = await fk.migrate();
if (migrated.isErr()) throw new Error(`migrate failed: ${JSON.stringify(migrated.error)}`);

const server = createServer(createNodeHandler(fk));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
if (address === null || typeof address === "string") throw new Error("no port");
process.stdout.write(`ready ${address.port}\n`);

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.startsWith("advance ")) {
    offsetMs += Number(line.slice("advance ".length)) * 1000;
    process.stdout.write("advanced\n");
  } else if (line === "stats") {
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rss, heapUsed, keys: limiter.size })}\n`);
  } else if (line === "exit") {
    lines.close();
    server.close();
    void fk.close().then(() => process.exit(0));
  }
});
