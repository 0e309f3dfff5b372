/** The HTTP suites on MySQL / MariaDB, part 1 of 3 (see on-mysql.ts). */
import { describeOnMysql } from "./on-mysql.js";

describeOnMysql(1, 3);
