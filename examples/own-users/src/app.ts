/**
 * A host with its own users and login that embeds forgekit — no `@forgekit/cli` helpers. The host
 * keeps its user table and sessions (host-users.ts); forgekit learns about a user when they sign in
 * or change (`fk.users.sync`, keyed by the host's id), and reads the host's own session cookie
 * (`host.sid`) through the session resolver, which answers from the host's ids
 * (`fk.users.findByExternalId`). Writes made with the session need the host's CSRF token.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createForgekit, type Forgekit } from "@forgekit/core";
import { forgekit } from "@forgekit/adapter-express";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { HostSessions, HostUsers, type HostUser } from "./host-users.js";

export interface OwnUsersApp {
  url: string;
  fk: Forgekit;
  users: HostUsers;
  /** The host's profile change: its own table first, then forgekit's copy. */
  changeUser(id: string, change: Parameters<HostUsers["update"]>[1]): Promise<void>;
  close(): Promise<void>;
}

export interface OwnUsersOptions {
  port?: number;
  /** SQLite file for forgekit's tables (the host could keep its own there too). */
  database: string;
  /** Folder of the repository shard. */
  repositories: string;
  baseUrl?: string;
}

const COOKIE = "host.sid";

/** Mirrors one host user into forgekit (create or update), so the session resolver can find them. */
async function syncToForgekit(fk: Forgekit, user: HostUser): Promise<void> {
  const synced = await fk.users.sync({ externalId: user.id, username: user.login, name: user.name, email: user.email, admin: user.admin, state: user.blocked ? "blocked" : "active" });
  if (synced.isErr()) throw new Error(`forgekit sync of ${user.id} failed: ${synced.error.code}`);
}

export async function startOwnUsersApp(options: OwnUsersOptions): Promise<OwnUsersApp> {
  const users = new HostUsers();
  users.add({ id: "u-1001", login: "grace", name: "Grace Hopper", email: "grace@host.example", admin: true, password: "grace-password" });
  users.add({ id: "u-1002", login: "linus", name: "Linus", email: "linus@host.example", password: "linus-password" });
  const sessions = new HostSessions();

  // The port first (port 0: a free one), so the base URL is known; listening waits until everything is ready.
  const port = options.port !== undefined && options.port !== 0 ? options.port : await freePort();
  const url = options.baseUrl ?? `http://127.0.0.1:${port}`;

  // The resolver runs on requests, after createForgekit returned: it reaches the instance through this holder.
  const holder: { fk?: Forgekit } = {};
  const fk = createForgekit({
    baseUrl: url,
    store: kyselyStore(sqlite(options.database)),
    repositoryStorages: { default: { path: options.repositories } },
    session: {
      cookieName: COOKIE,
      // The host's session → the host's user id → forgekit's user (by external id).
      resolve: async (sid) => {
        const hostId = sessions.userId(sid);
        if (hostId === undefined || holder.fk === undefined) return null;
        const user = await holder.fk.users.findByExternalId(hostId);
        return user.isOk() ? user.value.id : null;
      },
      verifyCsrfToken: (sid, token) => Promise.resolve(sessions.csrfMatches(sid, token)),
    },
  });
  holder.fk = fk;
  const migrated = await fk.migrate();
  if (migrated.isErr()) throw new Error(`forgekit migration failed: ${migrated.error.code}`, { cause: "cause" in migrated.error ? migrated.error.cause : undefined });

  const app = express();
  app.use(forgekit(fk));
  app.use(express.urlencoded({ extended: false }));
  app.get("/", (_req, res) => {
    res.type("text/plain").send("A host with its own users. POST /login (login, password); then /api/v4 with the host.sid cookie.\n");
  });
  app.post("/login", (req, res, next) => {
    const body = req.body as { login?: string; password?: string };
    const user = users.authenticate(body.login ?? "", body.password ?? "");
    if (user === undefined) {
      res.status(401).type("text/plain").send("wrong login or password\n");
      return;
    }
    // Signing in is when the host tells forgekit who this user is now.
    syncToForgekit(fk, user).then(() => {
      const { sid, csrf } = sessions.open(user.id);
      res.cookie(COOKIE, sid, { httpOnly: true, sameSite: "lax" });
      res.json({ csrf_token: csrf });
    }, next);
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    url,
    fk,
    users,
    async changeUser(id, change) {
      const user = users.update(id, change);
      if (user !== undefined) await syncToForgekit(fk, user);
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const closed = await fk.close();
      if (closed.isErr()) throw new Error(`closing forgekit failed: ${closed.error.code}`);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
