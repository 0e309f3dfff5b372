/**
 * Merge-request versions (issue 19 §2; reference `lib/api/merge_request_diffs.rb`,
 * `MergeRequestDiff`, `MergeRequestDiffFull`): a version when the merge request opens and one per
 * new head of its source branch (commit API and git push), each with its commits and diffs read
 * from git.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { json, reviewKit, type Json, type ReviewKit } from "./merge-request-reviews-kit.js";

export const mergeRequestVersionsSuite: HttpSuite = (h: HttpHarness) => {
  describe("merge request versions", () => {
    let k: ReviewKit;
    let git: GitClient;
    const versions = (iid: number) => k.api(`/merge_requests/${iid}/versions`);

    beforeAll(async () => {
      k = await reviewKit(h, "versions");
      await k.t.addMember({ project: k.project }, k.t.users.bob, AccessLevel.Reporter);
      git = createGitClient();
    });
    afterAll(() => git.cleanup());

    describe("GET /projects/:id/merge_requests/:iid/versions", () => {
      it("one version when the merge request opens: head, base and start commits, merge_request_id, state collected, real_size and patch_id_sha", async () => {
        const head = await k.commit("one", "one.txt", { start: "main" });
        const mr = await k.open("one");
        const r = await h.request("GET", versions(mr.iid), k.alice());
        expect(r.status).toBe(200);
        const list = json<Json[]>(r);
        const main = json<{ commit: { id: string } }>(await h.request("GET", k.api("/repository/branches/main"), k.alice())).commit.id;
        expect(list).toHaveLength(1);
        expect(list[0]).toMatchObject({ head_commit_sha: head, base_commit_sha: main, start_commit_sha: main, merge_request_id: mr.id, state: "collected", real_size: "1" });
        expect(list[0]?.["patch_id_sha"]).toMatch(/^[0-9a-f]{40}$/);
        expect(r.headers["x-total"]).toBe("1");
      });

      it("a commit through the API and a git push to the source branch each add a version, newest first; the same head adds none", async () => {
        const first = await k.commit("two", "two.txt", { start: "main" });
        const mr = await k.open("two");
        const second = await k.commit("two", "two-more.txt");
        const cwd = git.path("two");
        await git.must(["clone", "--quiet", "--branch", "two", gitUrl(k.base, `${k.project.fullPath}.git`, { username: "alice", password: k.t.tokens.alice }), cwd]);
        await git.must(["-c", "user.name=Alice", "-c", "user.email=alice@example.com", "commit", "--quiet", "--allow-empty", "-m", "pushed"], { cwd });
        await git.must(["push", "--quiet", "origin", "two"], { cwd });
        const third = (await git.must(["rev-parse", "HEAD"], { cwd })).trim();
        // Pushing the same head again (a new branch at it) moves nothing on `two`.
        await git.must(["push", "--quiet", "origin", "HEAD:refs/heads/two-copy"], { cwd });
        const list = json<Json[]>(await h.request("GET", versions(mr.iid), k.alice()));
        expect(list.map((v) => v["head_commit_sha"])).toEqual([third, second, first]);
        expect(list.map((v) => v["real_size"])).toEqual(["2", "2", "1"]);
        expect(new Set(list.map((v) => v["id"])).size).toBe(3);
      });

      it("a push to a branch of no open merge request adds no version to others", async () => {
        await k.commit("three", "three.txt", { start: "main" });
        const mr = await k.open("three");
        await k.commit("unrelated", "unrelated.txt", { start: "main" });
        expect(json<Json[]>(await h.request("GET", versions(mr.iid), k.alice()))).toHaveLength(1);
      });

      it("404 for an unknown merge request; 404 for an invisible project; a Reporter may read them", async () => {
        expect((await h.request("GET", versions(9999), k.alice())).status).toBe(404);
        expect((await h.request("GET", versions(1), k.as(undefined))).status).toBe(404);
        expect((await h.request("GET", versions(1), k.as(k.t.tokens.bob))).status).toBe(200);
      });
    });

    describe("GET /projects/:id/merge_requests/:iid/versions/:version_id", () => {
      it("the version with its commits (newest first) and diffs, read from git", async () => {
        await k.commit("four", "four.txt", { start: "main", message: "first four", content: "hello\n" });
        const mr = await k.open("four");
        await k.commit("four", "four-b.txt", { message: "second four", content: "b\n" });
        const [newest, oldest] = json<Json[]>(await h.request("GET", versions(mr.iid), k.alice()));
        const r = await h.request("GET", `${versions(mr.iid)}/${String(newest?.["id"])}`, k.alice());
        expect(r.status).toBe(200);
        const body = json<Json & { commits: Json[]; diffs: Json[] }>(r);
        expect(body).toMatchObject({ id: newest?.["id"], head_commit_sha: newest?.["head_commit_sha"], state: "collected", real_size: "2" });
        expect(body.commits.map((c) => c["title"])).toEqual(["second four", "first four"]);
        expect(body.diffs.map((d) => d["new_path"])).toEqual(["four-b.txt", "four.txt"]);
        expect(body.diffs[1]).toMatchObject({ new_file: true, diff: "@@ -0,0 +1 @@\n+hello\n" });
        const old = json<Json & { commits: Json[]; diffs: Json[] }>(await h.request("GET", `${versions(mr.iid)}/${String(oldest?.["id"])}`, k.alice()));
        expect(old.commits.map((c) => c["title"])).toEqual(["first four"]);
        expect(old.diffs.map((d) => d["new_path"])).toEqual(["four.txt"]);
      });

      it("unidiff=true gives each diff git's unified header", async () => {
        await k.commit("five", "five.txt", { start: "main", content: "x\n" });
        const mr = await k.open("five");
        const [v] = json<Json[]>(await h.request("GET", versions(mr.iid), k.alice()));
        const body = json<{ diffs: Json[] }>(await h.request("GET", `${versions(mr.iid)}/${String(v?.["id"])}?unidiff=true`, k.alice()));
        expect(body.diffs[0]?.["diff"]).toBe("--- /dev/null\n+++ b/five.txt\n@@ -0,0 +1 @@\n+x\n");
      });

      it("404 for a version of another merge request or an unknown one; 400 for a version_id that is not an id", async () => {
        await k.commit("six", "six.txt", { start: "main" });
        const mr = await k.open("six");
        await k.commit("seven", "seven.txt", { start: "main" });
        const other = await k.open("seven");
        const [v] = json<Json[]>(await h.request("GET", versions(other.iid), k.alice()));
        expect((await h.request("GET", `${versions(mr.iid)}/${String(v?.["id"])}`, k.alice())).status).toBe(404);
        expect((await h.request("GET", `${versions(mr.iid)}/999999`, k.alice())).status).toBe(404);
        expect((await h.request("GET", `${versions(mr.iid)}/abc`, k.alice())).status).toBe(400);
      });
    });
  });
};
