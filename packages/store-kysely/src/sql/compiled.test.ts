import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTraits } from "../dialects/sqlite.js";
import type { SqlContext } from "../repositories/context.js";
import { runCompiled, type CompiledCache } from "./compiled.js";

interface Db {
  items: { id: number; kind: string; owner: number };
}

const sqlite = new Database(":memory:");
sqlite.exec("create table items (id integer primary key, kind text, owner integer)");
sqlite.exec("insert into items values (1, 'a', 10), (2, 'b', 10), (3, 'a', 20)");
const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: sqlite }) });
afterAll(() => db.destroy());

const context = (compiled?: CompiledCache) => ({ db, traits: sqliteTraits, ...(compiled ? { compiled } : {}) }) as unknown as SqlContext;
const byKindAndOwner = (ctx: SqlContext, kind: string, owner: number) =>
  runCompiled(ctx, "items.byKindAndOwner", [kind, owner], (arg) =>
    db.selectFrom("items").select("id").where("owner", "=", arg<number>(1)).where("kind", "=", arg<string>(0)).where("id", ">", 0),
  );

describe("runCompiled", () => {
  it("compiles once and re-runs the cached SQL with each call's arguments, in their places", async () => {
    const compiled: CompiledCache = new Map();
    const ctx = context(compiled);
    expect(await byKindAndOwner(ctx, "a", 10)).toEqual([{ id: 1 }]);
    expect(compiled.size).toBe(1);
    expect(await byKindAndOwner(ctx, "a", 20)).toEqual([{ id: 3 }]);
    expect(await byKindAndOwner(ctx, "b", 10)).toEqual([{ id: 2 }]);
    expect(await byKindAndOwner(ctx, "b", 20)).toEqual([]);
    expect(compiled.size).toBe(1);
  });

  it("keeps constant parameters of the query as compiled", async () => {
    const compiled: CompiledCache = new Map();
    const entry = (await byKindAndOwner(context(compiled), "a", 10), compiled.get("items.byKindAndOwner"));
    expect(entry?.slots).toEqual([{ arg: 1 }, { arg: 0 }, { value: 0 }]);
  });

  it("works without a cache (compiles every time)", async () => {
    expect(await byKindAndOwner(context(), "a", 20)).toEqual([{ id: 3 }]);
  });

  it("places an argument used twice in both places", async () => {
    const rows = await runCompiled(context(new Map()), "items.twice", [10], (arg) =>
      db.selectFrom("items").select("id").where("owner", "=", arg<number>(0)).where("owner", "<=", arg<number>(0)).orderBy("id"),
    );
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("refuses a query that does not place every argument", async () => {
    const bad = runCompiled(context(new Map()), "items.bad", [1, 2], (arg) => db.selectFrom("items").select("id").where("id", "=", arg<number>(0)));
    await expect(bad).rejects.toThrow(/each of its 2 arguments must appear in it/);
  });
});
