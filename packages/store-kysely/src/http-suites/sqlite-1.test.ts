/** The HTTP suites on SQLite, part 1 of 2 (see on-sqlite.ts). */
import { describeOnSqlite } from "./on-sqlite.js";

describeOnSqlite(1, 2);
