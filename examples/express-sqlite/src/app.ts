/**
 * The quick-start instance: forgekit embedded in an express 5 app on SQLite (or whatever
 * `database` names). Builds the instance, migrates, seeds the demo (idempotent), mounts the
 * adapter next to the host's own routes and listens.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import express from "express";
import { createForgekit } from "@forgekit/core";
import { forgekit } from "@forgekit/adapter-express";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { databaseTarget, demoBanner, demoTokensFile, seedDemo, storeLocation, type DemoSeed } from "@forgekit/cli";
import { memorySessions, signInRoutes } from "./login.js";

export interface ExampleOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** postgres://…, mysql://… or an SQLite file path (relative to `cwd`). */
  database: string;
  /** External URL; default `http://localhost:<port>`. */
  baseUrl?: string | undefined;
  /** Directory relative database paths are resolved against (default: the process's). */
  cwd?: string;
  /** Interface to listen on (default: all). */
  host?: string;
}

export interface RunningExample {
  baseUrl: string;
  seed: DemoSeed;
  /** What to print at start-up: URL, tokens, curl commands. */
  banner: string;
  close(): Promise<void>;
}

function listen(app: express.Express, port: number, host: string | undefined): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, ...(host === undefined ? {} : { host }) }, () => resolve(server));
  });
}

/** Starts the example; rejects when the database cannot be opened, migrated or seeded. */
export async function startExpressExample(options: ExampleOptions): Promise<RunningExample> {
  const cwd = options.cwd ?? process.cwd();
  const target = databaseTarget(options.database, cwd);
  if (target.kind === "sqlite" && target.path !== ":memory:") mkdirSync(dirname(target.path), { recursive: true });

  const app = express();
  // The host keeps its own routes; forgekit only answers /api/v4 and /oauth.
  app.get("/", (_req, res) => {
    res.type("text/plain").send("A host application with forgekit embedded: see /api/v4 and /oauth.\n");
  });
  // Listen first so that port 0 resolves to a real port before the base URL is fixed.
  const server = await listen(app, options.port, options.host);
  const port = (server.address() as AddressInfo).port;
  const baseUrl = options.baseUrl ?? `http://localhost:${port}`;

  const store = kyselyStore(fromUrl(storeLocation(target)));
  const closeAll = async () => {
    // Idle keep-alive connections would hold close() open; requests in flight still finish.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await closed;
    await store.close();
  };
  try {
    // The demo shows every capability, tier-limited ones included (issue: "ultimate in the quick-start demo").
    // The host's own sign-in and sessions; forgekit's consent page relies on them (login.ts).
    const sessions = memorySessions();
    const fk = createForgekit({ baseUrl, store, session: sessions, tier: "ultimate" });
    const migrated = await fk.migrate();
    if (migrated.isErr()) throw new Error(`migration failed: ${migrated.error.code}`);
    const tokensFile = demoTokensFile(target, cwd);
    const seeded = await seedDemo(fk, { tokensFile });
    if (seeded.isErr()) throw new Error(`demo seed failed: ${seeded.error.code}`);
    app.use(signInRoutes(fk, sessions));
    app.use(forgekit(fk));
    return { baseUrl, seed: seeded.value, banner: demoBanner(baseUrl, seeded.value, tokensFile), close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
