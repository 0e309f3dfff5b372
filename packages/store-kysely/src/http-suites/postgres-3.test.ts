/** The HTTP suites on PostgreSQL, part 3 of 3 (see on-postgres.ts). */
import { describeOnPostgres } from "./on-postgres.js";

describeOnPostgres(3, 3);
