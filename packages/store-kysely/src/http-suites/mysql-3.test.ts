/** The HTTP suites on MySQL / MariaDB, part 3 of 3 (see on-mysql.ts). */
import { describeOnMysql } from "./on-mysql.js";

describeOnMysql(3, 3);
