/**
 * A real client of this API family drives the accounts routes: python-gitlab (Debian's
 * `python3-gitlab`) runs `python-gitlab-accounts.py` against a served test instance. Skipped, with a
 * line saying so, where no Python with the `gitlab` module is installed.
 */
import { execFile, spawnSync } from "node:child_process";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeHandler } from "../../node/index.js";
import { createTestForgekit } from "../../testing/fixtures.js";

const python = ["python3", "/usr/bin/python3"].find((candidate) => spawnSync(candidate, ["-c", "import gitlab"]).status === 0);
if (python === undefined) console.log("accounts: no python3 with the gitlab module (python3-gitlab) — the python-gitlab client test is skipped");

describe.skipIf(python === undefined)("python-gitlab drives the accounts routes", () => {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  let url = "";
  let adminToken = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = await createTestForgekit({ baseUrl: url, now: new Date().toISOString() });
    adminToken = t.tokens.root;
    handler = createNodeHandler(t.fk);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("users, e-mails, personal/project/group tokens, settings and version, without an error", async () => {
    const script = fileURLToPath(new URL("./python-gitlab-accounts.py", import.meta.url));
    // Asynchronous on purpose: the server answering the script runs in this process.
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(python ?? "python3", [script, url, adminToken], { timeout: 60_000 }, (error, out, err) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err });
      });
    });
    expect({ code, stderr: stderr.split("\n").slice(-8).join("\n") }).toEqual({ code: 0, stderr: "" });
    expect(stdout.trim()).toBe("OK");
  });
});
