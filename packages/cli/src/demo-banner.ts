/** The start-up text of the examples: where the instance listens, the demo tokens, three curl commands. */
import { demoOAuthLines } from "./demo-oauth.js";
import type { DemoSeed } from "./demo-seed.js";

/** Quotes a value for a POSIX shell. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The banner for an instance reachable at `baseUrl` with the seeded demo. */
export function demoBanner(baseUrl: string, seed: DemoSeed, tokensFile: string): string {
  const token = (username: string): string => seed.users.find((u) => u.username === username)?.token ?? "";
  const api = `${baseUrl}/api/v4`;
  const internal = seed.projects.find((p) => p.visibility === "internal");
  const internalPath = encodeURIComponent(internal?.fullPath ?? "demo/platform/api");
  return [
    `forgekit demo is serving ${api} and ${baseUrl}/oauth`,
    "",
    seed.created === 0 ? "Demo data: already present (nothing created)." : `Demo data: seeded (${seed.created} records created).`,
    "Personal access tokens (demo only; kept in plaintext in " + tokensFile + "):",
    ...seed.users.map((u) => `  ${`@${u.username}`.padEnd(8)} ${u.admin ? "(admin)" : "       "} ${u.token}`),
    "",
    ...demoOAuthLines(baseUrl, seed.oauth),
    "",
    "Try:",
    `  curl -H ${shellQuote(`PRIVATE-TOKEN: ${token("alice")}`)} ${api}/user`,
    `  curl ${shellQuote(`${api}/projects?visibility=public`)}`,
    `  curl -H ${shellQuote(`Authorization: Bearer ${token("bob")}`)} ${api}/projects/${internalPath}`,
    "",
  ].join("\n");
}
