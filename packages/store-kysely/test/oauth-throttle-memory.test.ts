/**
 * OAuth throttling keeps a real server's memory bounded (issue 8): a server process (the node
 * handler of createForgekit on SQLite, oauth-throttle-server-child.ts) receives 900 password-grant
 * requests with very long unique usernames (100 000 characters), then 900 with unique usernames of
 * the longest allowed length spread over 60 loopback addresses, then its clock passes the window. Its resident set size and
 * the number of throttle keys are read from inside the child after a full garbage collection.
 *
 * Before the fix every username became a map key of its own size (149 MB → 565 MB for 900
 * requests, never given back); now a long username is refused with 400 before it reaches the
 * limiter, keys are fixed-length digests, and expired windows are dropped as time passes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startChild, type Child } from "./child-process.js";

interface Stats {
  rss: number;
  heapUsed: number;
  keys: number;
}

const WINDOW_SECONDS = 300;

/** Linux routes all of 127.0.0.0/8 to loopback; elsewhere (macOS) only 127.0.0.1 may exist. */
async function loopbackRange(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(0, "127.0.1.1", () => probe.close(() => resolve(true)));
  });
}
const manyAddresses = await loopbackRange();
const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "fk-throttle-"));
let child: Child | undefined;

afterAll(() => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

function post(port: number, body: string, localAddress = "127.0.0.1"): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, localAddress, method: "POST", path: "/oauth/token", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs `count` jobs, `width` at a time; returns every status seen with its count. */
async function pool(count: number, width: number, job: (i: number) => Promise<{ status: number }>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < count; i = next++) {
        const { status } = await job(i);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const form = (fields: Record<string, string>) => new URLSearchParams({ grant_type: "password", password: "guess", ...fields }).toString();
const unique = (i: number, length: number) => `${i.toString(36)}-`.padEnd(length, "u");

describe("OAuth throttling on a real server process (SQLite): bounded memory (issue 8)", () => {
  it.skipIf(!manyAddresses)("900 huge usernames, 900 capped ones from 60 addresses, then the window: RSS and keys stay bounded", async () => {
    const c = startChild("oauth-throttle-server-child.ts", [join(dir, "forgekit.db"), String(WINDOW_SECONDS)]);
    child = c;
    const port = Number((await c.line((l) => l.startsWith("ready "))).split(" ")[1]);
    let reading = 0;
    const stats = async (): Promise<Stats> => {
      const seen = reading++;
      c.send("stats");
      // Each answer is a new line; skip the ones already read.
      let answers = 0;
      const line = await c.line((l) => l.startsWith("{") && answers++ === seen);
      return JSON.parse(line) as Stats;
    };

    const start = await stats();

    // 900 requests whose usernames are 100 000 characters each, all different.
    const huge = await pool(900, 8, (i) => post(port, form({ username: unique(i, 100_000) })));
    const afterHuge = await stats();
    expect(huge).toEqual({ 400: 900 });

    // 900 requests with unique usernames at the 255-character limit, 15 from each of 60 addresses.
    const capped = await pool(900, 8, (i) => post(port, form({ username: unique(i, 255) }), `127.0.1.${1 + (i % 60)}`));
    const afterCapped = await stats();
    expect(capped).toEqual({ 400: 900 });

    // One address keeps going: its 31st failure is refused (per-address key), and adds no key.
    const spray = await pool(40, 1, (i) => post(port, form({ username: unique(i, 200) }), "127.0.2.1"));
    const afterSpray = await stats();
    expect(spray).toEqual({ 400: 30, 429: 10 });

    // After the window (the child's clock moves on), one more request drops every expired key.
    c.send(`advance ${WINDOW_SECONDS}`);
    await c.line((l) => l === "advanced");
    expect((await post(port, form({ username: "late" }), "127.0.3.1")).status).toBe(400);
    const afterSweep = await stats();

    const figures = { start, afterHuge, afterCapped, afterSpray, afterSweep };
    process.stdout.write(
      `oauth throttle memory (MB rss / heap, keys): ${Object.entries(figures)
        .map(([k, s]) => `${k} ${(s.rss / MB).toFixed(1)}/${(s.heapUsed / MB).toFixed(1)} ${s.keys}`)
        .join("; ")}\n`,
    );

    expect(afterHuge.keys).toBe(0);
    // 900 × 100 000 characters would be ~86 MB of heap if the usernames were kept.
    expect(afterHuge.heapUsed - start.heapUsed).toBeLessThan(20 * MB);
    expect(afterHuge.rss - start.rss).toBeLessThan(60 * MB);
    expect(afterCapped.keys).toBe(900 + 60);
    expect(afterSpray.keys).toBe(960 + 30 + 1);
    expect(afterSweep.keys).toBe(2);
    c.send("exit");
    await c.exited;
  });
});
