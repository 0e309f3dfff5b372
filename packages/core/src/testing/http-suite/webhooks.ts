/**
 * Webhooks API (issue 20; reference `doc/api/project_webhooks.md`, `group_webhooks.md`,
 * `system_hooks.md`): the routes, their permissions and errors, the hook entity (token never
 * returned), the test call against a real receiver on 127.0.0.1 and the delivery log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import { startHookReceiver, type HookReceiver } from "../hook-receiver.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);

export const webHooksSuite: HttpSuite = (h: HttpHarness) => {
  describe("webhooks API", () => {
    let t: TestForgekit;
    let project: Project;
    let receiver: HookReceiver;
    let devToken: string;
    let maintainerToken: string;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;

    beforeAll(async () => {
      t = await createTestForgekit({ tier: "premium", imports: { allowLocalNetwork: true } });
      await h.serve(t.fk);
      receiver = await startHookReceiver();
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: "hooked", name: "Hooked", visibility: "private", creatorId: t.users.alice.id });
      const dev = await t.createUser({ username: "wh-dev" });
      await t.addMember({ project }, dev, AccessLevel.Developer);
      devToken = (await t.createToken(dev.id)).plaintext;
      const maintainer = await t.createUser({ username: "wh-maintainer", name: "Mae Tainer" });
      await t.addMember({ project }, maintainer, AccessLevel.Maintainer);
      maintainerToken = (await t.createToken(maintainer.id)).plaintext;
    });
    afterAll(async () => {
      await receiver.close();
    });

    describe("POST /projects/:id/hooks", () => {
      it("adds a hook with the reference's defaults (push events on, the rest off); the token is never returned → 201", async () => {
        const r = await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "https://hooks.example.com/in", token: "s3cret" } });
        expect(r.status).toBe(201);
        expect(r.json).toEqual({
          id: expect.any(Number),
          url: "https://hooks.example.com/in",
          name: "",
          description: "",
          project_id: project.id,
          created_at: t.clock.now().toISOString(),
          push_events: true,
          push_events_branch_filter: null,
          branch_filter_strategy: "wildcard",
          issues_events: false,
          confidential_issues_events: false,
          merge_requests_events: false,
          tag_push_events: false,
          note_events: false,
          confidential_note_events: false,
          job_events: false,
          pipeline_events: false,
          wiki_page_events: false,
          deployment_events: false,
          releases_events: false,
          feature_flag_events: false,
          repository_update_events: false,
          resource_access_token_events: false,
          emoji_events: false,
          enable_ssl_verification: true,
          alert_status: "executable",
          disabled_until: null,
          url_variables: [],
        });
        expect(JSON.stringify(r.json)).not.toContain("s3cret");
      });

      it("switches, name, description and a regex branch filter as sent", async () => {
        const r = await h.request("POST", api("/hooks"), {
          ...as(maintainerToken),
          json: { url: "https://hooks.example.com/ci", name: "CI", description: "builds", push_events: false, note_events: true, merge_requests_events: true, push_events_branch_filter: "release/.*", branch_filter_strategy: "regex", enable_ssl_verification: false },
        });
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ name: "CI", description: "builds", push_events: false, note_events: true, merge_requests_events: true, push_events_branch_filter: "release/.*", branch_filter_strategy: "regex", enable_ssl_verification: false });
      });

      it("no url → 400 \"url\" not given; a metadata address → 400 url is blocked; a bad regex filter → 400", async () => {
        const missing = await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: {} });
        expect([missing.status, missing.json]).toEqual([400, { message: '400 (Bad request) "url" not given' }]);
        const blocked = await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "http://169.254.169.254/latest" } });
        expect([blocked.status, blocked.json]).toEqual([400, { message: { url: ["is blocked: Requests to the cloud metadata address are not allowed"] } }]);
        const scheme = await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "ftp://hooks.example.com/" } });
        expect([scheme.status, scheme.json]).toEqual([400, { message: { url: ["is blocked: Only allowed schemes are http, https"] } }]);
        const regex = await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "https://hooks.example.com/", push_events_branch_filter: "(", branch_filter_strategy: "regex" } });
        expect([regex.status, regex.json]).toEqual([400, { message: { push_events_branch_filter: ["is invalid"] } }]);
      });

      it("a Developer → 403; a non-member of the private project → 404; anonymous → 401", async () => {
        expect((await h.request("POST", api("/hooks"), { ...as(devToken), json: { url: "https://x.example.com/" } })).status).toBe(403);
        expect((await h.request("POST", api("/hooks"), { ...as(t.tokens.bob), json: { url: "https://x.example.com/" } })).status).toBe(404);
        expect((await h.request("POST", api("/hooks"), { json: { url: "https://x.example.com/" } })).status).toBe(401);
      });
    });

    describe("GET /projects/:id/hooks and /projects/:id/hooks/:hook_id", () => {
      it("lists the project's hooks by id and shows one; another project's hook id → 404 Hook Not Found", async () => {
        const created = (await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "https://list.example.com/" } })).json as { id: number };
        const list = await h.request("GET", api("/hooks"), as(maintainerToken));
        expect(list.status).toBe(200);
        const ids = (list.json as { id: number }[]).map((hook) => hook.id);
        expect(ids).toContain(created.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        const one = await h.request("GET", api(`/hooks/${created.id}`), as(maintainerToken));
        expect([one.status, (one.json as { url: string }).url]).toEqual([200, "https://list.example.com/"]);
        const other = await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/hooks/${created.id}`, as(t.tokens.root));
        expect([other.status, other.json]).toEqual([404, { message: "404 Hook Not Found" }]);
      });
    });

    describe("PUT /projects/:id/hooks/:hook_id", () => {
      it("changes what is sent and keeps the rest", async () => {
        const created = (await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "https://edit.example.com/", issues_events: true } })).json as { id: number };
        const r = await h.request("PUT", api(`/hooks/${created.id}`), { ...as(maintainerToken), json: { url: "https://edited.example.com/", push_events: false } });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ id: created.id, url: "https://edited.example.com/", push_events: false, issues_events: true });
      });
    });

    describe("DELETE /projects/:id/hooks/:hook_id", () => {
      it("removes the hook → 204, then 404", async () => {
        const created = (await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: "https://gone.example.com/" } })).json as { id: number };
        expect((await h.request("DELETE", api(`/hooks/${created.id}`), as(maintainerToken))).status).toBe(204);
        expect((await h.request("GET", api(`/hooks/${created.id}`), as(maintainerToken))).status).toBe(404);
      });
    });

    describe("POST /projects/:id/hooks/:hook_id/test/:trigger and GET …/events", () => {
      it("without a push yet → 422 \"Ensure the project has at least 1 commit.\"; an unknown trigger → 400", async () => {
        const empty = await t.createProject({ namespaceId: t.groups.grp.id, path: "hooked-empty", name: "Empty", visibility: "private", creatorId: t.users.alice.id });
        const created = (await h.request("POST", `/api/v4/projects/${empty.id}/hooks`, { ...as(t.tokens.root), json: { url: receiver.url } })).json as { id: number };
        const r = await h.request("POST", `/api/v4/projects/${empty.id}/hooks/${created.id}/test/push_events`, as(t.tokens.root));
        expect([r.status, r.json]).toEqual([422, { message: "Ensure the project has at least 1 commit." }]);
        const bad = await h.request("POST", `/api/v4/projects/${empty.id}/hooks/${created.id}/test/bogus_events`, as(t.tokens.root));
        expect(bad.status).toBe(400);
      });

      it("sends the latest push to the receiver with the reference's headers → 201; the delivery is listed with the token redacted", async () => {
        await must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: "main", commitFrom: SHA_A, commitTo: SHA_B, commitCount: 1, commitTitle: "Fix" }));
        const created = (await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: receiver.url, token: "tok-123" } })).json as { id: number };
        const before = receiver.received.length;
        const r = await h.request("POST", api(`/hooks/${created.id}/test/push_events`), as(maintainerToken));
        expect([r.status, r.json]).toEqual([201, { message: "201 Created" }]);
        const got = receiver.received.slice(before);
        expect(got).toHaveLength(1);
        const request = got[0];
        expect(request?.method).toBe("POST");
        expect(request?.headers).toMatchObject({
          "content-type": "application/json",
          "user-agent": expect.stringMatching(/^GitLab\//),
          "x-gitlab-event": "Push Hook",
          "x-gitlab-token": "tok-123",
          "x-gitlab-instance": t.baseUrl,
          "x-gitlab-event-uuid": expect.stringMatching(/^[0-9a-f-]{36}$/),
          "x-gitlab-webhook-uuid": expect.stringMatching(/^[0-9a-f-]{36}$/),
          "idempotency-key": expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
        expect(request?.body).toMatchObject({ object_kind: "push", event_name: "push", before: SHA_A, after: SHA_B, ref: "refs/heads/main", checkout_sha: SHA_B, user_id: t.users.alice.id, project_id: project.id, total_commits_count: 1 });
        const events = await h.request("GET", api(`/hooks/${created.id}/events`), as(maintainerToken));
        expect(events.status).toBe(200);
        const [log] = events.json as Record<string, unknown>[];
        expect(log).toMatchObject({ url: receiver.url, trigger: "push_hooks", response_status: "200", request_data: request?.body });
        expect((log?.["request_headers"] as Record<string, string>)["X-Gitlab-Token"]).toBe("[REDACTED]");
        expect(JSON.stringify(events.json)).not.toContain("tok-123");
        const failures = await h.request("GET", api(`/hooks/${created.id}/events`), { ...as(maintainerToken), query: { status: "server_failure" } });
        expect(failures.json).toEqual([]);
      });

      it("a receiver answering 500 → 422 with the status, and the failure counts", async () => {
        const created = (await h.request("POST", api("/hooks"), { ...as(maintainerToken), json: { url: receiver.url } })).json as { id: number };
        receiver.status = 500;
        try {
          const r = await h.request("POST", api(`/hooks/${created.id}/test/push_events`), as(maintainerToken));
          expect([r.status, r.json]).toEqual([422, { message: "Hook execution failed: 500" }]);
        } finally {
          receiver.status = 200;
        }
        const events = await h.request("GET", api(`/hooks/${created.id}/events`), { ...as(maintainerToken), query: { status: "500" } });
        expect((events.json as unknown[]).length).toBe(1);
      });
    });

    describe("/groups/:id/hooks (premium)", () => {
      it("a group Owner adds and lists group hooks with group_id and member events; a non-owner → 403", async () => {
        const r = await h.request("POST", `/api/v4/groups/${t.groups.grp.id}/hooks`, { ...as(t.tokens.root), json: { url: "https://group.example.com/", member_events: true } });
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ group_id: t.groups.grp.id, member_events: true, subgroup_events: false, push_events: true });
        const listed = await h.request("GET", `/api/v4/groups/${t.groups.grp.id}/hooks`, as(t.tokens.root));
        expect((listed.json as { id: number }[]).map((hook) => hook.id)).toContain((r.json as { id: number }).id);
        expect((await h.request("GET", `/api/v4/groups/${t.groups.grp.id}/hooks`, as(maintainerToken))).status).toBe(403);
      });
    });

    describe("/hooks (system hooks)", () => {
      it("administrators add, show, edit, list and delete; the entity has only the system switches", async () => {
        const r = await h.request("POST", "/api/v4/hooks", { ...as(t.tokens.root), json: { url: "https://system.example.com/", tag_push_events: true } });
        expect(r.status).toBe(201);
        const id = (r.json as { id: number }).id;
        expect(r.json).toEqual({
          id,
          url: "https://system.example.com/",
          name: "",
          description: "",
          created_at: t.clock.now().toISOString(),
          push_events: true,
          tag_push_events: true,
          merge_requests_events: false,
          repository_update_events: true,
          enable_ssl_verification: true,
          alert_status: "executable",
          disabled_until: null,
          url_variables: [],
        });
        expect((await h.request("PUT", `/api/v4/hooks/${id}`, { ...as(t.tokens.root), json: { merge_requests_events: true } })).json).toMatchObject({ merge_requests_events: true });
        expect((await h.request("GET", "/api/v4/hooks", as(t.tokens.root))).json).toEqual(expect.arrayContaining([expect.objectContaining({ id })]));
        expect((await h.request("DELETE", `/api/v4/hooks/${id}`, as(t.tokens.root))).status).toBe(204);
        expect((await h.request("GET", `/api/v4/hooks/${id}`, as(t.tokens.root))).status).toBe(404);
      });

      it("a non-administrator → 403; anonymous → 401", async () => {
        expect((await h.request("GET", "/api/v4/hooks", as(t.tokens.alice))).status).toBe(403);
        expect((await h.request("GET", "/api/v4/hooks")).status).toBe(401);
      });
    });
  });

  describe("webhooks API on the free tier", () => {
    it("/groups/:id/hooks → 403 Group webhooks require the premium tier", async () => {
      const t = await createTestForgekit();
      await h.serve(t.fk);
      const r = await h.request("GET", `/api/v4/groups/${t.groups.grp.id}/hooks`, { headers: { "private-token": t.tokens.root } });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - Group webhooks require the premium tier" });
    });
  });
};
