import { createServer } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConventionInstance, describeGitBelowSubPath, listenOn, type ServedInstance } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describe("express mount", () => {
  let served: ServedInstance;
  beforeAll(async () => {
    const app = express();
    app.use("/parsed", express.json(), forgekit(createConventionInstance()));
    app.use("/forge", forgekit(createConventionInstance()));
    app.get("/host", (_req, res) => {
      res.send("host route");
    });
    app.post("/forge/host-body", express.text({ type: "*/*" }), (req, res) => {
      res.send(`host body ${String(req.body)}`);
    });
    served = await listenOn(createServer(app));
  });
  afterAll(() => served.close());

  it("requests outside /api/v4, /oauth and /.well-known fall through to the host (next())", async () => {
    expect(await (await fetch(`${served.url}/host`)).text()).toBe("host route");
    const v3 = await fetch(`${served.url}/forge/api/v3/projects`);
    expect(v3.status).toBe(404);
    expect(v3.headers.get("content-type")).not.toBe("application/json");
  });

  it("a fall-through request keeps its body for the host", async () => {
    const r = await fetch(`${served.url}/forge/host-body`, { method: "POST", body: "kept", headers: { "content-type": "text/plain" } });
    expect(await r.text()).toBe("host body kept");
  });

  it("mounted below a sub-path, forgekit serves /forge/api/v4/*", async () => {
    const r = await fetch(`${served.url}/forge/api/v4/version`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
  });

  it("a body already parsed by express.json() is used", async () => {
    const r = await fetch(`${served.url}/parsed/api/v4/echo?q=1`, { method: "POST", body: '{"a":[1,2]}', headers: { "content-type": "application/json" } });
    expect(await r.json()).toEqual({ params: { q: "1", a: [1, 2] }, path: {} });
  });
});

describeGitBelowSubPath(
  "express: the sub-path recipe (docs/guide/embedding.md) — app.use(forgekit(fk, { paths: [] })) and app.use(\"/forge\", forgekit(fk))",
  (instance) => {
    const app = express();
    app.use(forgekit(instance, { paths: [] }));
    app.use("/forge", forgekit(instance));
    return listenOn(createServer(app));
  },
  async (r) => {
    expect(r.status).toBe(404);
    expect(await r.text()).toContain("Cannot GET");
  },
);
