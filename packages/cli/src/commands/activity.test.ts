/** `forgekit issues|merge-requests|milestones|snippets|notes|pushes|events` on a temporary SQLite file. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

const ok = async (...argv: string[]) => {
  const r = await sandbox.run(...argv);
  expect([argv.join(" "), r.code, r.stderr]).toEqual([argv.join(" "), 0, ""]);
  return r;
};
const json = async <T = Record<string, unknown>>(...argv: string[]) => (await ok("--json", ...argv)).json<T>();
const SHA1 = "1".repeat(40);
const SHA2 = "2".repeat(40);

beforeAll(async () => {
  await ok("migrate");
  for (const name of ["ann", "ben"]) await ok("users", "create", "--username", name, "--name", name, "--email", `${name}@example.com`);
  await ok("groups", "create", "--path", "team", "--visibility", "public", "--owner", "ann");
  await ok("projects", "create", "--namespace", "team", "--name", "app", "--visibility", "public");
  await ok("projects", "create", "--namespace", "team", "--name", "vault", "--visibility", "private");
});

describe("issues, merge requests, milestones", () => {
  it("issues create / close / reopen / list, each change with its event", async () => {
    const created = await ok("issues", "create", "--project", "team/app", "--author", "ben", "--title", "Crash on start");
    expect(created.stdout).toMatch(/^opened issue #1 "Crash on start" in project \d+ \(opened\)\n$/);
    expect(await json("issues", "create", "--project", "team/app", "--author", "ann", "--title", "Keys", "--confidential")).toMatchObject({ iid: 2, confidential: true });
    expect((await ok("issues", "close", "--project", "team/app", "--iid", "1", "--by", "ann")).stdout).toContain("closed issue #1");
    expect((await ok("issues", "reopen", "--project", "team/app", "--iid", "1", "--by", "ann")).stdout).toContain("(opened)");
    const again = await sandbox.run("issues", "reopen", "--project", "team/app", "--iid", "1", "--by", "ann");
    expect([again.code, again.stderr]).toEqual([1, "error: Issue is already open\n"]);
    expect((await json<{ iid: number }[]>("issues", "list", "--project", "team/app")).map((i) => i.iid)).toEqual([1, 2]);
    const missing = await sandbox.run("issues", "close", "--project", "team/app", "--iid", "9", "--by", "ann");
    expect([missing.code, missing.stderr]).toEqual([1, "error: Issue not found\n"]);
    expect((await sandbox.run("issues", "close", "--project", "team/app", "--iid", "one", "--by", "ann")).code).toBe(2);
  });

  it("merge-requests create / merge / close / reopen and milestones create / close", async () => {
    expect(await json("merge-requests", "create", "--project", "team/app", "--author", "ben", "--title", "Fix", "--source", "fix", "--target", "main")).toMatchObject({ iid: 1, state: "opened" });
    expect((await ok("merge-requests", "merge", "--project", "team/app", "--iid", "1", "--by", "ann")).stdout).toContain("merged merge request !1");
    await ok("merge-requests", "create", "--project", "team/app", "--author", "ben", "--title", "Try", "--source", "try", "--target", "main");
    await ok("merge-requests", "close", "--project", "team/app", "--iid", "2", "--by", "ben");
    expect(await json("merge-requests", "reopen", "--project", "team/app", "--iid", "2", "--by", "ben")).toMatchObject({ state: "opened" });
    const same = await sandbox.run("merge-requests", "create", "--project", "team/app", "--author", "ben", "--title", "X", "--source", "main", "--target", "main");
    expect(same.stderr).toBe("error: source_branch must differ from the target branch\n");
    expect(await json("milestones", "create", "--project", "team/app", "--author", "ann", "--title", "v1")).toMatchObject({ iid: 1, state: "active" });
    expect((await ok("milestones", "close", "--project", "team/app", "--iid", "1", "--by", "ann")).stdout).toContain("(closed)");
    expect((await sandbox.run("milestones", "create", "--project", "team/app", "--author", "ann", "--title", "v1")).stderr).toBe("error: title has already been taken\n");
  });
});

describe("snippets, notes, pushes", () => {
  it("snippets create (project and personal) and notes on issues, merge requests and snippets", async () => {
    const snippet = await json<{ id: number; project_id: number | null }>("snippets", "create", "--project", "team/app", "--author", "ben", "--title", "cfg", "--file-name", "a.yml", "--visibility", "public");
    expect(snippet.project_id).not.toBeNull();
    expect(await json("snippets", "create", "--author", "ben", "--title", "mine", "--file-name", "m.txt")).toMatchObject({ project_id: null, visibility: "private" });
    expect(await json("notes", "create", "--author", "ann", "--body", "Looking", "--project", "team/app", "--issue", "1")).toMatchObject({ noteable_type: "Issue", system: false });
    expect(await json("notes", "create", "--author", "ann", "--body", "LGTM", "--project", "team/app", "--merge-request", "1")).toMatchObject({ noteable_type: "MergeRequest" });
    expect(await json("notes", "create", "--author", "ann", "--body", "nice", "--snippet", String(snippet.id))).toMatchObject({ noteable_type: "Snippet" });
    const both = await sandbox.run("notes", "create", "--author", "ann", "--body", "x", "--issue", "1", "--snippet", "1");
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("give exactly one of --issue, --merge-request or --snippet")]);
    expect((await sandbox.run("notes", "create", "--author", "ann", "--body", "x", "--issue", "1")).stderr).toContain("--issue needs --project");
  });

  it("pushes record: new branch, push, deleted tag; bad commit ids are usage errors", async () => {
    expect((await ok("pushes", "record", "--project", "team/app", "--author", "ben", "--ref", "feature", "--to", SHA1, "--count", "1", "--title", "Start")).stdout).toMatch(/pushed new branch feature \(1 commits\)/);
    expect(await json("pushes", "record", "--project", "team/app", "--author", "ben", "--ref", "feature", "--from", SHA1, "--to", SHA2, "--count", "2")).toMatchObject({
      action_name: "pushed to",
      push_data: { action: "pushed", commitCount: 2, ref: "feature", refType: "branch" },
    });
    expect((await ok("pushes", "record", "--project", "team/app", "--author", "ben", "--ref", "v0", "--tag", "--from", SHA2)).stdout).toContain("deleted tag v0");
    const bad = await sandbox.run("pushes", "record", "--project", "team/app", "--author", "ben", "--ref", "x", "--to", "abc");
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--to must be a commit id (40 or 64 hex digits), got "abc"')]);
  });
});

describe("events", () => {
  it("events list --project: everything for the operator; --as narrows to what that user sees", async () => {
    const all = await json<{ action_name: string; target_title: string | null }[]>("events", "list", "--project", "team/app", "--per-page", "100");
    expect(all.map((e) => e.target_title)).toContain("Keys");
    const anonymous = await json<{ target_title: string | null }[]>("events", "list", "--project", "team/app", "--as", "anonymous", "--per-page", "100");
    expect(anonymous.map((e) => e.target_title)).not.toContain("Keys");
    expect(anonymous.length).toBeLessThan(all.length);
    const merged = await ok("events", "list", "--project", "team/app", "--action", "merged");
    expect(merged.stdout).toMatch(/^event \d+ \S+ user \d+ accepted MergeRequest 1 "Fix" in project \d+\n$/);
    expect((await ok("events", "list", "--project", "team/vault", "--as", "ann")).stdout).toBe("no events\n");
  });

  it("events list --user with filters; bad filters are usage errors", async () => {
    const ben = await json<{ action_name: string }[]>("events", "list", "--user", "ben", "--target-type", "merge_request", "--sort", "asc");
    expect(ben.map((e) => e.action_name)).toEqual(["opened", "opened", "closed", "opened"]);
    expect(await json("events", "list", "--user", "ben", "--before", "2000-01-01")).toEqual([]);
    expect((await sandbox.run("events", "list", "--user", "ben", "--target-type", "epic")).code).toBe(2);
    expect((await sandbox.run("events", "list", "--user", "ben", "--after", "2024-02-30")).code).toBe(2);
    expect((await sandbox.run("events", "list")).code).toBe(2);
    expect((await sandbox.run("events", "list", "--project", "team/vault", "--as", "ben")).stderr).toBe("error: Project not found\n");
  });

  it("events prune: nothing is three years old yet", async () => {
    expect(await json("events", "prune", "--batch-size", "50")).toMatchObject({ deleted: 0, batches: 1, complete: true });
    expect((await sandbox.run("events", "prune", "--batch-size", "0")).code).toBe(2);
  });
});
