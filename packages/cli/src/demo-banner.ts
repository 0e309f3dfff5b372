/** The start-up text of the examples: where the instance listens, the demo tokens, three curl commands, a git clone, the import command. */
import type { DemoImport } from "./demo-import.js";
import { demoOAuthLines } from "./demo-oauth.js";
import { listenLine } from "./demo-preflight.js";
import type { DemoSeed } from "./demo-seed.js";

/** Quotes a value for a POSIX shell. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * `git clone http://oauth2:<token>@host/<project>.git` for a demo project the token's user owns (a
 * token as the password works with any username; `oauth2` is the one OAuth tokens need).
 */
export function demoGitCloneCommand(baseUrl: string, projectPath: string, token: string): string {
  const url = new URL(baseUrl);
  url.username = "oauth2";
  url.password = encodeURIComponent(token);
  url.pathname = `${url.pathname.replace(/\/$/, "")}/${projectPath}.git`;
  return `git clone ${shellQuote(url.toString())}`;
}

/** The import section: the one command to paste, then where to watch it and what to clone. */
export function demoImportLines(baseUrl: string, demoImport: DemoImport | { unavailable: string }, token: string): string[] {
  if ("unavailable" in demoImport) return [`Import: no demo import (${demoImport.unavailable}).`];
  const status = `${baseUrl}/api/v4/projects/${encodeURIComponent(demoImport.projectPath)}/import`;
  return [
    `Import a project (octocat/hello-world from the forge stand-in on ${demoImport.forgeUrl}: issues, a pull request, comments, labels, a milestone) into ${demoImport.projectPath}:`,
    `  ${demoImport.command}`,
    "Then follow it (import_status becomes finished), and clone the imported repository:",
    `  curl -H ${shellQuote(`PRIVATE-TOKEN: ${token}`)} ${status}`,
    `  ${demoGitCloneCommand(baseUrl, demoImport.projectPath, token)}`,
  ];
}

/** How to send a project's events to a listener on this machine (the demo allows 127.0.0.1 targets). */
function demoHookLines(api: string, projectPath: string, token: string): string[] {
  return [
    "Webhooks: listen on 127.0.0.1:9000 (e.g. `nc -lk 9000`), add a hook, then push or open an issue:",
    `  curl -X POST -H ${shellQuote(`PRIVATE-TOKEN: ${token}`)} -d url=http://127.0.0.1:9000/hook -d issues_events=true ${api}/projects/${encodeURIComponent(projectPath)}/hooks`,
  ];
}

/** The banner for an instance reachable at `baseUrl` with the seeded demo (and the import command, when there is one; who can connect, when `host` is given). */
export function demoBanner(baseUrl: string, seed: DemoSeed, tokensFile: string, demoImport?: DemoImport | { unavailable: string }, host?: string): string {
  const token = (username: string): string => seed.users.find((u) => u.username === username)?.token ?? "";
  const api = `${baseUrl}/api/v4`;
  const internal = seed.projects.find((p) => p.visibility === "internal");
  const internalPath = encodeURIComponent(internal?.fullPath ?? "demo/platform/api");
  // Alice's private project: her token clones it and pushes to it.
  const own = seed.projects.find((p) => p.fullPath.startsWith("alice/")) ?? seed.projects[0];
  return [
    `forgekit demo is serving ${api} and ${baseUrl}/oauth`,
    ...(host === undefined ? [] : [listenLine(host)]),
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
    ...(own === undefined ? [] : [`  ${demoGitCloneCommand(baseUrl, own.fullPath, token("alice"))}`]),
    "",
    ...(own === undefined ? [] : [...demoHookLines(api, own.fullPath, token("alice")), ""]),
    ...(demoImport === undefined ? [] : [...demoImportLines(baseUrl, demoImport, token("alice")), ""]),
  ].join("\n");
}
