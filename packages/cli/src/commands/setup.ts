/** `forgekit migrate` and `forgekit seed-demo`. */
import { demoOAuthLines } from "../demo-oauth.js";
import { seedDemo, type DemoSeed } from "../demo-seed.js";
import { migrationDisplay } from "../migration-progress.js";
import type { Output } from "../output.js";
import type { Command } from "./context.js";

const migrate: Command = {
  name: "migrate",
  summary: "create or upgrade the database schema (idempotent)",
  createsDatabase: true,
  notes: ["Shows each migration as it runs: a progress bar on a terminal, plain lines otherwise, JSON lines on stderr with --json."],
  run: ({ fk, io, json }) => {
    const display = migrationDisplay(io, json === true);
    return fk
      .migrate({ onProgress: display.onProgress })
      .map(({ applied }) => {
        display.end();
        return {
          json: { migrated: true, applied },
          text: applied.length === 0 ? ["database schema is up to date: nothing to apply"] : [`applied ${applied.length} migration${applied.length === 1 ? "" : "s"}: ${applied.join(", ")}`, "database schema is up to date"],
        };
      })
      .mapErr((error) => {
        display.end();
        return error;
      });
  },
};

/** Text lines describing a seeded demo (shared with the examples' start-up banner). */
export function demoSeedLines(seed: DemoSeed): string[] {
  return [
    seed.created === 0 ? "demo data already present (nothing created)" : `demo data seeded (${seed.created} records created)`,
    ...seed.users.map((u) => `  ${u.admin ? "admin" : "user "} @${u.username.padEnd(6)} token ${u.token}`),
    `  groups:   ${seed.groups.map((g) => `${g.fullPath} (${g.visibility})`).join(", ")}`,
    `  projects: ${seed.projects.map((p) => `${p.fullPath} (${p.visibility})`).join(", ")}`,
  ];
}

function seedOutput(seed: DemoSeed, tokensFile: string, baseUrl: string): Output {
  return {
    json: { ...seed, tokens_file: tokensFile },
    text: [...demoSeedLines(seed), `Demo tokens are kept in plaintext in ${tokensFile} (demo only).`, ...demoOAuthLines(baseUrl, seed.oauth)],
  };
}

const seedDemoCommand: Command = {
  name: "seed-demo",
  summary: "migrate, then create the demo users, groups, projects, members and tokens (idempotent)",
  createsDatabase: true,
  notes: [
    "The demo tokens' plaintext is kept in demo-tokens.json next to the SQLite database (or in ./data",
    "for PostgreSQL and MySQL), per database, so that re-running can print them again. That file is",
    "for the demo only.",
  ],
  run: ({ fk, demoTokensFile, databaseKey }) =>
    fk
      .migrate()
      .andThen(() => seedDemo(fk, { tokensFile: demoTokensFile, database: databaseKey }))
      .map((seed) => seedOutput(seed, demoTokensFile, fk.config.baseUrl)),
};

/** The set-up commands. */
export const setupCommands: Command[] = [migrate, seedDemoCommand];
