/** `forgekit openapi` and `forgekit routes`: generated from the route table, without a database. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());
const ROOT = new URL("../../../../", import.meta.url);

describe("forgekit openapi", () => {
  it("prints the OpenAPI 3.1 document on stdout, without opening or creating a database", async () => {
    const r = await sandbox.runRaw(["openapi"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const doc = r.json<{ openapi: string; servers: { url: string }[]; paths: Record<string, unknown> }>();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://localhost:3000/api/v4" }]);
    expect(Object.keys(doc.paths)).toContain("/projects/{id}/events");
    expect(existsSync(join(sandbox.dir, "data"))).toBe(false);
  });

  it("--out writes the file the repository commits (docs/openapi.json), byte for byte", async () => {
    const r = await sandbox.runRaw(["openapi", "--out", "openapi.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote openapi\.json \(\d+ operations\)\n$/);
    expect(readFileSync(join(sandbox.dir, "openapi.json"), "utf8")).toBe(readFileSync(new URL("docs/openapi.json", ROOT), "utf8"));
  });

  it("--base-url sets the server and the OAuth URLs", async () => {
    const r = await sandbox.runRaw(["--base-url", "https://code.example.com/forge", "openapi"]);
    const doc = r.json<{ servers: { url: string }[]; components: { securitySchemes: { oauth2: { flows: { authorizationCode: { authorizationUrl: string } } } } } }>();
    expect(doc.servers).toEqual([{ url: "https://code.example.com/forge/api/v4" }]);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.authorizationUrl).toBe("https://code.example.com/forge/oauth/authorize");
  });

  it("an unknown option is a usage error", async () => {
    expect((await sandbox.runRaw(["openapi", "--file", "x"])).code).toBe(2);
  });
});

describe("forgekit routes", () => {
  it("prints every route as a markdown table", async () => {
    const r = await sandbox.runRaw(["routes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("| Area | Method | Path | Summary |");
    expect(r.stdout).toContain("| Events | `GET` | `/api/v4/projects/:id/events` | List events of a project |");
  });

  it("--readme replaces the list between the markers and leaves the rest alone", async () => {
    const file = join(sandbox.dir, "README.md");
    writeFileSync(file, "# Host\n\n<!-- routes:start -->\nold list\n<!-- routes:end -->\n\nThe end.\n");
    const r = await sandbox.runRaw(["routes", "--readme", "README.md"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^updated README\.md \(\d+ routes\)\n$/);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("# Host\n\n<!-- routes:start -->\n")).toBe(true);
    expect(text.endsWith("\n<!-- routes:end -->\n\nThe end.\n")).toBe(true);
    expect(text).not.toContain("old list");
    expect((await sandbox.runRaw(["routes", "--readme", "README.md"])).stdout).toMatch(/^unchanged README\.md/);
  });

  it("a file without the markers is a usage error and is not changed", async () => {
    const file = join(sandbox.dir, "PLAIN.md");
    writeFileSync(file, "# Plain\n");
    const r = await sandbox.runRaw(["routes", "--readme", "PLAIN.md"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("<!-- routes:start -->");
    expect(readFileSync(file, "utf8")).toBe("# Plain\n");
  });
});
