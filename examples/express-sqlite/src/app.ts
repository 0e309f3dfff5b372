/**
 * The quick-start instance: forgekit embedded in an express 5 app on SQLite (or whatever
 * `database` names). The demo host (`@forgekit/cli`) opens, migrates and seeds the instance; this
 * file is the host's express app around it: its own page, its sign-in, and the adapter.
 */
import express from "express";
import { forgekit } from "@forgekit/adapter-express";
import { startDemoHost, type DemoHostOptions, type RunningDemoHost } from "@forgekit/cli";
import { signInRoutes } from "./login.js";

export type ExampleOptions = DemoHostOptions;
export type RunningExample = RunningDemoHost;

/** Starts the example; rejects when the database cannot be opened, migrated or seeded. */
export function startExpressExample(options: ExampleOptions): Promise<RunningExample> {
  return startDemoHost(options, (fk, sessions) => {
    const app = express();
    // The host keeps its own routes; forgekit only answers /api/v4, /oauth and git over HTTP
    // (/<namespace>/<project>.git/info/refs, …/git-upload-pack, …/git-receive-pack).
    app.get("/", (_req, res) => {
      res.type("text/plain").send("A host application with forgekit embedded: see /api/v4 and /oauth.\n");
    });
    app.use(signInRoutes(fk, sessions));
    app.use(forgekit(fk));
    return app;
  });
}
