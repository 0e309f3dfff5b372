/**
 * Child process of sqlite-writers.test.ts: another process holding the write lock of a SQLite
 * file, as a CLI command or a second server would. It takes the lock with a raw better-sqlite3
 * `BEGIN IMMEDIATE`, says `locked`, keeps it for `<holdMs>`, commits, says `released` and exits.
 *
 * argv: <file> <holdMs>
 */
import Database from "better-sqlite3";

const [file, holdArg] = process.argv.slice(2);
if (file === undefined || holdArg === undefined) throw new Error("usage: <file> <holdMs>");

const db = new Database(file);
db.exec("begin immediate");
process.stdout.write("locked\n");
setTimeout(() => {
  db.exec("commit");
  db.close();
  process.stdout.write("released\n");
}, Number(holdArg));
