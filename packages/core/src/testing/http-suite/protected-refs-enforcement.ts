/**
 * Protected branches and tags enforced (issue #19 §2): on git push through the pre-receive check
 * (the reference's `GitLab: …` messages, `[remote rejected] … (pre-receive hook declined)`, refs
 * unchanged), on the repository write API and the merge API; the default branch protected when
 * it is made; the branch entity's flags computed from the rules.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

export const protectedRefsEnforcementSuite: HttpSuite = (h: HttpHarness) => {
  describe("protected branches and tags enforced", () => {
    let t: TestForgekit;
    let git: GitClient;
    let base: string;
    let project: Project;
    let seed: string;
    const people = { dev: { username: "pe-dev", token: "" }, maintainer: { username: "pe-maintainer", token: "" } };
    const remote = (who: { username: string; token: string }) => gitUrl(base, `${project.fullPath}.git`, { username: who.username, password: who.token });
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const tip = async (branch: string) => ((await h.request("GET", api(`/repository/branches/${encodeURIComponent(branch)}`), as(t.tokens.alice))).json as { commit: { id: string } }).commit.id;

    /** A fresh clone with one new commit on `branch` (checked out from origin/main). */
    async function workWithCommit(name: string, who: { username: string; token: string }, branch = "main") {
      const dir = git.path(name);
      await git.must(["clone", "-q", remote(who), dir]);
      if (branch !== "main") await git.must(["checkout", "-q", "-b", branch], { cwd: dir });
      writeFileSync(join(dir, `${name}.txt`), `${name}\n`);
      await git.must(["add", "."], { cwd: dir });
      await git.must(["commit", "-q", "-m", name], { cwd: dir });
      return dir;
    }

    beforeAll(async () => {
      t = await createTestForgekit();
      base = await h.serve(t.fk);
      git = createGitClient();
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: "enforced", name: "enforced", visibility: "private", creatorId: t.users.alice.id });
      for (const [key, level] of [["dev", AccessLevel.Developer], ["maintainer", AccessLevel.Maintainer]] as const) {
        const user = await t.createUser({ username: people[key].username });
        await t.addMember({ project }, user, level);
        people[key].token = (await t.createToken(user.id)).plaintext;
      }
      seed = git.path("seed");
      await git.must(["init", "-q", "-b", "main", seed]);
      writeFileSync(join(seed, "README.md"), "seed\n");
      await git.must(["add", "."], { cwd: seed });
      await git.must(["commit", "-q", "-m", "seed"], { cwd: seed });
      await git.must(["push", "-q", gitUrl(base, `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice }), "main", "main:stable"], { cwd: seed });
    });

    describe("default branch protection", () => {
      it("the first branch pushed becomes the default and is protected: Maintainers push and merge, no force push", async () => {
        // Its own project, pushed like the suite's (main first, then stable): no rule another test added is in its list.
        const own = await t.createProject({ namespaceId: t.groups.grp.id, path: "enforced-default", name: "enforced-default", visibility: "private", creatorId: t.users.alice.id });
        await git.must(["push", "-q", gitUrl(base, `${own.fullPath}.git`, { username: "alice", password: t.tokens.alice }), "main", "main:stable"], { cwd: seed });
        const r = await h.request("GET", `/api/v4/projects/${own.id}/protected_branches`, as(t.tokens.alice));
        expect(r.status).toBe(200);
        expect(r.json).toEqual([
          expect.objectContaining({
            name: "main",
            push_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: "Maintainers" })],
            merge_access_levels: [expect.objectContaining({ access_level: 40 })],
            allow_force_push: false,
          }),
        ]);
      });
    });

    describe("git push", () => {
      it("a Developer's push to a protected branch is refused with the reference's message; the branch is unchanged", async () => {
        const before = await tip("main");
        const dir = await workWithCommit("dev-main", people.dev);
        const pushed = await git.run(["push", "origin", "main"], { cwd: dir });
        expect(pushed.code).not.toBe(0);
        expect(pushed.stderr).toContain("GitLab: You are not allowed to push code to protected branches on this project.");
        expect(pushed.stderr).toContain("[remote rejected] main -> main (pre-receive hook declined)");
        expect(await tip("main")).toBe(before);
      });

      it("a Developer pushes an unprotected branch; a Maintainer pushes the protected one", async () => {
        const feature = await workWithCommit("dev-feature", people.dev, "dev-feature");
        expect((await git.run(["push", "origin", "dev-feature"], { cwd: feature })).code).toBe(0);
        const main = await workWithCommit("maintainer-main", people.maintainer);
        expect((await git.run(["push", "origin", "main"], { cwd: main })).code).toBe(0);
        expect(await tip("main")).toBe((await git.must(["rev-parse", "HEAD"], { cwd: main })).trim());
      });

      it("a force push to a protected branch is refused unless allow_force_push; then it goes", async () => {
        const dir = await workWithCommit("force", people.maintainer);
        await git.must(["commit", "-q", "--amend", "-m", "rewritten"], { cwd: dir });
        await git.must(["push", "-q", "origin", "main"], { cwd: dir });
        await git.must(["commit", "-q", "--amend", "-m", "rewritten again"], { cwd: dir });
        const before = await tip("main");
        const refused = await git.run(["push", "--force", "origin", "main"], { cwd: dir });
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain("GitLab: You are not allowed to force push code to a protected branch on this project.");
        expect(await tip("main")).toBe(before);
        expect((await h.request("PATCH", api("/protected_branches/main"), { ...as(t.tokens.alice), json: { allow_force_push: true } })).status).toBe(200);
        expect((await git.run(["push", "--force", "origin", "main"], { cwd: dir })).code).toBe(0);
        await h.request("PATCH", api("/protected_branches/main"), { ...as(t.tokens.alice), json: { allow_force_push: false } });
      });

      it("deleting a protected branch over git is refused, even for a Maintainer (the web interface only)", async () => {
        await must(t.fk.protectedRefs.protect({ projectId: project.id, kind: "branch", name: "stab*", accessLevels: [{ action: "push", accessLevel: 40 }, { action: "merge", accessLevel: 40 }] }));
        const dir = git.path("delete");
        await git.must(["clone", "-q", remote(people.maintainer), dir]);
        const refused = await git.run(["push", "origin", ":refs/heads/stable"], { cwd: dir });
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain("GitLab: You can only delete protected branches using the web interface.");
        expect((await h.request("GET", api("/repository/branches/stable"), as(t.tokens.alice))).status).toBe(200);
      });

      it("a protected tag: a Developer may not create it, a Maintainer may, nobody moves it", async () => {
        await must(t.fk.protectedRefs.protect({ projectId: project.id, kind: "tag", name: "v*", accessLevels: [{ action: "create", accessLevel: 40 }] }));
        const dir = git.path("tags");
        await git.must(["clone", "-q", remote(people.dev), dir]);
        await git.must(["tag", "v1"], { cwd: dir });
        const refused = await git.run(["push", "origin", "v1"], { cwd: dir });
        expect(refused.stderr).toContain("GitLab: You are not allowed to create this tag as it is protected.");
        expect((await h.request("GET", api("/repository/tags/v1"), as(t.tokens.alice))).status).toBe(404);
        expect((await git.run(["push", remote(people.maintainer), "v1"], { cwd: dir })).code).toBe(0);
        await git.must(["tag", "-f", "-a", "-m", "moved", "v1"], { cwd: dir });
        const moved = await git.run(["push", "--force", remote(people.maintainer), "v1"], { cwd: dir });
        expect(moved.stderr).toContain("GitLab: Protected tags cannot be updated.");
      });
    });

    describe("branch entity flags", () => {
      it("protected, developers_can_push, developers_can_merge and can_push follow the rules and the viewer", async () => {
        expect((await h.request("POST", api("/repository/branches"), { ...as(t.tokens.alice), json: { branch: "feature", ref: "main" } })).status).toBe(201);
        const main = await h.request("GET", api("/repository/branches/main"), as(people.dev.token));
        expect(main.json).toMatchObject({ name: "main", protected: true, developers_can_push: false, developers_can_merge: false, can_push: false, default: true });
        expect((await h.request("GET", api("/repository/branches/main"), as(people.maintainer.token))).json).toMatchObject({ protected: true, can_push: true });
        expect((await h.request("GET", api("/repository/branches/feature"), as(people.dev.token))).json).toMatchObject({ protected: false, can_push: true });
        await must(t.fk.protectedRefs.protect({ projectId: project.id, kind: "branch", name: "feat*", accessLevels: [{ action: "push", accessLevel: 30 }, { action: "merge", accessLevel: 30 }] }));
        expect((await h.request("GET", api("/repository/branches/feature"), as(people.dev.token))).json).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });
        await must(t.fk.protectedRefs.unprotect(project.id, "branch", "feat*"));
      });
    });

    describe("repository write API and merges", () => {
      it("POST /repository/commits and the files API on a protected branch → 403 for a Developer; an unprotected branch works", async () => {
        const commit = (branch: string) => ({ json: { branch, commit_message: "api", actions: [{ action: "create", file_path: `${branch}-api.txt`, content: "x" }] } });
        const refused = await h.request("POST", api("/repository/commits"), { ...as(people.dev.token), ...commit("main") });
        expect([refused.status, refused.json]).toEqual([403, { message: "403 Forbidden - You are not allowed to push into this branch" }]);
        const file = await h.request("POST", api("/repository/files/x.txt"), { ...as(people.dev.token), json: { branch: "main", content: "x", commit_message: "x" } });
        expect(file.status).toBe(403);
        expect((await h.request("POST", api("/repository/branches"), { ...as(t.tokens.alice), json: { branch: "api-feature", ref: "main" } })).status).toBe(201);
        expect((await h.request("POST", api("/repository/commits"), { ...as(people.dev.token), ...commit("api-feature") })).status).toBe(201);
        expect((await h.request("POST", api("/repository/commits"), { ...as(people.maintainer.token), ...commit("main") })).status).toBe(201);
      });

      it("DELETE /repository/branches/:name of a protected branch: a Developer → 405, a Maintainer deletes it", async () => {
        await must(t.fk.protectedRefs.protect({ projectId: project.id, kind: "branch", name: "keep-*", accessLevels: [{ action: "push", accessLevel: 40 }, { action: "merge", accessLevel: 40 }] }));
        expect((await h.request("POST", api("/repository/branches"), { ...as(t.tokens.alice), query: { branch: "keep-2", ref: "main" } })).status).toBe(201);
        const refused = await h.request("DELETE", api("/repository/branches/keep-2"), as(people.dev.token));
        expect(refused.status).toBe(405);
        expect((await h.request("DELETE", api("/repository/branches/keep-2"), as(people.maintainer.token))).status).toBe(204);
      });

      it("merging a merge request into a protected branch needs its merge access: a Developer → 401", async () => {
        // Its own source branch, so that the case runs alone (-t) as well as after the others.
        const pushed = await h.request("POST", api("/repository/commits"), { ...as(people.dev.token), json: { branch: "to-merge", start_branch: "main", commit_message: "to merge", actions: [{ action: "create", file_path: "to-merge.txt", content: "x" }] } });
        expect(pushed.status).toBe(201);
        const created = await h.request("POST", api("/merge_requests"), { ...as(people.dev.token), json: { source_branch: "to-merge", target_branch: "main", title: "Feature" } });
        expect(created.status).toBe(201);
        const iid = (created.json as { iid: number }).iid;
        const refused = await h.request("PUT", api(`/merge_requests/${iid}/merge`), as(people.dev.token));
        expect([refused.status, refused.json]).toEqual([401, { message: "401 Unauthorized" }]);
      });
    });
  });

  describe("the first push into an empty repository", () => {
    it("a Developer may not push the first branch while default branches are protected (2); at 4 they may", async () => {
      const t = await createTestForgekit();
      const base = await h.serve(t.fk);
      const git = createGitClient();
      const dev = await t.createUser({ username: "first-dev" });
      const token = (await t.createToken(dev.id)).plaintext;
      const work = git.path("first");
      await git.must(["init", "-q", "-b", "main", work]);
      writeFileSync(join(work, "a.txt"), "a\n");
      await git.must(["add", "."], { cwd: work });
      await git.must(["commit", "-q", "-m", "first"], { cwd: work });
      const fresh = async (path: string) => {
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path, name: path, visibility: "private", creatorId: t.users.alice.id });
        await t.addMember({ project }, dev, AccessLevel.Developer);
        return project;
      };
      const closed = await fresh("first-closed");
      const refused = await git.run(["push", gitUrl(base, `${closed.fullPath}.git`, { username: "first-dev", password: token }), "main"], { cwd: work });
      expect(refused.stderr).toContain("GitLab: You are not allowed to push code to protected branches on this project.");
      const api = await h.request("POST", `/api/v4/projects/${closed.id}/repository/commits`, { headers: { "private-token": token }, json: { branch: "main", commit_message: "x", actions: [{ action: "create", file_path: "x", content: "x" }] } });
      expect([api.status, api.json]).toEqual([403, { message: "403 Forbidden - You are not allowed to push into this branch" }]);
      await must(t.fk.protectedRefs.setDefaultBranchProtection(4));
      const open = await fresh("first-open");
      expect((await git.run(["push", gitUrl(base, `${open.fullPath}.git`, { username: "first-dev", password: token }), "main"], { cwd: work })).code).toBe(0);
      expect(((await h.request("GET", `/api/v4/projects/${open.id}/protected_branches`, { headers: { "private-token": t.tokens.alice } })).json as { name: string }[]).map((b) => b.name)).toEqual(["main"]);
    });
  });

  describe("default_branch_protection 0", () => {
    it("leaves the first branch unprotected (over the API too)", async () => {
      const t = await createTestForgekit({ defaultBranchProtection: 0 });
      await h.serve(t.fk);
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "open", name: "open", visibility: "private", creatorId: t.users.alice.id });
      const made = await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, { headers: { "private-token": t.tokens.alice }, json: { branch: "main", commit_message: "init", actions: [{ action: "create", file_path: "a", content: "a" }] } });
      expect(made.status).toBe(201);
      expect((await h.request("GET", `/api/v4/projects/${project.id}/protected_branches`, { headers: { "private-token": t.tokens.alice } })).json).toEqual([]);
    });

    it("the setting stored (2) protects the first branch made over the API", async () => {
      const t = await createTestForgekit({ defaultBranchProtection: 0 });
      await must(t.fk.protectedRefs.setDefaultBranchProtection(2));
      await h.serve(t.fk);
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "closed", name: "closed", visibility: "private", creatorId: t.users.alice.id });
      await h.request("POST", `/api/v4/projects/${project.id}/repository/commits`, { headers: { "private-token": t.tokens.alice }, json: { branch: "trunk", commit_message: "init", actions: [{ action: "create", file_path: "a", content: "a" }] } });
      const listed = await h.request("GET", `/api/v4/projects/${project.id}/protected_branches`, { headers: { "private-token": t.tokens.alice } });
      expect((listed.json as { name: string }[]).map((b) => b.name)).toEqual(["trunk"]);
    });
  });
};
