/**
 * Seeding for bench/events.ts: a small world through the services, then N events with the event
 * indexes dropped — into SQLite with one prepared INSERT in one transaction, into PostgreSQL with
 * one INSERT … SELECT over generate_series — the indexes rebuilt by sorting afterwards, the event
 * counters (migration 0016) recounted from the events, and ANALYZE (what an operator's bulk import
 * would do). Both databases get the same rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createForgekit, type Forgekit } from "../packages/core/src/forgekit.js";
import type { Project, User } from "../packages/core/src/accounts/types.js";
import { EVENT_INDEX_COLUMNS } from "../packages/store-kysely/src/migrations/0003-events.js";
import { must } from "../packages/core/src/testing/fixtures.js";
import { kyselyStore, postgres, sqlite, type DialectConfig } from "../packages/store-kysely/src/index.js";
import { rebuildEventCounts } from "../packages/store-kysely/src/repositories/event-counts.js";


interface RawStatement {
  run(...params: unknown[]): unknown;
}
interface RawDatabase {
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction(fn: () => void): () => void;
  close(): void;
}
const fromStoreKysely = createRequire(new URL("../packages/store-kysely/package.json", import.meta.url));
const BetterSqlite3 = fromStoreKysely("better-sqlite3") as new (file: string) => RawDatabase;
interface PgClient {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  release(): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = fromStoreKysely("pg") as { Pool: new (options: { connectionString: string; max: number }) => PgPool };
type AnyKysely = Parameters<typeof rebuildEventCounts>[0];
const { Kysely } = fromStoreKysely("kysely") as { Kysely: new (config: { dialect: DialectConfig["dialect"] }) => AnyKysely };

/** The instance's clock: every event lies in the 900 days before this instant. */
export const BENCH_NOW = new Date("2026-06-01T00:00:00.000Z");
const SPAN_MS = 900 * 86_400_000;
const AUTHORS = 10;
const PROJECTS = 5;

/** A seeded database and the instance over it. */
export interface SeededEvents {
  fk: Forgekit;
  authors: User[];
  /** Signed in, member of nothing (reads public projects). */
  viewer: User;
  viewerToken: string;
  /** Developer of the first project and of the private last one. */
  member: User;
  projects: Project[];
  /** Closes the instance and deletes the database. */
  dispose(): Promise<void>;
}

/** One row template per share of the events (weights out of 20): pushes, issues, notes, merge requests. */
const TEMPLATES: readonly { action: string; target: string | null; payload: string | null; weight: number }[] = [
  { action: "pushed", target: null, payload: JSON.stringify({ push: { commitCount: 3, action: "pushed", refType: "branch", commitFrom: "1".repeat(40), commitTo: "2".repeat(40), ref: "main", commitTitle: "Fix the thing" } }), weight: 6 },
  { action: "created", target: "Issue", payload: null, weight: 5 },
  { action: "commented", target: "Note", payload: JSON.stringify({ note: { id: 1, body: "Looks good to me", attachment: null, authorId: 1, createdAt: "2025-01-01T00:00:00.000Z", system: false, noteableType: "Issue", noteableId: 1, noteableIid: 1 } }), weight: 4 },
  { action: "closed", target: "Issue", payload: null, weight: 2 },
  { action: "created", target: "MergeRequest", payload: null, weight: 2 },
  { action: "merged", target: "MergeRequest", payload: null, weight: 1 },
];
const SLOTS = TEMPLATES.flatMap((template) => Array.from({ length: template.weight }, () => template));

function open(dir: string, config: DialectConfig): Forgekit {
  // Projects and groups get repositories: in the bench's temporary folder, removed by dispose().
  const repositoryStorages = { default: { path: join(dir, "repositories") } };
  return createForgekit({ baseUrl: "http://bench.local", store: kyselyStore(config), clock: { now: () => new Date(BENCH_NOW) }, logger: { log: () => undefined }, repositoryStorages });
}

/** Where the events go: a SQLite file (default) or a new schema on a PostgreSQL server (dropped by dispose). */
export type SeedTarget = { kind: "sqlite" } | { kind: "postgres"; url: string };

