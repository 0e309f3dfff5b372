/**
 * Statements per authenticated read on SQLite (issue 12): each one is a round trip on the hot
 * path, so their number is pinned here. A request that reads a row twice, or a lookup the request
 * already made, shows up as a higher count.
 */
import BetterSqlite3 from "better-sqlite3";
import { createTestForgekit, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "./index.js";
import { recordingSqlite } from "./recording-sqlite.js";

const raw = new BetterSqlite3(":memory:");
const log: string[] = [];
let recording = false;
/** The driver's database, recording every statement run while `recording` is on. */
const database = recordingSqlite(raw, ({ sql }) => {
  if (recording) log.push(sql.replace(/\s+/g, " "));
});

let t: TestForgekit;
beforeAll(async () => {
  t = await createTestForgekit({ store: kyselyStore(sqlite(database)) });
  const project = t.projects.publicProject;
  for (let i = 0; i < 3; i++) (await t.fk.events.record({ projectId: project.id, authorId: t.users.alice.id, action: "created", target: { type: "Issue", id: i + 1, iid: i + 1, title: `issue ${i}` } }))._unsafeUnwrap();
});
afterAll(() => raw.close());

/** The statements one GET runs (after a first, warming request). */
async function statementsOf(path: string, token: string): Promise<string[]> {
  const [pathname, rawQuery = ""] = path.split("?") as [string, string?];
  const get = () => t.fk.handle({ method: "GET", path: pathname, rawQuery, headers: { "private-token": token } });
  expect((await get()).status).toBe(200);
  log.length = 0;
  recording = true;
  try {
    expect((await get()).status).toBe(200);
  } finally {
    recording = false;
  }
  return [...log];
}

describe("statements per authenticated read (SQLite)", () => {
  it("GET /projects/:id: 6 (token with its user, project, namespace chain, both permission levels, open issues, import status)", async () => {
    const statements = await statementsOf(`/api/v4/projects/${t.projects.publicProject.id}`, t.tokens.alice);
    expect(statements).toHaveLength(6);
  });

  it("GET /projects/:id/events, a full page: 6 (token with its user, project, the viewer's level, page, total from the counters, authors) — the project is read once", async () => {
    const statements = await statementsOf(`/api/v4/projects/${t.projects.publicProject.id}/events?per_page=2`, t.tokens.bob);
    expect(statements.filter((s) => /^select (\*|"visibility") from "forgekit_projects"/.test(s))).toHaveLength(1);
    expect(statements).toHaveLength(6);
  });
});
