import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConventionInstance, createGitClient, createTestForgekit, gitUrl, listenOn, type GitClient, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
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

describe("koa: the sub-path recipe — app.use(forgekit(fk, { paths: [] })) and app.use(forgekit(fk, { prefix: \"/forge\" }))", () => {
  let served: ServedInstance;
  let t: TestForgekit;
  let git: GitClient;
  beforeAll(async () => {
    t = await createTestForgekit();
    git = createGitClient();
    const app = new Koa();
    app.use(forgekit(t.fk, { paths: [] }));
    app.use(forgekit(t.fk, { prefix: "/forge" }));
    app.use((ctx) => {
      ctx.body = `host ${ctx.path}`;
    });
    served = await listenOn(createServer(nodeListener(app)));
  });
  afterAll(async () => {
    await served.close();
    git.cleanup();
  });

  it("git below /forge is served by the /forge mount: push, then an anonymous clone of the public project", async () => {
    const work = git.path("seed");
    await git.must(["init", "-q", work]);
    writeFileSync(join(work, "f.txt"), "f\n");
    await git.must(["add", "f.txt"], { cwd: work });
    await git.must(["commit", "-q", "-m", "below /forge"], { cwd: work });
    await git.must(["push", "-q", gitUrl(`${served.url}/forge`, "grp/public-project.git", { username: "alice", password: t.tokens.alice }), "main"], { cwd: work });
    const clone = git.path("clone");
    await git.must(["clone", "-q", gitUrl(`${served.url}/forge`, "grp/public-project.git"), clone]);
    expect((await git.must(["log", "-1", "--format=%s"], { cwd: clone })).trim()).toBe("below /forge");
  });

  it("the root mount with paths: [] serves no git: a root git path goes to the next middleware", async () => {
    const r = await fetch(`${served.url}/grp/public-project.git/info/refs?service=git-upload-pack`);
    expect(await r.text()).toBe("host /grp/public-project.git/info/refs");
  });
});
