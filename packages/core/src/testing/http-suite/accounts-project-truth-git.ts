/**
 * The project entity and the repository feature over real git (issue 19 §1), with the git CLI
 * against the server: a push into an empty project makes `empty_repo` false and the pushed branch
 * `default_branch`, and a pushed root README gives `readme_url`; a disabled repository refuses clones and pushes as the reference does
 * (`repository_disabled` prevents `download_code` / `push_code`: 401 for anonymous callers, 403
 * "You are not allowed to download code from this project." / "… push code …" otherwise); a
 * private one admits members only.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const projectTruthGitSuite: HttpSuite = (h) => {
  describe("project truth over git HTTP", () => {
    let t: TestForgekit;
    let git: GitClient;
    let base: string;
    let guestToken: string;
    const alice = () => ({ username: "alice", password: t.tokens.alice });
    const url = (project: Project, credentials?: { username: string; password: string }) => gitUrl(base, `${project.fullPath}.git`, credentials);
    const show = async (project: Project) => (await h.request("GET", `/api/v4/projects/${project.id}`, { headers: { "private-token": t.tokens.alice } })).json as Json;
    const setFeatures = async (project: Project, json: Json) => expect((await h.request("PUT", `/api/v4/projects/${project.id}`, { headers: { "private-token": t.tokens.alice }, json })).status).toBe(200);
    /** A working copy on `branch` with one commit, ready to push. */
    async function workCopy(name: string, branch: string) {
      const dir = git.path(name);
      await git.must(["init", "-q", "-b", branch, dir]);
      writeFileSync(join(dir, `${name}.txt`), `${name}\n`);
      await git.must(["add", "."], { cwd: dir });
      await git.must(["commit", "-q", "-m", name], { cwd: dir });
      return dir;
    }
    const newProject = (path: string) => t.createProject({ namespaceId: t.groups.grp.id, path, name: path, visibility: "public", creatorId: t.users.alice.id });

    beforeAll(async () => {
      t = await createTestForgekit();
      base = await h.serve(t.fk);
      git = createGitClient();
      const guest = await t.createUser({ username: "git-truth-guest" });
      guestToken = (await t.createToken(guest.id)).plaintext;
    });
    afterAll(() => git.cleanup());

    describe("git push into an empty project", () => {
      it("empty_repo turns false and the pushed branch becomes default_branch", async () => {
        const project = await newProject("pushed-into");
        expect(await show(project)).toMatchObject({ empty_repo: true, default_branch: "main" });
        const work = await workCopy("pushed", "develop");
        await git.must(["push", "-q", url(project, alice()), "develop"], { cwd: work });
        expect(await show(project)).toMatchObject({ empty_repo: false, default_branch: "develop", readme_url: null });
      });
      it("a pushed README at the default branch's root gives readme_url", async () => {
        const project = await newProject("readme-pushed");
        const work = await workCopy("no-readme-yet", "main");
        await git.must(["push", "-q", url(project, alice()), "main"], { cwd: work });
        expect((await show(project))["readme_url"]).toBeNull();
        writeFileSync(join(work, "README.md"), "# Hello\n");
        await git.must(["add", "README.md"], { cwd: work });
        await git.must(["commit", "-q", "-m", "readme"], { cwd: work });
        await git.must(["push", "-q", url(project, alice()), "main"], { cwd: work });
        expect((await show(project))["readme_url"]).toBe(`${t.baseUrl}/${project.fullPath}/-/blob/main/README.md`);
      });
    });

    describe("repository_access_level over git HTTP", () => {
      let project: Project;
      beforeAll(async () => {
        project = await newProject("repo-feature");
        await git.must(["push", "-q", url(project, alice()), "main"], { cwd: await workCopy("seeded", "main") });
        const guest = await t.store.users.findByUsername("git-truth-guest");
        if (guest === null) throw new Error("guest missing");
        await t.addMember({ project }, guest, AccessLevel.Guest);
      });
      const clone = (name: string, credentials?: { username: string; password: string }) => git.run(["clone", "-q", url(project, credentials), git.path(name)]);

      it("disabled: the owner's clone and push → 403 with the reference's texts; an anonymous clone → 401", async () => {
        await setFeatures(project, { repository_access_level: "disabled", merge_requests_access_level: "disabled" });
        const cloned = await clone("disabled-owner", alice());
        expect(cloned.code).not.toBe(0);
        expect(cloned.stderr).toContain("You are not allowed to download code from this project.");
        const pushed = await git.run(["push", "-q", url(project, alice()), "HEAD:refs/heads/other"], { cwd: await workCopy("disabled-push", "main") });
        expect(pushed.code).not.toBe(0);
        expect(pushed.stderr).toContain("You are not allowed to push code to this project.");
        const r = await h.request("GET", `/${project.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" } });
        expect(r.status).toBe(401);
        await setFeatures(project, { repository_access_level: "enabled", merge_requests_access_level: "enabled" });
        expect((await clone("enabled-anonymous")).code).toBe(0);
      });

      it("private: members (a Guest of a public project) clone; other users get 403 and anonymous callers 401", async () => {
        await setFeatures(project, { repository_access_level: "private", merge_requests_access_level: "private" });
        expect((await clone("private-guest", { username: "git-truth-guest", password: guestToken })).code).toBe(0);
        const other = await clone("private-bob", { username: "bob", password: t.tokens.bob });
        expect(other.code).not.toBe(0);
        expect(other.stderr).toContain("You are not allowed to download code from this project.");
        expect((await h.request("GET", `/${project.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" } })).status).toBe(401);
        await setFeatures(project, { repository_access_level: "enabled", merge_requests_access_level: "enabled" });
      });
    });
  });
};
