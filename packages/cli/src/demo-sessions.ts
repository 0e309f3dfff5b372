/**
 * The demo host's sign-in sessions in its database (issue 22), so every instance behind a load
 * balancer knows a visitor signed in through another one: `/oauth/authorize` shows the consent page
 * wherever the next request lands. The table `forgekit_demo_sessions` is the demo host's own (not a
 * forgekit table): created if missing at start-up, keyed by the SHA-256 of the cookie (a leaked
 * table names no live cookie).
 */
import { createHash, randomBytes } from "node:crypto";
import { Kysely } from "kysely";
import { fromUrl } from "@forgekit/store-kysely";
import type { HostSessions } from "./demo-sign-in.js";

interface SessionsDb {
  forgekit_demo_sessions: { id: string; user_id: number; created_at: number | string | bigint };
}

const digest = (cookie: string) => createHash("sha256").update(cookie, "utf8").digest("base64url");

/** Sessions kept in the database at `location` (an SQLite path or a server URL), plus `close()`. */
export interface DatabaseSessions extends HostSessions {
  /** Creates the table when it is missing (run once at start-up). */
  prepare(): Promise<void>;
  close(): Promise<void>;
}

/** The demo host's sessions in its database. */
export function databaseSessions(location: string): DatabaseSessions {
  const db = new Kysely<SessionsDb>({ dialect: fromUrl(location, { postgres: { max: 2 }, mysql: { connectionLimit: 2 } }).dialect });
  return {
    async prepare() {
      await db.schema
        .createTable("forgekit_demo_sessions")
        .ifNotExists()
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
    },
    async resolve(cookie) {
      const row = await db.selectFrom("forgekit_demo_sessions").select("user_id").where("id", "=", digest(cookie)).executeTakeFirst();
      return row === undefined ? null : Number(row.user_id);
    },
    async create(userId) {
      const cookie = randomBytes(32).toString("base64url");
      await db.insertInto("forgekit_demo_sessions").values({ id: digest(cookie), user_id: userId, created_at: Date.now() }).execute();
      return cookie;
    },
    async destroy(cookie) {
      await db.deleteFrom("forgekit_demo_sessions").where("id", "=", digest(cookie)).execute();
    },
    close: () => db.destroy(),
  };
}
