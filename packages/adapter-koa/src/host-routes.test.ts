/** The host's own `/api/v4` routes after forgekit (`unknownRoutes: "next"`), and RFC 8414 path-inserted discovery under a prefix. */
import { createServer } from "node:http";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, listenOn, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
import { forgekit } from "./index.js";
import { nodeListener } from "./test-support.js";

let t: TestForgekit;
let served: ServedInstance;
let strictServed: ServedInstance;
const hostExtension = (path: string): Koa.Middleware => (ctx) => {
  if (ctx.path === path) ctx.body = { from: "host" };
};
beforeAll(async () => {
  t = await createTestForgekit({ baseUrl: "http://127.0.0.1/forge" });
  const app = new Koa();
  app.use(forgekit(t.fk, { prefix: "/forge", unknownRoutes: "next" }));
  app.use(hostExtension("/forge/api/v4/host-extension"));
  const strict = new Koa();
  strict.use(forgekit(t.fk));
  strict.use(hostExtension("/api/v4/host-extension"));
  served = await listenOn(createServer(nodeListener(app)));
  strictServed = await listenOn(createServer(nodeListener(strict)));
});
afterAll(async () => {
  await served.close();
  await strictServed.close();
});

describe("unknownRoutes", () => {
  it('"next": a path no forgekit route has reaches the host\'s middleware after forgekit', async () => {
    expect(await (await fetch(`${served.url}/forge/api/v4/host-extension`)).json()).toEqual({ from: "host" });
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
  it("answers /.well-known/oauth-authorization-server/forge with the issuer's metadata", async () => {
    const inserted = await fetch(`${served.url}/.well-known/oauth-authorization-server/forge`);
    expect(inserted.status).toBe(200);
    expect(((await inserted.json()) as { issuer: string }).issuer).toBe("http://127.0.0.1/forge");
  });
});
