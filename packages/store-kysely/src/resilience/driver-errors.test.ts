/**
 * The classifier against errors the drivers really raise: the connect-side ones are provoked here
 * (no database needed: a refused port, a server that never answers); the server-side ones
 * (termination, statement and lock timeouts) are provoked by database-unavailable.test.ts and
 * connection-loss.test.ts when the databases are configured, and their recorded shapes are
 * checked here so the table holds without them.
 */
import { createPool } from "mysql2";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, silentServer } from "../test-faults.js";
import { classifyDriverError } from "./driver-errors.js";

/** A DatabaseError as pg builds it from an ErrorResponse. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "ERROR", name: "error" });
/** A server error as mysql2 builds it. */
const mysqlError = (errno: number, code: string | undefined, message: string, sqlState = "HY000") => Object.assign(new Error(message), { errno, code, sqlState, fatal: false });

describe("classifyDriverError - errors provoked on the connect side", () => {
  let refused = 0;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    refused = await closedPort();
    silent = await silentServer();
  });
  afterAll(() => silent.close());

  it("pg - a refused connection is 'connect', never sent", async () => {
    const pool = new pg.Pool({ connectionString: `postgres://u@127.0.0.1:${refused}/x` });
    const error = await pool.query("select 1").catch((e: unknown) => e);
    await pool.end();
    expect(classifyDriverError(error)).toMatchObject({ kind: "connect", neverSent: true });
  });

  it("pg - a server that never answers hits connectionTimeoutMillis; a queued checkout hits the pool wait", async () => {
    const pool = new pg.Pool({ connectionString: `postgres://u@127.0.0.1:${silent.port}/x`, max: 1, connectionTimeoutMillis: 200 });
    const [opening, queued] = await Promise.all([pool.query("select 1").catch((e: unknown) => e), pool.query("select 1").catch((e: unknown) => e)]);
    await pool.end();
    expect((opening as Error).message).toMatch(/connection timeout/);
    expect(classifyDriverError(opening)).toMatchObject({ kind: "connect", neverSent: true });
    expect((queued as Error).message).toMatch(/timeout exceeded when trying to connect/);
    expect(classifyDriverError(queued)).toMatchObject({ kind: "timeout", neverSent: true });
  });

  it("mysql2 - a refused connection and a connect timeout are 'connect'", async () => {
    const query = (port: number) =>
      new Promise<unknown>((resolve) => {
        const pool = createPool({ uri: `mysql://u@127.0.0.1:${port}/x`, connectTimeout: 200 });
        pool.query("select 1", (error) => {
          pool.end(() => undefined);
          resolve(error);
        });
      });
    expect(classifyDriverError(await query(refused))).toMatchObject({ kind: "connect", neverSent: true });
    const timedOut = await query(silent.port);
    expect((timedOut as { code?: string }).code).toBe("ETIMEDOUT");
    expect(classifyDriverError(timedOut)).toMatchObject({ kind: "connect", neverSent: true });
  });
});

describe("classifyDriverError - recorded server-side shapes", () => {
  it.each([
    ["pg admin_shutdown (pg_terminate_backend)", pgError("57P01", "terminating connection due to administrator command"), "lost"],
    ["pg cannot_connect_now", pgError("57P03", "the database system is starting up"), "connect"],
    ["pg too_many_connections", pgError("53300", "sorry, too many clients already"), "connect"],
    ["pg statement timeout", pgError("57014", "canceling statement due to statement timeout"), "timeout"],
    ["pg lock timeout", pgError("55P03", "canceling statement due to lock timeout"), "timeout"],
    ["pg connection_failure (class 08)", pgError("08006", "connection failure"), "lost"],
    ["pg socket closed under a query", new Error("Connection terminated unexpectedly"), "lost"],
    ["mysql2 lock wait timeout", mysqlError(1205, "ER_LOCK_WAIT_TIMEOUT", "Lock wait timeout exceeded; try restarting transaction"), "timeout"],
    ["MariaDB max_statement_time", mysqlError(1969, undefined, "Query execution was interrupted (max_statement_time exceeded)", "70100"), "timeout"],
    ["MySQL max_execution_time", mysqlError(3024, "ER_QUERY_TIMEOUT", "Query execution was interrupted, maximum statement execution time exceeded"), "timeout"],
    ["mysql2 too many connections", mysqlError(1040, "ER_CON_COUNT_ERROR", "Too many connections", "08004"), "connect"],
    ["mysql2 connection lost (KILL)", Object.assign(new Error("Connection lost: The server closed the connection."), { code: "PROTOCOL_CONNECTION_LOST", fatal: true }), "lost"],
    ["node ECONNRESET", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" }), "lost"],
  ])("%s is unavailable (%s)", (_name, error, kind) => {
    expect(classifyDriverError(error)?.kind).toBe(kind);
  });

  it("errors raised before anything is written are marked never sent (safe to run elsewhere)", () => {
    expect(classifyDriverError(new Error("Client has encountered a connection error and is not queryable"))).toMatchObject({ kind: "lost", neverSent: true });
    expect(classifyDriverError(Object.assign(new Error("Can't add new command when connection is in closed state"), { fatal: true }))).toMatchObject({ kind: "lost", neverSent: true });
    expect(classifyDriverError(pgError("57P01", "terminating connection due to administrator command"))?.neverSent).toBe(false);
  });

  it("looks through cause chains and AggregateError (happy-eyeballs connect)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" });
    expect(classifyDriverError(new AggregateError([refused], "connect failed"))?.kind).toBe("connect");
    expect(classifyDriverError(new Error("wrapped", { cause: pgError("55P03", "lock timeout") }))?.kind).toBe("timeout");
  });

  it.each([
    ["pg unique violation", pgError("23505", "duplicate key value violates unique constraint")],
    ["pg syntax error", pgError("42601", "syntax error at or near")],
    ["pg deadlock (a conflict, retried by the store, not an outage)", pgError("40P01", "deadlock detected")],
    ["mysql2 duplicate entry", mysqlError(1062, "ER_DUP_ENTRY", "Duplicate entry", "23000")],
    ["mysql2 read-only for another reason", mysqlError(1290, "ER_OPTION_PREVENTS_STATEMENT", "The MySQL server is running with the --secure-file-priv option")],
    ["a plain Error", new Error("boom")],
    ["a non-error", "text"],
  ])("%s is not an outage", (_name, error) => {
    expect(classifyDriverError(error)).toBeUndefined();
  });
});
