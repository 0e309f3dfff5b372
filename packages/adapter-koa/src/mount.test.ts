import { createServer } from "node:http";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConventionInstance, describeGitBelowSubPath, listenOn, type ServedInstance } from "@forgekit/core/testing";
import { forgekit } from "./index.js";
import { nodeListener } from "./test-support.js";

describe("koa mount", () => {
  let served: ServedInstance;
  beforeAll(async () => {
    const app = new Koa();
    // A body parser in front (like koa-bodyparser): consumes the stream, sets ctx.request.body.
    app.use(async (ctx, next) => {
      if (ctx.path.startsWith("/parsed/")) {
        let text = "";
        for await (const chunk of ctx.req) text += String(chunk);
        (ctx.request as { body?: unknown }).body = JSON.parse(text) as unknown;
      }
      await next();
    });
    app.use(forgekit(createConventionInstance(), { prefix: "/parsed" }));
    app.use(forgekit(createConventionInstance(), { prefix: "/forge" }));
    app.use(async (ctx) => {
      let text = "";
      for await (const chunk of ctx.req) text += String(chunk);
      ctx.body = `host ${ctx.path} ${text}`;
    });
    served = await listenOn(createServer(nodeListener(app)));
  });
  afterAll(() => served.close());

  it("requests outside forgekit's paths go to the next middleware with their body", async () => {
    expect(await (await fetch(`${served.url}/host`)).text()).toBe("host /host ");
    const r = await fetch(`${served.url}/forge/api/v3/x`, { method: "POST", body: "kept", headers: { "content-type": "text/plain" } });
    expect(await r.text()).toBe("host /forge/api/v3/x kept");
  });

  it("JSON responses keep exactly application/json (no charset added by koa)", async () => {
    const r = await fetch(`${served.url}/forge/api/v4/version`);
    expect(r.headers.get("content-type")).toBe("application/json");
  });

  it("a body parsed by an earlier middleware is used", async () => {
    const r = await fetch(`${served.url}/parsed/api/v4/echo`, { method: "POST", body: '{"a":true}', headers: { "content-type": "application/json" } });
    expect(await r.json()).toEqual({ params: { a: true }, path: {} });
  });
});

describeGitBelowSubPath(
  "koa: the sub-path recipe — app.use(forgekit(fk, { paths: [] })) and app.use(forgekit(fk, { prefix: \"/forge\" }))",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance, { paths: [] }));
    app.use(forgekit(instance, { prefix: "/forge" }));
    app.use((ctx) => {
      ctx.body = `host ${ctx.path}`;
    });
    return listenOn(createServer(nodeListener(app)));
  },
  async (r) => expect(await r.text()).toBe("host /grp/public-project.git/info/refs"),
);
