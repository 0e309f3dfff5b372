/**
 * forgekit embedded in a koa 3 app on PostgreSQL (or whatever `database` names). The demo host
 * (`@forgekit/cli`) opens, migrates and seeds the instance; this file is the host's koa app around
 * it: the adapter, its sign-in, and its own page.
 */
import Koa from "koa";
import { forgekit } from "@forgekit/adapter-koa";
import { startDemoHost, type DemoHostOptions, type RunningDemoHost } from "@forgekit/cli";
import { signIn } from "./login.js";

/** The default database of this example: the local PostgreSQL's `test` database. */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

export type ExampleOptions = DemoHostOptions;
export type RunningExample = RunningDemoHost;

/** Starts the example; rejects when the database cannot be opened, migrated or seeded. */
export function startKoaExample(options: ExampleOptions): Promise<RunningExample> {
  return startDemoHost(options, (fk, sessions) => {
    const app = new Koa();
    app.use(forgekit(fk));
    app.use(signIn(fk, sessions));
    // The host keeps its own routes; forgekit only answers /api/v4 and /oauth.
    app.use((ctx) => {
      if (ctx.path === "/") ctx.body = "A host application with forgekit embedded: see /api/v4 and /oauth.\n";
    });
    const callback = app.callback();
    return (req, res) => void callback(req, res);
  });
}
