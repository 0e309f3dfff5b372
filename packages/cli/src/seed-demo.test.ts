/** `forgekit seed-demo`: the demo data set, its idempotence and the demo token file. */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DemoSeed } from "./demo-seed.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());
const tokensFile = join(sandbox.dir, "demo-tokens.json");

describe("seed-demo", () => {
  let first: DemoSeed & { tokens_file: string };

  it("migrates and seeds users, groups, projects, members and one token per user", async () => {
    const run = await sandbox.run("--json", "seed-demo");
    expect(run.code).toBe(0);
    first = run.json();
    expect(first.users.map((u) => [u.username, u.admin])).toEqual([["admin", true], ["alice", false], ["bob", false]]);
    for (const user of first.users) expect(user.token).toMatch(/^fkpat-/);
    expect(first.groups.map((g) => [g.fullPath, g.visibility])).toEqual([["demo", "public"], ["demo/platform", "internal"]]);
    expect(first.projects.map((p) => [p.fullPath, p.visibility])).toEqual([
      ["demo/website", "public"],
      ["demo/platform/api", "internal"],
      ["alice/notes", "private"],
    ]);
    // 3 users + 2 groups + 3 projects + 4 memberships + 3 tokens
    expect(first.created).toBe(15);
    expect(first.tokens_file).toBe(tokensFile);
    expect(statSync(tokensFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(tokensFile, "utf8")).toContain("demo only");
  });

  it("is idempotent: a re-run creates nothing and prints the same tokens", async () => {
    const run = await sandbox.run("--json", "seed-demo");
    expect(run.code).toBe(0);
    const again = run.json<DemoSeed>();
    expect(again.created).toBe(0);
    expect(again.users).toEqual(first.users);
    const text = await sandbox.run("seed-demo");
    expect(text.stdout).toContain("demo data already present (nothing created)");
    expect(text.stdout).toContain(first.users[1]?.token ?? "missing");
    const users = await sandbox.run("--json", "users", "list");
    expect(users.json<unknown[]>()).toHaveLength(3);
  });

  it("replaces (and revokes) tokens it can no longer show when the token file is lost", async () => {
    rmSync(tokensFile);
    const run = await sandbox.run("--json", "seed-demo");
    const replaced = run.json<DemoSeed>();
    expect(replaced.created).toBe(3);
    for (const [i, user] of replaced.users.entries()) expect(user.token).not.toBe(first.users[i]?.token);
    expect(existsSync(tokensFile)).toBe(true);
    const active = await sandbox.run("--json", "tokens", "list", "--user", "alice", "--state", "active");
    expect(active.json<unknown[]>()).toHaveLength(1);
    const inactive = await sandbox.run("--json", "tokens", "list", "--user", "alice", "--state", "inactive");
    expect(inactive.json<{ revoked: boolean }[]>()).toEqual([expect.objectContaining({ revoked: true })]);
  });

  it("keeps each database's tokens apart when two databases share the folder (and its token file)", async () => {
    const mine = (await sandbox.run("--json", "seed-demo")).json<DemoSeed>();
    const other = await sandbox.runRaw(["--database", join(sandbox.dir, "other.db"), "--json", "seed-demo"]);
    expect(other.code).toBe(0);
    expect(other.json<DemoSeed>().created).toBe(15);
    // Seeding the other database did not invalidate this one's tokens: nothing is reissued.
    const again = (await sandbox.run("--json", "seed-demo")).json<DemoSeed>();
    expect(again.created).toBe(0);
    expect(again.users).toEqual(mine.users);
    const file = JSON.parse(readFileSync(tokensFile, "utf8")) as { databases: Record<string, unknown> };
    expect(Object.keys(file.databases).sort()).toEqual([join(sandbox.dir, "other.db"), sandbox.database].sort());
  });
});
