/** The host's own `/api/v4` routes after forgekit (`unknownRoutes: "next"`), and RFC 8414 path-inserted discovery under a prefix. */
import { createServer } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, listenOn, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

let t: TestForgekit;
let served: ServedInstance;
beforeAll(async () => {
  t = await createTestForgekit({ baseUrl: "http://127.0.0.1/forge" });
  const app = express();
  // Mounted at the root with a prefix: the middleware sees every request, so it can answer the
  // path-inserted discovery URL that lies outside /forge.
  app.use(forgekit(t.fk, { prefix: "/forge", unknownRoutes: "next" }));
  app.get("/forge/api/v4/host-extension", (_req, res) => {
    res.json({ from: "host" });
  });
  const strict = express();
  strict.use(forgekit(t.fk));
  strict.get("/api/v4/host-extension", (_req, res) => {
    res.json({ from: "host" });
  });
  served = await listenOn(createServer(app));
  strictServed = await listenOn(createServer(strict));
});
let strictServed: ServedInstance;
afterAll(async () => {
  await served.close();
  await strictServed.close();
});

describe("unknownRoutes", () => {
  it('"next": a path no forgekit route has reaches the host\'s route registered after forgekit', async () => {
    const r = await fetch(`${served.url}/forge/api/v4/host-extension`);
    expect(await r.json()).toEqual({ from: "host" });
  });

  it('"next": forgekit still answers its own routes, and 405 for its paths with another method', async () => {
    expect((await fetch(`${served.url}/forge/api/v4/projects`)).status).toBe(200);
    expect((await fetch(`${served.url}/forge/api/v4/projects/1/events`, { method: "DELETE" })).status).toBe(405);
  });

  it("by default forgekit answers an unknown /api/v4 path with the reference's 404", async () => {
    const r = await fetch(`${strictServed.url}/api/v4/host-extension`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: "404 Not Found" });
  });
});

describe("RFC 8414 path-inserted discovery", () => {
  it("answers /.well-known/oauth-authorization-server/forge with the metadata of the issuer http://127.0.0.1/forge", async () => {
    const inserted = await fetch(`${served.url}/.well-known/oauth-authorization-server/forge`);
    expect(inserted.status).toBe(200);
    const metadata = (await inserted.json()) as { issuer: string; token_endpoint: string };
    expect(metadata.issuer).toBe("http://127.0.0.1/forge");
    expect(metadata.token_endpoint).toBe("http://127.0.0.1/forge/oauth/token");
    // The path-appended forms below the mount keep working.
    expect((await fetch(`${served.url}/forge/.well-known/oauth-authorization-server`)).status).toBe(200);
    expect((await fetch(`${served.url}/forge/.well-known/openid-configuration`)).status).toBe(200);
  });

  it("answers only GET and HEAD there, and nothing for another issuer path", async () => {
    expect((await fetch(`${served.url}/.well-known/oauth-authorization-server/forge`, { method: "HEAD" })).status).toBe(200);
    expect((await fetch(`${served.url}/.well-known/oauth-authorization-server/other`)).status).toBe(404);
  });
});
