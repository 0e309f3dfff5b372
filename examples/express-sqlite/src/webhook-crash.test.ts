/**
 * Issue 20 "Done means": a webhook delivery survives `kill -9`. The example server records an
 * issue (its delivery row and job are written with it), starts sending it, and is killed while the
 * receiver on 127.0.0.1 holds the request; started again on the same database, its worker takes the
 * dead worker's job over and delivers the same event again with the same Idempotency-Key.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMain } from "./run-main.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-webhook-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("examples/express-sqlite: webhook deliveries across a crash", () => {
  it("kill -9 while a delivery is in flight → delivered after the restart with the same Idempotency-Key", { timeout: 300_000 }, async () => {
    const received: IncomingHttpHeaders[] = [];
    const held: ServerResponse[] = [];
    let answer = false;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push(req.headers);
        if (answer) res.writeHead(200).end("ok");
        else held.push(res); // the first attempt gets no answer: the server dies meanwhile
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const address = receiver.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`;
    try {
      const first = await runMain(join(dir, "data"));
      const token = first.token("alice");
      const headers = { "private-token": token, "content-type": "application/json" };
      const project = encodeURIComponent("alice/notes");
      const hook = await fetch(`${first.baseUrl}/api/v4/projects/${project}/hooks`, { method: "POST", headers, body: JSON.stringify({ url, push_events: false, issues_events: true }) });
      expect(hook.status).toBe(201);
      const issue = await fetch(`${first.baseUrl}/api/v4/projects/${project}/issues`, { method: "POST", headers, body: JSON.stringify({ title: "Survives a crash" }) });
      expect(issue.status).toBe(201);
      await until(() => received.length >= 1, "the first attempt");
      await first.kill();
      answer = true;
      const second = await runMain(join(dir, "data"));
      try {
        await until(() => received.length >= 2, "the delivery after the restart");
      } finally {
        await second.stop();
      }
      expect(received[1]?.["x-gitlab-event"]).toBe("Issue Hook");
      expect(received[1]?.["idempotency-key"]).toBe(received[0]?.["idempotency-key"]);
      expect(received[1]?.["x-gitlab-event-uuid"]).toBe(received[0]?.["x-gitlab-event-uuid"]);
    } finally {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
