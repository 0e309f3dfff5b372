/** The HTTP suites on PostgreSQL, part 2 of 2 (see on-postgres.ts). */
import { describeOnPostgres } from "./on-postgres.js";

describeOnPostgres(2, 2);
