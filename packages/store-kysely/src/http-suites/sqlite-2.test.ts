/** The HTTP suites on SQLite, part 2 of 2 (see on-sqlite.ts). */
import { describeOnSqlite } from "./on-sqlite.js";

describeOnSqlite(2, 2);
