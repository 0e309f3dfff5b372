/**
 * forgekit embedded in a koa 3 app on PostgreSQL (or whatever `database` names): builds the
 * instance, migrates, seeds the demo (idempotent), mounts the adapter next to the host's own
 * routes and listens.
 */
import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import Koa from "koa";
import { createForgekit } from "@forgekit/core";
import { forgekit } from "@forgekit/adapter-koa";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { databaseTarget, demoBanner, demoTokensFile, memorySessions, seedDemo, storeLocation, type DemoSeed } from "@forgekit/cli";
import { signIn } from "./login.js";

/** The default database of this example: the local PostgreSQL's `test` database. */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface ExampleOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** postgres://… (or mysql://…, or an SQLite file path). */
  database: string;
  /** External URL; default `http://localhost:<port>`. */
  baseUrl?: string | undefined;
  cwd?: string;
  host?: string;
}

export interface RunningExample {
  baseUrl: string;
  seed: DemoSeed;
  banner: string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Starts the example; rejects when the database cannot be opened, migrated or seeded. */
export async function startKoaExample(options: ExampleOptions): Promise<RunningExample> {
  const cwd = options.cwd ?? process.cwd();
  const target = databaseTarget(options.database, cwd);
  if (target.kind === "sqlite" && target.path !== ":memory:") mkdirSync(dirname(target.path), { recursive: true });

  // koa composes its middleware when `callback()` is called, so the server forwards to a handler
  // that is swapped in once the instance exists (until then: 503). Listening first lets port 0
  // resolve to a real port before the base URL is fixed.
  let handler: Handler = (_req, res) => {
    res.writeHead(503, { "content-type": "text/plain" }).end("starting\n");
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, ...(options.host === undefined ? {} : { host: options.host }) }, () => resolve());
  });
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

    const app = new Koa();
    app.use(forgekit(fk));
    app.use(signIn(fk, sessions));
    // The host keeps its own routes; forgekit only answers /api/v4 and /oauth.
    app.use((ctx) => {
      if (ctx.path === "/") ctx.body = "A host application with forgekit embedded: see /api/v4 and /oauth.\n";
    });
    const callback = app.callback();
    handler = (req, res) => void callback(req, res);
    return { baseUrl, seed: seeded.value, banner: demoBanner(baseUrl, seeded.value, tokensFile), close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