/** Seeds `count` events; resolves the instance and the seconds the bulk insert and index build took. */
export async function seedEvents(count: number, target: SeedTarget = { kind: "sqlite" }): Promise<SeededEvents & { seedSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-bench-events-"));
  const file = join(dir, "events.db");
  const pool = target.kind === "postgres" ? new pg.Pool({ connectionString: target.url, max: 8 }) : null;
  const schema = `forgekit_bench_${process.pid}_${Date.now().toString(36)}`;
  const config = (): DialectConfig => (pool === null ? sqlite(file) : postgres(pool as never, { schema }));
  const setup = open(dir, config());
  await must(setup.migrate());
  const user = (name: string) => must(setup.users.create({ username: name, name, email: `${name}@bench.local` }));
  const authors: User[] = [];
  for (let i = 0; i < AUTHORS; i++) authors.push(await user(`author${i}`));
  const viewer = await user("viewer");
  const member = await user("member");
  const viewerToken = (await must(setup.tokens.createPersonal(viewer.id, { name: "bench", scopes: ["api"] }))).plaintext;
  const group = await must(setup.groups.create({ name: "bench", path: "bench", visibility: "public" }));
  const projects: Project[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    projects.push(await must(setup.projects.create({ namespaceId: group.id, name: `project${i}`, visibility: i === PROJECTS - 1 ? "private" : "public" })));
  }
  for (const project of [projects[0]!, projects[PROJECTS - 1]!]) await must(setup.members.add({ sourceType: "project", sourceId: project.id, userId: member.id, accessLevel: 30 }));
  await must(setup.close());

  const started = performance.now();
  if (pool !== null) await seedPostgres(pool, schema, count, authors, projects);
  else seedSqlite(file, count, authors, projects);
  const counters = config();
  const db = new Kysely({ dialect: counters.dialect });
  await rebuildEventCounts(pool === null ? db : db.withSchema(schema), counters.traits);
  if (pool !== null) await pool.query(`analyze "${schema}".forgekit_event_project_counts; analyze "${schema}".forgekit_event_author_counts`);
  else await db.destroy();
  const seedSeconds = (performance.now() - started) / 1000;

  const fk = open(dir, config());
  return {
    fk, authors, viewer, viewerToken, member, projects, seedSeconds,
    async dispose() {
      await must(fk.close());
      if (pool !== null) {
        await pool.query(`drop schema if exists "${schema}" cascade`);
        await pool.end();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function seedSqlite(file: string, count: number, authors: readonly User[], projects: readonly Project[]): void {
  const raw = new BetterSqlite3(file);
  raw.pragma("foreign_keys = OFF");
  for (const name of Object.keys(EVENT_INDEX_COLUMNS)) raw.exec(`drop index ${name}`);
  const insert = raw.prepare(
    "insert into forgekit_events (project_id, author_id, action, target_type, target_id, target_iid, target_title, audience, audience_user_id, payload, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const start = BENCH_NOW.getTime() - SPAN_MS;
  raw.transaction(() => {
    for (let i = 0; i < count; i++) {
      const template = SLOTS[(i * 7) % SLOTS.length]!;
      const author = authors[(i * 3) % AUTHORS]!.id;
      const target = template.target === null ? null : i;
      // One issue event in twenty is about a confidential issue: members at Reporter+ and its author only.
      const confidential = template.target === "Issue" && i % 20 === 0;
      insert.run(
        projects[i % PROJECTS]!.id, author, template.action, template.target, target, target === null ? null : (i % 5000) + 1,
        target === null || template.target === "Note" ? null : `${template.target} ${i}`, confidential ? 3 : 0, confidential ? author : null,
        template.payload, start + Math.floor((i * SPAN_MS) / count),
      );
    }
  })();
  for (const [name, columns] of Object.entries(EVENT_INDEX_COLUMNS)) raw.exec(`create index ${name} on forgekit_events (${columns.join(", ")})`);
  raw.exec("analyze");
  raw.close();
}

/** The same rows as seedSqlite, generated by the server. */
async function seedPostgres(pool: PgPool, schema: string, count: number, authors: readonly User[], projects: readonly Project[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    for (const name of Object.keys(EVENT_INDEX_COLUMNS)) await client.query(`drop index ${name}`);
    const slots = SLOTS.map((template, slot) => `(${slot}, '${template.action}', ${template.target === null ? "null" : `'${template.target}'`}, ${template.payload === null ? "null" : `'${template.payload}'`})`).join(", ");
    const start = BENCH_NOW.getTime() - SPAN_MS;
    await client.query(
      `insert into forgekit_events (project_id, author_id, action, target_type, target_id, target_iid, target_title, audience, audience_user_id, payload, created_at)
       select p.ids[i % $1 + 1], a.ids[(i * 3) % $2 + 1], t.action, t.target,
              case when t.target is null then null else i end,
              case when t.target is null then null else (i % 5000) + 1 end,
              case when t.target is null or t.target = 'Note' then null else t.target || ' ' || i end,
              case when t.target = 'Issue' and i % 20 = 0 then 3 else 0 end,
              case when t.target = 'Issue' and i % 20 = 0 then a.ids[(i * 3) % $2 + 1] else null end,
              t.payload,
              to_timestamp(($3::bigint + floor(i::numeric * $4 / $5))::numeric / 1000)
       from generate_series(0, $5 - 1) as i
       cross join (select $6::int[] as ids) p cross join (select $7::int[] as ids) a
       join (values ${slots}) as t(slot, action, target, payload) on t.slot = (i * 7) % ${SLOTS.length}`,
      [PROJECTS, AUTHORS, start, SPAN_MS, count, projects.map((p) => p.id), authors.map((a) => a.id)],
    );
    for (const [name, columns] of Object.entries(EVENT_INDEX_COLUMNS)) await client.query(`create index ${name} on forgekit_events (${columns.join(", ")})`);
    await client.query("analyze forgekit_events");
  } finally {
    client.release();
  }
}
