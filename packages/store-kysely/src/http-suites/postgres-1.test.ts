/** The HTTP suites on PostgreSQL, part 1 of 3 (see on-postgres.ts). */
import { describeOnPostgres } from "./on-postgres.js";

describeOnPostgres(1, 3);
