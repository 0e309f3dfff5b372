/**
 * Event counters (migration 0016_event_counts): how many events each project and each author holds,
 * per filter slot, audience rank and 32-day bucket of creation time, maintained in the transaction
 * that inserts, re-audiences or deletes the events. A feed reads them as a LOWER bound of its
 * matching rows: when that bound already exceeds TOTAL_COUNT_LIMIT the `x-total` headers are
 * omitted without counting 10,001 rows; otherwise the exact bounded count runs as before. The bound
 * only ever under-counts (buckets cut by `before` / `after`, events addressed to the viewer, author
 * events in projects the viewer reads through a membership are left out), so the headers stay exact.
 *
 * Slots: `*` stands for "any" in `action` and `target_type`; events without a target only feed the
 * slots with `target_type = '*'` (no target-type filter can match them).
 */
import type { EventListFilter } from "@forgekit/core";
import { sql, type RawBuilder } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import type { Database } from "../schema.js";
import { executeCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import type { Kysely } from "kysely";

/** Width of a counter bucket: 32 whole days (buckets start at UTC midnight, as `before` / `after` bounds do). */
export const EVENT_COUNT_BUCKET_MS = 32 * 86_400_000;
/** "Any value" in the slot columns. */
export const ANY = "*";

export const PROJECT_COUNTS = "forgekit_event_project_counts";
export const AUTHOR_COUNTS = "forgekit_event_author_counts";
/** Primary keys: the feed key, then the slot, then the bucket (range bound), then the audience. */
export const PROJECT_COUNT_KEY = ["project_id", "action", "target_type", "bucket", "audience"] as const;
export const AUTHOR_COUNT_KEY = ["author_id", "action", "target_type", "bucket", "audience", "project_id"] as const;

/** What a counter needs to know about one event (audience as its rank 0…3). */
export interface CountedEvent {
  projectId: number | null;
  authorId: number;
  action: string;
  targetType: string | null;
  audience: number;
  createdAtMs: number;
}

export const bucketOf = (ms: number): number => Math.floor(ms / EVENT_COUNT_BUCKET_MS);

interface CountRow {
  project_id: number;
  author_id?: number;
  action: string;
  target_type: string;
  audience: number;
  bucket: number;
  n: number;
}

/** The counter rows `events` touch, each with `sign` × its number of events. */
function deltas(events: readonly CountedEvent[], sign: 1 | -1): { project: CountRow[]; author: CountRow[] } {
  const project = new Map<string, CountRow>();
  const author = new Map<string, CountRow>();
  const add = (map: Map<string, CountRow>, row: Omit<CountRow, "n">) => {
    const key = `${row.project_id}|${row.author_id ?? ""}|${row.action}|${row.target_type}|${row.bucket}|${row.audience}`;
    const found = map.get(key);
    if (found === undefined) map.set(key, { ...row, n: sign });
    else found.n += sign;
  };
  for (const e of events) {
    if (e.projectId === null) continue; // never listed in a feed
    const bucket = bucketOf(e.createdAtMs);
    const slots: [string, string][] = [[ANY, ANY], [e.action, ANY]];
    if (e.targetType !== null) slots.push([ANY, e.targetType], [e.action, e.targetType]);
    for (const [action, targetType] of slots) {
      add(project, { project_id: e.projectId, action, target_type: targetType, audience: e.audience, bucket });
      add(author, { project_id: e.projectId, author_id: e.authorId, action, target_type: targetType, audience: e.audience, bucket });
    }
  }
  // A fixed order (the key's) so concurrent writers take the rows' locks in the same order.
  const order = (a: CountRow, b: CountRow) =>
    (a.author_id ?? 0) - (b.author_id ?? 0) || a.project_id - b.project_id || cmp(a.action, b.action) || cmp(a.target_type, b.target_type) || a.bucket - b.bucket || a.audience - b.audience;
  const nonZero = (rows: Iterable<CountRow>) => [...rows].filter((row) => row.n !== 0).sort(order);
  return { project: nonZero(project.values()), author: nonZero(author.values()) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows per upsert statement (7 parameters each: well inside every driver's limit). */
const ROWS_PER_STATEMENT = 500;

/** The adding upsert of `rows` into `table` (built, not run). */
function upsertQuery(db: AnyDb, t: DialectTraits, table: string, key: readonly string[], rows: readonly object[]) {
  const insert = db.insertInto(table).values(rows as never);
  if (t.name === "mysql") return insert.onDuplicateKeyUpdate({ n: sql`n + values(n)` });
  return insert.onConflict((conflict) => conflict.columns([...key]).doUpdateSet({ n: sql`${sql.ref(`${table}.n`)} + excluded.n` }));
}

/**
 * Up to this many rows an upsert runs compiled once per store and row count (sql/compiled.ts): one
 * event touches 2 or 4 rows per table, and building its Kysely query per event was most of an
 * import's garbage (peak RSS).
 */
const COMPILED_ROWS = 8;

async function upsertAdding(ctx: SqlContext, table: string, key: readonly string[], rows: readonly CountRow[]): Promise<void> {
  const db = ctx.db as AnyDb;
  const columns = table === AUTHOR_COUNTS ? AUTHOR_COLUMNS : PROJECT_COLUMNS;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    if (chunk.length > COMPILED_ROWS) {
      await upsertQuery(db, ctx.traits, table, key, chunk).execute();
      continue;
    }
    const args = chunk.flatMap((row) => columns.map((column) => row[column]));
    await executeCompiled(ctx, `eventCounts.upsert:${table}:${chunk.length}`, args, (arg) =>
      upsertQuery(db, ctx.traits, table, key, chunk.map((_, r) => Object.fromEntries(columns.map((column, c) => [column, arg(r * columns.length + c)])))),
    );
  }
}

/** A counter row's columns in a fixed order (the compiled upserts' parameter order). */
const PROJECT_COLUMNS = ["project_id", "action", "target_type", "audience", "bucket", "n"] as const;
const AUTHOR_COLUMNS = ["project_id", "author_id", "action", "target_type", "audience", "bucket", "n"] as const;

/** Adds (`sign` 1) or removes (`sign` -1) `events` from the counters; run it in the transaction that writes them. */
export async function countEvents(ctx: SqlContext, events: readonly CountedEvent[], sign: 1 | -1): Promise<void> {
  const { project, author } = deltas(events, sign);
  await upsertAdding(ctx, PROJECT_COUNTS, PROJECT_COUNT_KEY, project);
  await upsertAdding(ctx, AUTHOR_COUNTS, AUTHOR_COUNT_KEY, author);
}

/**
 * Before the user's events go by cascade: takes them out of the project counters (the author
 * counters hold exactly those events per project; they cascade with the user themselves).
 */
export async function uncountAuthor(ctx: SqlContext, authorId: number): Promise<void> {
  const rows = await ctx.db
    .selectFrom("forgekit_event_author_counts")
    .select(["project_id", "action", "target_type", "audience", "bucket", "n"])
    .where("author_id", "=", authorId)
    .where("n", "<>", 0)
    .execute();
  const negated = rows.map((row) => ({ project_id: Number(row.project_id), action: row.action, target_type: row.target_type, audience: Number(row.audience), bucket: Number(row.bucket), n: -Number(row.n) }));
  await upsertAdding(ctx, PROJECT_COUNTS, PROJECT_COUNT_KEY, negated);
}

/** The slot and whole-bucket range a filter's counters are read from. */
function slotOf(filter: EventListFilter): { action: string; targetType: string; from: number | null; to: number | null } {
  return {
    action: filter.action ?? ANY,
    targetType: filter.targetType ?? ANY,
    // Only buckets wholly inside the bounds: bucket b holds [b·W, (b+1)·W).
    from: filter.createdAfter === undefined ? null : bucketOf(filter.createdAfter.getTime()) + 1,
    to: filter.createdBefore === undefined ? null : bucketOf(filter.createdBefore.getTime()) - 1,
  };
}

/**
 * What the counters say about the events of `parts` (project, highest audience rank the viewer sees)
 * matching the filter: a lower bound, and whether it is the exact number — no `before` / `after`
 * bound (buckets never cut), and per part either every audience visible (anonymous viewers: no
 * event is addressed to them) or no event above the viewer's rank that could be addressed to them.
 */
export async function projectsCount(db: Kysely<Database>, filter: EventListFilter, parts: readonly { projectId: number; rank: number }[]): Promise<{ atLeast: number; exact: boolean }> {
  if (parts.length === 0) return { atLeast: 0, exact: true };
  const slot = slotOf(filter);
  if (slot.from !== null && slot.to !== null && slot.from > slot.to) return { atLeast: 0, exact: false };
  const ranks = new Map(parts.map((part) => [part.projectId, part.rank]));
  let query = db
    .selectFrom("forgekit_event_project_counts")
    .select((eb) => ["project_id", "audience", eb.fn.sum<number | string | bigint>("n").as("n")])
    .where("project_id", "in", [...ranks.keys()])
    .where("action", "=", slot.action)
    .where("target_type", "=", slot.targetType);
  if (slot.from !== null) query = query.where("bucket", ">=", slot.from);
  if (slot.to !== null) query = query.where("bucket", "<=", slot.to);
  const rows = await query.groupBy(["project_id", "audience"]).execute();
  let atLeast = 0;
  let exact = slot.from === null && slot.to === null;
  for (const row of rows) {
    const n = Number(row.n);
    if (Number(row.audience) <= (ranks.get(Number(row.project_id)) ?? -1)) atLeast += n;
    else if (n !== 0 && filter.viewer !== null) exact = false;
  }
  return { atLeast, exact };
}

/**
 * The author feed's counters: the author's events in projects every viewer of that kind reads
 * (public for everyone, internal too when signed in, all for administrators) at the audiences every
 * such viewer sees (project; signed-in users also signed_in; administrators all). A lower bound;
 * exact for administrators without `before` / `after`.
 */
export async function authorCount(db: Kysely<Database>, filter: EventListFilter, authorId: number): Promise<{ atLeast: number; exact: boolean }> {
  const slot = slotOf(filter);
  if (slot.from !== null && slot.to !== null && slot.from > slot.to) return { atLeast: 0, exact: false };
  const { viewer } = filter;
  let query = db
    .selectFrom("forgekit_event_author_counts as c")
    .innerJoin("forgekit_projects as p", "p.id", "c.project_id")
    .select((eb) => eb.fn.sum<number | string | bigint | null>("c.n").as("n"))
    .where("c.author_id", "=", authorId)
    .where("c.action", "=", slot.action)
    .where("c.target_type", "=", slot.targetType);
  if (slot.from !== null) query = query.where("c.bucket", ">=", slot.from);
  if (slot.to !== null) query = query.where("c.bucket", "<=", slot.to);
  if (viewer === null) query = query.where("p.visibility", "=", "public").where("c.audience", "=", 0);
  else if (!viewer.admin) query = query.where("p.visibility", "in", ["public", "internal"]).where("c.audience", "<=", 1);
  const row = await query.executeTakeFirst();
  return { atLeast: Number(row?.n ?? 0), exact: viewer?.admin === true && slot.from === null && slot.to === null };
}

/** The bucket of `created_at` in SQL (floor division, also before 1970). */
function bucketSql(t: DialectTraits): RawBuilder<number> {
  const seconds = EVENT_COUNT_BUCKET_MS / 1000;
  switch (t.name) {
    case "sqlite":
      return sql<number>`((created_at - (((created_at % ${sql.lit(EVENT_COUNT_BUCKET_MS)}) + ${sql.lit(EVENT_COUNT_BUCKET_MS)}) % ${sql.lit(EVENT_COUNT_BUCKET_MS)})) / ${sql.lit(EVENT_COUNT_BUCKET_MS)})`;
    case "postgres":
      return sql<number>`cast(floor(extract(epoch from created_at) / ${sql.lit(seconds)}) as integer)`;
    case "mysql":
      return sql<number>`cast(floor(timestampdiff(second, '1970-01-01 00:00:00', created_at) / ${sql.lit(seconds)}) as signed)`;
  }
}

/**
 * Recomputes every counter from the events (migration 0016 and bulk loaders that write events
 * around the store): empties both tables and fills them with one INSERT … SELECT each.
 */
export async function rebuildEventCounts(db: AnyDb, t: DialectTraits): Promise<void> {
  await db.deleteFrom(PROJECT_COUNTS).execute();
  await db.deleteFrom(AUTHOR_COUNTS).execute();
  const events = db
    .selectFrom("forgekit_events")
    .select(["project_id", "author_id", "action", "target_type", "audience", bucketSql(t).as("bucket")])
    .where("project_id", "is not", null)
    .as("e");
  for (const [table, keys] of [[PROJECT_COUNTS, ["project_id"]], [AUTHOR_COUNTS, ["author_id", "project_id"]]] as const) {
    const part = (action: boolean, target: boolean) => {
      let q = db
        .selectFrom(events)
        .select([...keys.map((k) => `e.${k}`), action ? "e.action" : sql.lit(ANY).as("action"), target ? "e.target_type" : sql.lit(ANY).as("target_type"), "e.audience", "e.bucket"])
        .select((eb) => eb.fn.countAll().as("n"))
        .groupBy([...keys.map((k) => `e.${k}`), ...(action ? ["e.action"] : []), ...(target ? ["e.target_type"] : []), "e.audience", "e.bucket"]);
      if (target) q = q.where("e.target_type", "is not", null);
      return q;
    };
    const all = part(false, false).unionAll(part(true, false)).unionAll(part(false, true)).unionAll(part(true, true));
    await db
      .insertInto(table)
      .columns([...keys, "action", "target_type", "audience", "bucket", "n"])
      .expression(db.selectFrom(all.as("u")).selectAll())
      .execute();
  }
}
