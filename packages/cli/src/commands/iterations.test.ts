/** `forgekit iterations create|list` on a temporary SQLite file, checked through the API on a premium instance. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForgekit } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

beforeAll(async () => {
  expect((await sandbox.run("migrate")).code).toBe(0);
  expect((await sandbox.run("users", "create", "--username", "alice", "--name", "Alice", "--email", "alice@example.com")).code).toBe(0);
  expect((await sandbox.run("groups", "create", "--path", "eng", "--visibility", "public", "--owner", "alice")).code).toBe(0);
  expect((await sandbox.run("groups", "create", "--path", "web", "--parent", "eng", "--visibility", "public")).code).toBe(0);
});

describe("iterations create", () => {
  it("creates iterations with iids per group; states follow today's date", async () => {
    const closed = await sandbox.run("--json", "iterations", "create", "--group", "eng", "--title", "Long ago", "--start-date", "2000-01-01", "--due-date", "2000-01-14");
    expect(closed.code).toBe(0);
    expect(closed.json()).toMatchObject({ iid: 1, sequence: 1, title: "Long ago", description: "", state: "closed", start_date: "2000-01-01", due_date: "2000-01-14" });
    const current = await sandbox.run("iterations", "create", "--group", "eng", "--title", "Now", "--start-date", "2001-01-01", "--due-date", "2400-12-31", "--description", "ongoing");
    expect(current.stdout).toMatch(/^created iteration \d+ \*iteration:2 "Now" 2001-01-01\.\.2400-12-31 \(current\)\n$/);
    const child = await sandbox.run("--json", "iterations", "create", "--group", "eng/web", "--title", "Later", "--start-date", "2401-01-01", "--due-date", "2401-01-14");
    expect(child.json()).toMatchObject({ iid: 1, state: "upcoming" });
  });

  it("reports validation errors and unknown groups", async () => {
    const overlap = await sandbox.run("iterations", "create", "--group", "eng", "--title", "Clash", "--start-date", "2000-01-14", "--due-date", "2000-01-20");
    expect(overlap).toMatchObject({ code: 1, stderr: "error: base Dates cannot overlap with other existing Iterations within this group\n" });
    const backwards = await sandbox.run("iterations", "create", "--group", "eng", "--title", "Back", "--start-date", "2000-03-10", "--due-date", "2000-03-01");
    expect(backwards).toMatchObject({ code: 1, stderr: "error: due_date must be greater than start date\n" });
    const taken = await sandbox.run("iterations", "create", "--group", "eng", "--title", "Now", "--start-date", "2000-05-01", "--due-date", "2000-05-02");
    expect(taken).toMatchObject({ code: 1, stderr: "error: title has already been taken\n" });
    const malformed = await sandbox.run("iterations", "create", "--group", "eng", "--title", "Bad", "--start-date", "soon", "--due-date", "2000-05-02");
    expect(malformed).toMatchObject({ code: 1, stderr: "error: start_date is invalid\n" });
    expect(await sandbox.run("iterations", "create", "--group", "nope", "--title", "X", "--start-date", "2000-06-01", "--due-date", "2000-06-02")).toMatchObject({
      code: 1,
      stderr: "error: Group not found\n",
    });
    expect((await sandbox.run("iterations", "create", "--group", "eng", "--title", "X")).code).toBe(2);
  });
});

describe("iterations list", () => {
  it("lists the group's and its ancestors' iterations by due date, with filters", async () => {
    const all = await sandbox.run("--json", "iterations", "list", "--group", "eng/web");
    expect(all.json<{ title: string }[]>().map((i) => i.title)).toEqual(["Long ago", "Now", "Later"]);
    const own = await sandbox.run("iterations", "list", "--group", "eng/web", "--no-ancestors");
    expect(own.stdout).toMatch(/^iteration \d+ \*iteration:1 "Later" 2401-01-01\.\.2401-01-14 \(upcoming\)\n$/);
    expect((await sandbox.run("--json", "iterations", "list", "--group", "eng", "--state", "opened")).json<{ title: string }[]>().map((i) => i.title)).toEqual(["Now"]);
    expect((await sandbox.run("iterations", "list", "--group", "eng", "--search", "zzz")).stdout).toBe("no iterations\n");
    expect((await sandbox.run("iterations", "list", "--group", "eng", "--state", "soon")).code).toBe(2);
  });

  it("what the CLI created is served by GET /groups/:id/iterations on a premium instance", async () => {
    const store = kyselyStore(fromUrl(sandbox.database));
    try {
      const fk = createForgekit({ baseUrl: "http://localhost:3000", store, tier: "premium" });
      const response = await fk.handle({ method: "GET", path: "/api/v4/groups/eng/iterations", rawQuery: "state=current", headers: {} });
      expect(response.status).toBe(200);
      const body = JSON.parse(String(response.body)) as { title: string; state: number; web_url: string }[];
      expect(body.map((i) => [i.title, i.state])).toEqual([["Now", 2]]);
      expect(body[0]?.web_url).toMatch(/^http:\/\/localhost:3000\/groups\/eng\/-\/iterations\/\d+$/);
    } finally {
      await store.close();
    }
  });
});
