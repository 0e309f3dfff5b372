/** The `forgekit` executable as a process: what a shell pipeline sees. */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

/** Runs bin.ts with `argv`, reading only the first chunk of stdout and then closing it (as `| head -c1` does). */
async function runIntoClosedPipe(argv: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  const tsx = createRequire(import.meta.url).resolve("tsx");
  const child = spawn(process.execPath, ["--conditions=@forgekit/source", "--import", tsx, join(import.meta.dirname, "bin.ts"), ...argv], {
    cwd: sandbox.dir,
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL")),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const first = new Promise<string>((resolve) => {
    child.stdout.once("data", (chunk: Buffer) => {
      resolve(chunk.toString());
      child.stdout.destroy();
    });
    child.stdout.once("close", () => resolve(""));
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", (exit) => resolve(exit)));
  return { code, stderr, first: await first };
}

describe("stdout closed early (forgekit … | head)", () => {
  it("exits quietly: no EPIPE stack trace, exit code 0", async () => {
    // The OpenAPI document is far larger than a pipe's buffer, so it is still writing when stdout closes.
    const openapi = await runIntoClosedPipe(["openapi"]);
    expect(openapi.first).toContain('"openapi"');
    expect(openapi.stderr).toBe("");
    expect(openapi.code).toBe(0);
    const routes = await runIntoClosedPipe(["routes"]);
    expect(routes.stderr).toBe("");
    expect(routes.code).toBe(0);
  }, 240_000);
});
