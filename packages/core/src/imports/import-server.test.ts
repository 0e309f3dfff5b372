/** A project import from the external repository server, end to end: the repository, pull requests as merge requests and their comments as notes. */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { startExtServerStandIn, type ExtServerStandIn } from "../testing/import-stand-ins/index.js";

describe("import from the external repository server (service and job)", { timeout: 240_000 }, () => {
  let server: ExtServerStandIn;
  beforeAll(async () => {
    server = await startExtServerStandIn({
      users: [{ name: "bb-user", token: "bb-token", displayName: "BB User" }],
      repos: [
        {
          id: 9,
          projectKey: "PRJ",
          slug: "repo",
          name: "Repo",
          git: { defaultBranch: "main", commits: [{ message: "first", files: { "README.md": "# hi\n" }, tags: ["v1"] }, { message: "topic", branch: "topic", files: { "t.txt": "t\n" } }] },
          pullRequests: [
            { id: 3, title: "Merged PR", from: "topic", state: "MERGED", author: "bb-user", comments: [{ id: 31, text: "Looks good", author: "bb-user", replies: [{ id: 32, text: "Thanks", author: "someone" }] }, { id: 33, text: "On a line", anchor: { path: "t.txt", line: 1 } }] },
            { id: 4, title: "Declined PR", from: "topic", state: "DECLINED" },
            { id: 5, title: "Open PR", from: "topic" },
          ],
        },
      ],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("imports the repository, pull requests with their ids as iids and states, comments with replies as notes", async () => {
    const t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
    const view = await must(t.fk.imports.startServer(t.users.alice, { url: server.url, username: "bb-user", token: "bb-token", projectKey: "PRJ", repoSlug: "repo" }));
    expect(t.fk.imports.entity(view)).toMatchObject({ name: "Repo", full_path: "/alice/repo", import_source: "PRJ/repo", import_status: "scheduled" });
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    try {
      let record = await t.store.imports.projects.find(view.project.id);
      // Until it settles: a generous limit, so that a loaded machine only makes the test slower.
      for (const started = Date.now(); record?.status !== "finished" && record?.status !== "failed" && Date.now() - started < 120_000; ) {
        await new Promise((r) => setTimeout(r, 25));
        record = await t.store.imports.projects.find(view.project.id);
      }
      expect(record).toMatchObject({ status: "finished", error: null, credentials: null });
    } finally {
      await t.fk.workers.stop();
    }
    const path = t.fk.config.repositoryStorage.localPath?.(view.project.repositoryStorage, { kind: "project", id: view.project.id }) ?? "";
    const refs = spawnSync("git", ["-C", path, "for-each-ref", "--format=%(refname)"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    expect(refs).toEqual(["refs/heads/main", "refs/heads/topic", "refs/tags/v1"]);
    const mr3 = await t.store.activity.mergeRequests.findByIid(view.project.id, 3);
    expect(mr3).toMatchObject({ title: "Merged PR", state: "merged", sourceBranch: "topic", targetBranch: "main" });
    expect(await t.store.activity.mergeRequests.findByIid(view.project.id, 4)).toMatchObject({ state: "closed" });
    expect(await t.store.activity.mergeRequests.findByIid(view.project.id, 5)).toMatchObject({ state: "opened" });
    const notes = await t.store.activity.notes.listByNoteable("MergeRequest", mr3?.id ?? 0);
    expect(notes.map((n) => n.body).sort()).toEqual(["*Created by: bb-user*\n\nLooks good", "*Created by: bb-user*\n\n*Comment on `t.txt` line 1*\n\nOn a line", "*Created by: someone*\n\nThanks"].sort());
    expect(notes.map((n) => n.importedFrom)).toEqual(["extserver", "extserver", "extserver"]);
  });
});
