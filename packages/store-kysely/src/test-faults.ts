/**
 * Test-only helpers for breaking databases on purpose: a dedicated PostgreSQL or MySQL database per
 * test (so terminating "every connection" touches only connections of that database, never those
 * of other test runs on the same server), instances served over HTTP on 127.0.0.1:0, and a
 * capturing logger.
 */
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { createServer as createNetServer } from "node:net";
import { createForgekit, type Forgekit, type LogLevel, type Logger, type Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { createTestForgekit, listenOn, TEST_BASE_URL, type TestForgekit } from "@forgekit/core/testing";
import { createConnection } from "mysql2/promise";
import pg from "pg";

const require = createRequire(import.meta.url);
const suffix = () => `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A database created for one test, its URL, and ways to break and drop it. */
export interface FaultDatabase {
  readonly name: string;
  readonly url: string;
  /** Ends every server-side connection to this database (and only this one); resolves with how many. */
  killConnections(): Promise<number>;
  /**
   * The same, without yielding to the event loop (a child process does it): the store's sockets are
   * dead by the time this returns, but this process has not read their end yet, so the pool still
   * hands those connections out as healthy.
   */
  killConnectionsBlocking(): void;
  /** Runs `sql` on a separate admin connection to this database. */
  admin(): Promise<{ query(sql: string): Promise<unknown>; close(): Promise<void> }>;
  drop(): Promise<void>;
}

/** The URL `url` with its database (path) replaced by `name`. */
function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** A new PostgreSQL database `forgekit_fault_<random>` on the server of `url`. */
export async function postgresFaultDatabase(url: string): Promise<FaultDatabase> {
  const name = `forgekit_fault_${suffix()}`;
  const server = new pg.Client({ connectionString: url });
  await server.connect();
  await server.query(`create database "${name}"`);
  const others = "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()";
  return {
    name,
    url: withDatabase(url, name),
    async killConnections() {
      const { rows } = await server.query<{ ok: boolean }>(`select pg_terminate_backend(pid) as ok from (${others}) s`, [name]);
      return rows.length;
    },
    killConnectionsBlocking() {
      // Terminates, then waits until the backends are gone, so their sockets are closed on return.
      const script = `
        const pg = require(${JSON.stringify(require.resolve("pg"))});
        const c = new pg.Client(process.env.FK_URL);
        (async () => {
          await c.connect();
          await c.query("select pg_terminate_backend(pid) from (${others}) s", [process.env.FK_DB]);
          for (let i = 0; i < 100; i++) {
            const { rows } = await c.query("${others}", [process.env.FK_DB]);
            if (rows.length === 0) break;
            await new Promise((r) => setTimeout(r, 20));
          }
          await c.end();
        })().catch((e) => { console.error(e); process.exit(1); });`;
      execFileSync(process.execPath, ["-e", script], { env: { ...process.env, FK_URL: url, FK_DB: name }, stdio: ["ignore", "ignore", "inherit"] });
    },
    async admin() {
      const client = new pg.Client({ connectionString: withDatabase(url, name) });
      await client.connect();
      return { query: (sql) => client.query(sql), close: () => client.end() };
    },
    async drop() {
      await server.query(`drop database if exists "${name}" with (force)`);
      await server.end();
    },
  };
}

/** A new MySQL / MariaDB database `forgekit_fault_<random>` on the server of `url`. */
export async function mysqlFaultDatabase(url: string): Promise<FaultDatabase> {
  const name = `forgekit_fault_${suffix()}`;
  const serverUrl = url.replace(/^mariadb:/i, "mysql:");
  const server = await createConnection({ uri: serverUrl });
  await server.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`);
  const others = "select id from information_schema.processlist where db = ? and id <> connection_id()";
  return {
    name,
    url: withDatabase(serverUrl, name),
    async killConnections() {
      const [rows] = await server.query(others, [name]);
      const ids = (rows as { id: number }[]).map((row) => row.id);
      for (const id of ids) await server.query(`kill ${Number(id)}`).catch(() => undefined);
      return ids.length;
    },
    killConnectionsBlocking() {
      const script = `
        const { createConnection } = require(${JSON.stringify(require.resolve("mysql2/promise"))});
        (async () => {
          const c = await createConnection({ uri: process.env.FK_URL });
          const [rows] = await c.query("${others}", [process.env.FK_DB]);
          for (const { id } of rows) await c.query("kill " + Number(id)).catch(() => undefined);
          for (let i = 0; i < 100; i++) {
            const [left] = await c.query("${others}", [process.env.FK_DB]);
            if (left.length === 0) break;
            await new Promise((r) => setTimeout(r, 20));
          }
          await c.end();
        })().catch((e) => { console.error(e); process.exit(1); });`;
      execFileSync(process.execPath, ["-e", script], { env: { ...process.env, FK_URL: serverUrl, FK_DB: name }, stdio: ["ignore", "ignore", "inherit"] });
    },
    async admin() {
      const connection = await createConnection({ uri: withDatabase(serverUrl, name) });
      return { query: async (sql) => (await connection.query(sql))[0], close: () => connection.end() };
    },
    async drop() {
      await server.query(`drop database if exists \`${name}\``);
      await server.end();
    },
  };
}

/** One captured log line. */
export interface LogLine {
  level: LogLevel;
  event: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that keeps every line. */
export function capturingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, log: (level, event, fields) => lines.push({ level, event, fields }) };
}

/** A seeded test instance on `store`, served by the node handler on 127.0.0.1:0. */
export async function servedInstance(store: Store, logger: Logger): Promise<{ t: TestForgekit; url: string; close: () => Promise<void> }> {
  const t = await createTestForgekit({ store, logger });
  const served = await listenOn(createServer(createNodeHandler(t.fk)));
  return {
    t,
    url: `${served.url}/api/v4`,
    async close() {
      await served.close();
      await store.close();
    },
  };
}

/** An unseeded instance on `store` (whose database another instance migrated and seeded), served on 127.0.0.1:0. */
export async function serveOn(store: Store, logger: Logger): Promise<{ fk: Forgekit; url: string; close: () => Promise<void> }> {
  const fk = createForgekit({ baseUrl: TEST_BASE_URL, store, logger });
  const served = await listenOn(createServer(createNodeHandler(fk)));
  return {
    fk,
    url: `${served.url}/api/v4`,
    async close() {
      await served.close();
      await store.close();
    },
  };
}

/** A port on 127.0.0.1 nothing listens on: connecting is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a database that hangs. */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
