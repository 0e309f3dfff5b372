/**
 * The quick start at its edges: where it listens (127.0.0.1 unless HOST says otherwise), a busy
 * PORT found before anything is migrated, and git missing said in one line at start.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startExpressExample } from "./app.js";
import { spawnMain } from "./run-main.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-express-edges-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An address of this machine that other machines reach (not loopback), if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === "IPv4" && !address.internal)?.address;

/** Whether anything answers HTTP at `host:port`. */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    await fetch(`http://${host}:${port}/`, { signal: AbortSignal.timeout(10_000) });
    return true;
  } catch {
    return false;
  }
}

describe("where the quick start listens", () => {
  it.skipIf(external === undefined)("on 127.0.0.1 only unless told otherwise, and the banner says so", async () => {
    const running = await startExpressExample({ port: 0, database: "local.db", cwd: dir, env: {} });
    try {
      const port = Number(new URL(running.baseUrl).port);
      expect(await answers("127.0.0.1", port)).toBe(true);
      expect(await answers(external ?? "", port)).toBe(false);
      expect(running.banner).toContain("Listening on 127.0.0.1 only: other machines cannot connect (HOST=0.0.0.0 opens it to the network).");
    } finally {
      await running.close();
    }
  });

  it.skipIf(external === undefined)("on every interface with host 0.0.0.0 (HOST), and the banner warns that the demo passwords are public", async () => {
    const running = await startExpressExample({ port: 0, host: "0.0.0.0", database: "open.db", cwd: dir, env: {} });
    try {
      expect(await answers(external ?? "", Number(new URL(running.baseUrl).port))).toBe(true);
      expect(running.banner).toContain("Listening on 0.0.0.0: other machines can connect, and the demo passwords and tokens below are public.");
    } finally {
      await running.close();
    }
  });
});

describe("a busy PORT", () => {
  it("is reported before the database is created or migrated, with PORT=0 as the way out", async () => {
    const busy: Server = await new Promise((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => resolve(server));
    });
    const { port } = busy.address() as AddressInfo;
    try {
      const started = startExpressExample({ port, database: "busy.db", cwd: dir, env: {} });
      await expect(started).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use\nhint: stop what listens there, or set PORT to a free port (PORT=0 picks one)`);
      expect(existsSync(join(dir, "busy.db"))).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});

describe("git missing", () => {
  it("stops the start with one line saying to install git, before the database is created", async () => {
    const data = join(dir, "no-git");
    const emptyPath = join(dir, "empty-path");
    mkdirSync(emptyPath, { recursive: true });
    const main = spawnMain(data, { PATH: emptyPath });
    expect(await main.exited).toBe(1);
    expect(main.output()).toBe("forgekit example failed to start: git was not found on PATH (spawn git ENOENT): the demo keeps its repositories with git; install git and start again\n");
    expect(existsSync(join(data, "forgekit.db"))).toBe(false);
  }, 240_000);
});
