/**
 * Every HTTP suite on SQLite: an in-memory database per instance. A database is closed once its
 * store is garbage (the harness closes a finished block's server, which frees its instance):
 * better-sqlite3 keeps an unclosed database's memory outside the JavaScript heap for the life of the
 * process, and hundreds of them made every git process the run spawned slower (fork copies that memory).
 */
import Database from "better-sqlite3";
import { kyselyStore, sqlite } from "../index.js";
import { describeOn, suitePart } from "./describe-on.js";
import suiteCosts from "./suite-costs.json" with { type: "json" };

const closeWhenCollected = new FinalizationRegistry<Database.Database>((database) => {
  if (database.open) database.close();
});

/** A store on a fresh in-memory database, closed when the store is collected. */
function memoryDatabaseStore() {
  const database = new Database(":memory:");
  const store = kyselyStore(sqlite(database));
  closeWhenCollected.register(store, database);
  return store;
}

/** Part `part` of `parts` of the HTTP suites on SQLite (one test file each, run side by side). */
export function describeOnSqlite(part: number, parts: number): void {
  describeOn(`SQLite (part ${part} of ${parts})`, memoryDatabaseStore, async () => {}, suitePart(part, parts, suiteCosts.sqlite));
}
