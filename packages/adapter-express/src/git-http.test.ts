/** Git over HTTP through the express adapter: at the root (behind express.json(), as hosts often mount it) and below /forge. */
import { createServer } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitClient, createTestForgekit, describeHttpSuite, gitHttpSuite, gitHttpInputSuite, gitUrl, listenOn, pushOneCommit, type GitClient, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
import { forgekit } from "./index.js";

describeHttpSuite(
  "express (git, behind express.json())",
  (instance) => {
    const app = express();
    app.use(express.json(), express.urlencoded({ extended: false }));
    app.use(forgekit(instance));
    return listenOn(createServer(app));
  },
  [gitHttpSuite, gitHttpInputSuite],
);

describeHttpSuite(
  "express below /forge (git)",
  (instance) => {
    const app = express();
    app.use("/forge", forgekit(instance));
    return listenOn(createServer(app), "/forge");
  },
  [gitHttpSuite, gitHttpInputSuite],
);

describe("express mount with git over HTTP", () => {
  let served: ServedInstance;
  let t: TestForgekit;
  let git: GitClient;
  beforeAll(async () => {
    t = await createTestForgekit();
    git = createGitClient();
    const app = express();
    app.use("/raw", express.raw({ type: "*/*" }), forgekit(t.fk));
    app.use("/text", express.text({ type: "*/*" }), forgekit(t.fk));
    app.use(forgekit(t.fk));
    app.get("/grp/public-project", (_req, res) => {
      res.send("host project page");
    });
    app.post("/grp/public-project/notes", express.text({ type: "*/*" }), (req, res) => {
      res.send(`host got ${String(req.body)}`);
    });
    served = await listenOn(createServer(app));
    await pushOneCommit(git, gitUrl(served.url, "grp/public-project.git", { username: "alice", password: t.tokens.alice }), "seed");
  });
  afterAll(async () => {
    await served.close();
    git.cleanup();
  });

  it("host routes that are not git requests still reach the host (next()), with their bodies", async () => {
    expect(await (await fetch(`${served.url}/grp/public-project`)).text()).toBe("host project page");
    const r = await fetch(`${served.url}/grp/public-project/notes`, { method: "POST", body: "kept" });
    expect(await r.text()).toBe("host got kept");
    // Dumb-protocol file paths are not forgekit's either: the host answers (404 here).
    const dumb = await fetch(`${served.url}/grp/public-project.git/HEAD`);
    expect(dumb.status).toBe(404);
  });

  it("a body express.raw() already read (a Buffer) is streamed to git; one turned into text cannot be → 400", async () => {
    expect((await git.run(["clone", "-q", gitUrl(`${served.url}/raw`, "grp/public-project.git"), git.path("raw")])).code).toBe(0);
    const r = await git.run(["clone", "-q", gitUrl(`${served.url}/text`, "grp/public-project.git"), git.path("text")]);
    expect(r.code).not.toBe(0);
    // git prints the status of a failed POST, not its body.
    expect(r.stderr).toContain("HTTP 400");
  });
});
