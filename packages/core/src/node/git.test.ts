import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pktLine } from "../git-http/pkt-line.js";
import { listenOn, type ServedInstance } from "../testing/http-harness.js";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";
import { createNodeHandler } from "./index.js";

describe("node layer: git requests", () => {
  let t: TestForgekit;
  let served: ServedInstance;
  let directory: string;
  let sha: string;
  beforeAll(async () => {
    t = await createTestForgekit();
    const p = t.projects.publicProject;
    directory = t.fk.config.repositoryStorage.localPath?.(p.repositoryStorage, { kind: "project", id: p.id }) ?? "";
    const env = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.com" };
    // 8 MB of random bytes: the pack is far larger than the socket buffers, so git is mid-transfer when the client leaves.
    const blob = execFileSync("git", [`--git-dir=${directory}`, "hash-object", "-w", "--stdin"], { input: randomBytes(8_000_000) }).toString().trim();
    const tree = execFileSync("git", [`--git-dir=${directory}`, "mktree"], { input: `100644 blob ${blob}\tbig\n`, env }).toString().trim();
    sha = execFileSync("git", [`--git-dir=${directory}`, "commit-tree", tree, "-m", "big"], { env }).toString().trim();
    execFileSync("git", [`--git-dir=${directory}`, "update-ref", "refs/heads/main", sha]);
    served = await listenOn(createServer(createNodeHandler(t.fk)));
  });
  afterAll(() => served.close());

  const gitProcesses = () => execFileSync("ps", ["-eo", "args"]).toString().split("\n").filter((line) => line.includes(directory)).length;

  it("a client that goes away mid-clone leaves no git process behind, and the server keeps serving", async () => {
    const u = new URL(served.url);
    for (let round = 0; round < 2; round += 1) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: u.hostname, port: u.port, method: "POST", path: `/${t.projects.publicProject.fullPath}.git/git-upload-pack`, headers: { "content-type": "application/x-git-upload-pack-request" } }, (res) => {
          res.once("data", () => {
            req.destroy();
            resolve(res.statusCode ?? 0);
          });
        });
        req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
        req.end(Buffer.concat([pktLine(`want ${sha}\n`), Buffer.from("0000"), pktLine("done\n")]));
      });
      expect(status).toBe(200);
      await expect.poll(gitProcesses, { timeout: 7_000, interval: 50 }).toBe(0);
    }
    const r = await fetch(`${served.url}/${t.projects.publicProject.fullPath}.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(200);
    await r.arrayBuffer();
  });
});
