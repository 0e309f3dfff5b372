/**
 * Project features are enforced beyond the feature's own routes (issue 19 §1; reference
 * `ProjectFeature#feature_available?`): project snippet routes (snippets), issue and merge request
 * notes (404 as the reference's `find_noteable`), the instance- and group-wide merge request
 * lists, the event feeds, and a `private` feature's minimum level (Reporter for merge requests,
 * Guest otherwise).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const projectFeaturesEnforcedSuite: HttpSuite = (h) => {
  describe("project features enforced", () => {
    let t: TestForgekit;
    let project: Project;
    const tokens = { guest: "", reporter: "" };
    const as = (token: string) => ({ headers: { "private-token": token } });
    const status = async (method: "GET" | "POST", path: string, token: string, json?: Json) => (await h.request(method, `/api/v4${path}`, { ...as(token), ...(json === undefined ? {} : { json }) })).status;
    const set = async (json: Json) => expect((await h.request("PUT", `/api/v4/projects/${project.id}`, { ...as(t.tokens.alice), json })).status).toBe(200);
    const listed = async (path: string, token: string) => ((await h.request("GET", `/api/v4${path}`, as(token))).json as Json[]).filter((row) => row["project_id"] === project.id).length;

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: "features", name: "features", visibility: "public", creatorId: t.users.alice.id });
      for (const [name, level] of [["guest", AccessLevel.Guest], ["reporter", AccessLevel.Reporter]] as const) {
        const user = await t.createUser({ username: `features-${name}` });
        await t.addMember({ project }, user, level);
        tokens[name] = (await t.createToken(user.id)).plaintext;
      }
      const id = project.id;
      expect(await status("POST", `/projects/${id}/repository/commits`, t.tokens.alice, { branch: "main", commit_message: "one", actions: [{ action: "create", file_path: "a.txt", content: "a\n" }] })).toBe(201);
      expect(await status("POST", `/projects/${id}/repository/commits`, t.tokens.alice, { branch: "topic", start_branch: "main", commit_message: "two", actions: [{ action: "create", file_path: "b.txt", content: "b\n" }] })).toBe(201);
      expect(await status("POST", `/projects/${id}/merge_requests`, t.tokens.alice, { source_branch: "topic", target_branch: "main", title: "Topic" })).toBe(201);
      expect(await status("POST", `/projects/${id}/issues`, t.tokens.alice, { title: "An issue" })).toBe(201);
      expect(await status("POST", `/projects/${id}/issues/1/notes`, t.tokens.alice, { body: "on the issue" })).toBe(201);
      expect(await status("POST", `/projects/${id}/merge_requests/1/notes`, t.tokens.alice, { body: "on the MR" })).toBe(201);
      expect(await status("POST", `/projects/${id}/snippets`, t.tokens.alice, { title: "S", file_name: "s.txt", content: "s\n", visibility: "public" })).toBe(201);
    });

    describe("/projects/:id/snippets follows the snippets feature", () => {
      it("disabled → 403 for everyone, the owner included; enabled → 200", async () => {
        await set({ snippets_access_level: "disabled" });
        expect(await status("GET", `/projects/${project.id}/snippets`, t.tokens.alice)).toBe(403);
        expect(await status("POST", `/projects/${project.id}/snippets`, t.tokens.alice, { title: "no", file_name: "n.txt", content: "n", visibility: "public" })).toBe(403);
        await set({ snippets_access_level: "enabled" });
        expect(await status("GET", `/projects/${project.id}/snippets`, t.tokens.bob)).toBe(200);
      });
      it("private → members (Guest+) 200, other users 403", async () => {
        await set({ snippets_access_level: "private" });
        expect(await status("GET", `/projects/${project.id}/snippets`, tokens.guest)).toBe(200);
        expect(await status("GET", `/projects/${project.id}/snippets`, t.tokens.bob)).toBe(403);
        await set({ snippets_access_level: "enabled" });
      });
    });

    describe("notes follow their noteable's feature (reference find_noteable: 404)", () => {
      it("issues disabled → the issue's notes 404 Issue Not Found; enabled → 200", async () => {
        await set({ issues_access_level: "disabled" });
        const r = await h.request("GET", `/api/v4/projects/${project.id}/issues/1/notes`, as(t.tokens.alice));
        expect([r.status, r.json]).toEqual([404, { message: "404 Issue Not Found" }]);
        expect(await status("POST", `/projects/${project.id}/issues/1/notes`, t.tokens.alice, { body: "no" })).toBe(404);
        await set({ issues_access_level: "enabled" });
        expect(await status("GET", `/projects/${project.id}/issues/1/notes`, t.tokens.bob)).toBe(200);
      });
      it("merge requests private → their notes 404 for non-members and Guests, 200 for Reporters", async () => {
        await set({ merge_requests_access_level: "private" });
        expect(await status("GET", `/projects/${project.id}/merge_requests/1/notes`, t.tokens.bob)).toBe(404);
        expect(await status("GET", `/projects/${project.id}/merge_requests/1/notes`, tokens.guest)).toBe(404);
        expect(await status("GET", `/projects/${project.id}/merge_requests/1/notes`, tokens.reporter)).toBe(200);
        await set({ merge_requests_access_level: "enabled" });
      });
    });

    describe("a private feature's minimum level (reference required_minimum_access_level)", () => {
      it("merge requests private: Reporter+ (a Guest gets 403); issues private: Guest+", async () => {
        await set({ merge_requests_access_level: "private", issues_access_level: "private" });
        expect(await status("GET", `/projects/${project.id}/merge_requests`, tokens.guest)).toBe(403);
        expect(await status("GET", `/projects/${project.id}/merge_requests`, tokens.reporter)).toBe(200);
        expect(await status("GET", `/projects/${project.id}/issues`, tokens.guest)).toBe(200);
        await set({ merge_requests_access_level: "enabled", issues_access_level: "enabled" });
      });
    });

    describe("event feeds leave out the events of features the viewer may not use", () => {
      const targets = async (path: string, token: string) =>
        ((await h.request("GET", `/api/v4${path}`, as(token))).json as Json[]).filter((e) => e["project_id"] === project.id).map((e) => String(e["target_type"] ?? e["action_name"]));
      it("GET /projects/:id/events and GET /users/:id/events: issues private → a non-member sees no issue events or issue notes; a Guest does", async () => {
        const paths = [`/projects/${project.id}/events?per_page=100`, `/users/${t.users.alice.id}/events?per_page=100`];
        for (const path of paths) expect(await targets(path, t.tokens.bob)).toContain("Issue");
        await set({ issues_access_level: "private" });
        for (const path of paths) {
          const seen = await targets(path, t.tokens.bob);
          expect([path, seen.includes("Issue"), seen.includes("MergeRequest")]).toEqual([path, false, true]);
          expect([path, (await targets(path, tokens.guest)).includes("Issue")]).toEqual([path, true]);
        }
        const notes = ((await h.request("GET", `/api/v4/projects/${project.id}/events?target_type=note`, as(t.tokens.bob))).json as Json[]).map((e) => (e["note"] as Json)["noteable_type"]);
        expect(notes).toEqual(["MergeRequest"]);
        await set({ issues_access_level: "enabled" });
      });
      it("repository disabled → no push events, even for the owner", async () => {
        expect(await targets(`/projects/${project.id}/events?action=pushed`, t.tokens.alice)).not.toEqual([]);
        await set({ repository_access_level: "disabled", merge_requests_access_level: "disabled" });
        expect(await targets(`/projects/${project.id}/events?action=pushed`, t.tokens.alice)).toEqual([]);
        await set({ repository_access_level: "enabled", merge_requests_access_level: "enabled" });
      });
    });

    describe("GET /merge_requests and GET /groups/:id/merge_requests leave out merge requests the viewer may not read", () => {
      const lists = (token: string) => Promise.all([listed("/merge_requests?scope=all", token), listed(`/groups/${t.groups.grp.id}/merge_requests`, token)]);
      it("enabled: listed to any user; private: only to Reporter+ members; disabled: to no one", async () => {
        expect(await lists(t.tokens.bob)).toEqual([1, 1]);
        await set({ merge_requests_access_level: "private" });
        expect(await lists(t.tokens.bob)).toEqual([0, 0]);
        expect(await lists(tokens.guest)).toEqual([0, 0]);
        expect(await lists(tokens.reporter)).toEqual([1, 1]);
        await set({ merge_requests_access_level: "disabled" });
        expect(await lists(t.tokens.alice)).toEqual([0, 0]);
        await set({ merge_requests_access_level: "enabled" });
      });
    });
  });
};
