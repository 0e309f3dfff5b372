/**
 * A flood of password-grant attempts for unknown users (issue #23 item 8) against one instance
 * with the production scrypt cost: peak RSS, how the flood was answered, and how long a request
 * that hashes nothing (GET /api/v4/user with a personal token) and a known user's own password
 * grant took in the middle of it.
 * `tsx --conditions=@forgekit/source bench/_password-flood.ts <attempts> [unbounded]`
 */
import { createForgekit } from "../packages/core/src/forgekit.js";
import { memoryStore } from "../packages/core/src/memory.js";

const attempts = Number(process.argv[2] ?? 24);
const unbounded = process.argv[3] === "unbounded";
const fk = createForgekit({
  baseUrl: "https://forge.example.com",
  store: memoryStore(),
  logger: { log: () => undefined },
  ...(unbounded ? { passwordHashing: { concurrency: 1000, queue: 100000 } } : {}),
});
await fk.migrate().match(() => undefined, (e) => { throw new Error(e.code); });
const user = (await fk.users.create({ username: "alice", name: "Alice", email: "alice@example.com", password: "alice-password" }))._unsafeUnwrap();
const { plaintext } = (await fk.tokens.createPersonal(user.id, { name: "t", scopes: ["api"] }))._unsafeUnwrap();

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const base = process.memoryUsage().rss;
const started = performance.now();
const grant = (username: string, password: string, address: string) =>
  fk.handle({
    method: "POST",
    path: "/oauth/token",
    rawQuery: "",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new TextEncoder().encode(new URLSearchParams({ grant_type: "password", username, password }).toString()),
    remoteAddress: address,
  });
const flood = Array.from({ length: attempts }, (_, i) => grant(`nobody${i}`, "guess", `198.51.100.${i % 250}`).then((r) => ({ status: r.status, ms: performance.now() - started })));
await new Promise((resolve) => setTimeout(resolve, 200));
const apiStart = performance.now();
const api = await fk.handle({ method: "GET", path: "/api/v4/user", rawQuery: "", headers: { "private-token": plaintext } });
const apiMs = performance.now() - apiStart;
const loginStart = performance.now();
const login = await grant("alice", "alice-password", "203.0.113.7");
const loginMs = performance.now() - loginStart;
const results = await Promise.all(flood);
clearInterval(sampler);
const statuses: Record<number, number> = {};
for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
console.log(
  JSON.stringify({
    mode: unbounded ? "unbounded" : "default limits",
    attempts,
    statuses,
    baseRssMiB: Math.round(base / 2 ** 20),
    peakRssMiB: Math.round(peak / 2 ** 20),
    floodDoneMs: Math.round(performance.now() - started),
    slowestAnswerMs: Math.round(Math.max(...results.map((r) => r.ms))),
    apiDuringFloodMs: Math.round(apiMs),
    apiStatus: api.status,
    knownLoginMs: Math.round(loginMs),
    knownLoginStatus: login.status,
  }),
);
