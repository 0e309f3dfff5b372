/** Git over HTTP through the koa adapter: at the root (behind a JSON body parser, as hosts often mount one) and below /forge. */
import { createServer } from "node:http";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, describeHttpSuite, gitHttpSuite, gitHttpInputSuite, listenOn, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
import { forgekit } from "./index.js";
import { nodeListener } from "./test-support.js";

/** What koa body parsers do: read JSON bodies into `ctx.request.body`, leave other types alone. */
const jsonBodyParser: Koa.Middleware = async (ctx, next) => {
  if (ctx.is("application/json") !== false && ctx.is("application/json") !== null) {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  }
  await next();
};

describeHttpSuite(
  "koa (git, behind a body parser)",
  (instance) => {
    const app = new Koa();
    app.use(jsonBodyParser);
    app.use(forgekit(instance));
    return listenOn(createServer(nodeListener(app)));
  },
  [gitHttpSuite, gitHttpInputSuite],
);

describeHttpSuite(
  "koa below /forge (git)",
  (instance) => {
    const app = new Koa();
    app.use(forgekit(instance, { prefix: "/forge" }));
    return listenOn(createServer(nodeListener(app)), "/forge");
  },
  [gitHttpSuite, gitHttpInputSuite],
);

describe("koa mount with git over HTTP", () => {
  let served: ServedInstance;
  let t: TestForgekit;
  beforeAll(async () => {
    t = await createTestForgekit();
    const app = new Koa();
    app.use(forgekit(t.fk));
    app.use(async (ctx) => {
      let text = "";
      for await (const chunk of ctx.req) text += String(chunk);
      ctx.body = `host ${ctx.method} ${ctx.path} ${text}`;
    });
    served = await listenOn(createServer(nodeListener(app)));
  });
  afterAll(() => served.close());

  it("host routes that are not git requests still reach the next middleware, with their bodies", async () => {
    expect(await (await fetch(`${served.url}/grp/public-project`)).text()).toBe("host GET /grp/public-project ");
    const r = await fetch(`${served.url}/grp/public-project/notes`, { method: "POST", body: "kept" });
    expect(await r.text()).toBe("host POST /grp/public-project/notes kept");
    // Wrong method for a git endpoint, and dumb-protocol file paths: not forgekit's.
    expect(await (await fetch(`${served.url}/grp/public-project.git/git-upload-pack`)).text()).toBe("host GET /grp/public-project.git/git-upload-pack ");
    expect(await (await fetch(`${served.url}/grp/public-project.git/HEAD`)).text()).toBe("host GET /grp/public-project.git/HEAD ");
  });

  it("a git request for a project that does not exist is forgekit's: 401 for anonymous, 404 with credentials", async () => {
    const anonymous = await fetch(`${served.url}/foo/bar.git/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
    const signedIn = await fetch(`${served.url}/foo/bar.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`alice:${t.tokens.alice}`).toString("base64")}` } });
    expect(signedIn.status).toBe(404);
    expect(await signedIn.text()).toContain("could not be found");
  });
});
