/**
 * Profiling harness for issue 12's feed latency (not a benchmark `pnpm bench` runs): 100,000 events
 * on SQLite, the project feed (or `user`) called 5,000 times in a row through the service. Run:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx --conditions=@forgekit/source bench/_profile-feed.ts [user]
 */
import { seedEvents } from "./_events-seed.js";

const s = await seedEvents(100_000);
const user = process.argv[2] === "user";
const run = async () => {
  const result = user ? await s.fk.events.ofUser(s.viewer, s.authors[3]!.id, {}, { kind: "offset", page: 1, perPage: 20 }) : await s.fk.events.ofProject(s.viewer, s.projects[0]!.id, {}, { kind: "offset", page: 1, perPage: 20 });
  if (result.isErr()) throw new Error(result.error.code);
};
for (let i = 0; i < 200; i++) await run();
const started = performance.now();
for (let i = 0; i < 5000; i++) await run();
console.log(`${user ? "user" : "project"} feed: ${((performance.now() - started) / 5000).toFixed(3)} ms per call`);
await s.dispose();
