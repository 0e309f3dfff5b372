/** The HTTP suites on PostgreSQL, part 2 of 3 (see on-postgres.ts). */
import { describeOnPostgres } from "./on-postgres.js";

describeOnPostgres(2, 3);
