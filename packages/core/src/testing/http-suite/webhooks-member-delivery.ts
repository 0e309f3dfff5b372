/**
 * Member and system webhook events (issue 20; docs "Webhook events" → Group member events and
 * "System hooks"): group membership changes reach group hooks with `member_events` (the group's and
 * its ancestors') as `Member Hook` — `user_add_to_group`, `user_update_for_group`,
 * `user_remove_from_group` — and system hooks as `System Hook`, with project membership changes
 * (`user_add_to_team`, …), `project_create`, `project_destroy` and `user_create`, field by field as
 * the documented examples; `POST /hooks/:id` sends the reference's test sample.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Group, User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import { startHookReceiver, type HookReceiver, type ReceivedHook } from "../hook-receiver.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { until } from "../jobs-conformance/context.js";

/** Keys of the documented group member example (webhook events; system hooks' `user_add_to_group` has the same builder). */
const GROUP_MEMBER_KEYS = ["created_at", "updated_at", "group_name", "group_path", "group_id", "user_username", "user_name", "user_email", "user_id", "group_access", "group_plan", "expires_at", "event_name"];
/** Keys of the documented `user_add_to_team` example. */
const TEAM_KEYS = ["created_at", "updated_at", "event_name", "access_level", "project_id", "project_name", "project_path", "project_path_with_namespace", "user_email", "user_name", "user_username", "user_id", "project_visibility"];
/** Keys of the documented `project_create` / `project_destroy` examples (with `owners`, as `ProjectBuilder` adds). */
const PROJECT_KEYS = ["created_at", "updated_at", "event_name", "name", "owner_email", "owner_name", "owners", "path", "path_with_namespace", "project_id", "project_visibility"];
/** Keys of the documented `user_create` example. */
const USER_KEYS = ["created_at", "updated_at", "email", "event_name", "name", "username", "user_id"];
/** Ruby `Time#xmlschema`, as the examples show times. */
const XMLSCHEMA = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const keys = (value: unknown) => Object.keys(value as object).sort();
const sorted = (list: readonly string[]) => [...list].sort();
const body = (r: ReceivedHook | undefined) => (r?.body ?? {}) as Record<string, unknown>;

export const webHookMemberDeliverySuite: HttpSuite = (h: HttpHarness) => {
  describe("webhook deliveries: member and system events", () => {
    let t: TestForgekit;
    let receiver: HookReceiver;
    let members = 0;
    /**
     * A user of the test's own, who is a member of nothing yet: memberships another test leaves
     * (carol's of `grp`, say) never meet this test's changes. Made before the test's hooks, so its
     * `user_create` goes to none of them.
     */
    const member = async (): Promise<User> => {
      const username = `carol${++members}`;
      return t.createUser({ username, name: `Carol Member ${members}`, email: `${username}@example.com` });
    };
    const as = (token: string) => ({ headers: { "private-token": token } });
    const withToken = (token: string, from = 0) => receiver.received.slice(from).filter((r) => r.headers["x-gitlab-token"] === token);
    const named = (token: string, event: string, from = 0) => withToken(token, from).map(body).filter((b) => b["event_name"] === event);
    const addHook = async (path: string, token: string, json: Record<string, unknown>) => {
      const r = await h.request("POST", `/api/v4${path}`, { ...as(t.tokens.root), json: { url: receiver.url, token, ...json } });
      expect(r.status).toBe(201);
      return (r.json as { id: number }).id;
    };
    const groupMembers = (group: Group) => `/api/v4/groups/${group.id}/members`;

    beforeAll(async () => {
      t = await createTestForgekit({ tier: "premium", imports: { allowLocalNetwork: true } });
      await h.serve(t.fk);
      receiver = await startHookReceiver();
      const started = t.fk.workers.start({ pollIntervalMs: 20, recurring: false });
      if (started.isErr()) throw new Error(`workers did not start: ${started.error.code}`);
    });
    afterAll(async () => {
      await t.fk.workers.stop();
      await receiver.close();
    });

    it("a member added to, changed in and removed from a subgroup → Member Hook to the parent group's hook with member_events, in order, as the documented example", async () => {
      const carol = await member();
      await addHook(`/groups/${t.groups.grp.id}/hooks`, "members", { push_events: false, member_events: true });
      const sub = t.groups.sub;
      const added = await h.request("POST", groupMembers(sub), { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 10 } });
      expect(added.status).toBe(201);
      const changed = await h.request("PUT", `${groupMembers(sub)}/${carol.id}`, { ...as(t.tokens.root), json: { access_level: 30, expires_at: "2030-12-14" } });
      expect(changed.status).toBe(200);
      expect((await h.request("DELETE", `${groupMembers(sub)}/${carol.id}`, as(t.tokens.root))).status).toBe(204);
      await until(() => withToken("members").length >= 3, "three member deliveries");

      const received = withToken("members");
      expect(received.map((r) => r.headers["x-gitlab-event"])).toEqual(["Member Hook", "Member Hook", "Member Hook"]);
      const [onAdd, onUpdate, onRemove] = received.map(body);
      for (const payload of [onAdd, onUpdate, onRemove]) {
        expect(keys(payload)).toEqual(sorted(GROUP_MEMBER_KEYS));
        expect(payload?.["created_at"]).toMatch(XMLSCHEMA);
        expect(payload?.["updated_at"]).toMatch(XMLSCHEMA);
      }
      const who = { group_name: sub.name, group_path: sub.path, group_id: sub.id, user_username: carol.username, user_name: carol.name, user_id: carol.id, group_plan: null };
      // Group owners' hooks get no e-mail address (forgekit keeps no public e-mail; the reference shows `webhook_email`).
      expect(onAdd).toMatchObject({ ...who, event_name: "user_add_to_group", group_access: "Guest", expires_at: null, user_email: "[REDACTED]" });
      expect(onUpdate).toMatchObject({ ...who, event_name: "user_update_for_group", group_access: "Developer", expires_at: "2030-12-14T00:00:00Z" });
      expect(onRemove).toMatchObject({ ...who, event_name: "user_remove_from_group", group_access: "Developer" });
    });

    it("a group hook without member_events gets no Member Hook", async () => {
      const carol = await member();
      await addHook(`/groups/${t.groups.secret.id}/hooks`, "quiet", { push_events: true, member_events: false });
      await addHook(`/groups/${t.groups.secret.id}/hooks`, "loud", { push_events: false, member_events: true });
      expect((await h.request("POST", groupMembers(t.groups.secret), { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 20 } })).status).toBe(201);
      expect((await h.request("DELETE", `${groupMembers(t.groups.secret)}/${carol.id}`, as(t.tokens.root))).status).toBe(204);
      await until(() => withToken("loud").length >= 2, "the member deliveries of the hook that asked for them");
      expect(withToken("loud").map((r) => body(r)["event_name"])).toEqual(["user_add_to_group", "user_remove_from_group"]);
      expect(withToken("quiet")).toEqual([]);
    });

    it("system hooks get user_add_to_team / user_update_for_team / user_remove_from_team and the group events with the member's e-mail, whatever their switches", async () => {
      const carol = await member();
      await addHook("/hooks", "system", { push_events: false, repository_update_events: false });
      const from = receiver.received.length;
      const project = t.projects.internalProject;
      const members = `/api/v4/projects/${project.id}/members`;
      expect((await h.request("POST", members, { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 40 } })).status).toBe(201);
      expect((await h.request("PUT", `${members}/${carol.id}`, { ...as(t.tokens.root), json: { access_level: 20 } })).status).toBe(200);
      expect((await h.request("DELETE", `${members}/${carol.id}`, as(t.tokens.root))).status).toBe(204);
      expect((await h.request("POST", groupMembers(t.groups.grp), { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 30 } })).status).toBe(201);
      await until(() => withToken("system", from).length >= 4, "four system deliveries");

      const received = withToken("system", from);
      expect(received.every((r) => r.headers["x-gitlab-event"] === "System Hook")).toBe(true);
      const [add, update, remove, group] = received.map(body);
      const team = { project_id: project.id, project_name: project.name, project_path: project.path, project_path_with_namespace: project.fullPath, project_visibility: "internal", user_username: carol.username, user_name: carol.name, user_id: carol.id, user_email: "[REDACTED]" };
      for (const payload of [add, update, remove]) expect(keys(payload)).toEqual(sorted(TEAM_KEYS));
      expect(add).toMatchObject({ ...team, event_name: "user_add_to_team", access_level: "Maintainer" });
      expect(update).toMatchObject({ ...team, event_name: "user_update_for_team", access_level: "Reporter" });
      expect(remove).toMatchObject({ ...team, event_name: "user_remove_from_team", access_level: "Reporter" });
      expect(keys(group)).toEqual(sorted(GROUP_MEMBER_KEYS));
      // Administrators' system hooks see the address (reference `GroupMemberBuilder`: `user.email`).
      expect(group).toMatchObject({ event_name: "user_add_to_group", group_id: t.groups.grp.id, group_access: "Developer", user_email: `${carol.username}@example.com` });
    });

    it("a user created, a project created and deleted → user_create, project_create and project_destroy to system hooks, as the documented examples", async () => {
      await addHook("/hooks", "lifecycle", {});
      const from = receiver.received.length;
      const user = await h.request("POST", "/api/v4/users", { ...as(t.tokens.root), json: { username: "dora", name: "Dora Explorer", email: "dora@example.com", password: "dora-password-123" } });
      expect(user.status).toBe(201);
      const dora = (user.json as { id: number }).id;
      const created = await h.request("POST", "/api/v4/projects", { ...as(t.tokens.alice), json: { name: "Hooked", path: "hooked", namespace_id: t.groups.grp.id, visibility: "private" } });
      expect(created.status).toBe(201);
      const project = created.json as { id: number; path_with_namespace: string };
      expect((await h.request("DELETE", `/api/v4/projects/${project.id}`, as(t.tokens.alice))).status).toBeLessThan(300);
      await until(() => named("lifecycle", "project_destroy", from).length >= 1, "the project_destroy delivery");

      const [userCreate] = named("lifecycle", "user_create", from);
      expect(keys(userCreate)).toEqual(sorted(USER_KEYS));
      expect(userCreate).toMatchObject({ event_name: "user_create", name: "Dora Explorer", username: "dora", user_id: dora, email: "dora@example.com" });
      expect(userCreate?.["created_at"]).toMatch(XMLSCHEMA);
      const [projectCreate] = named("lifecycle", "project_create", from);
      const [projectDestroy] = named("lifecycle", "project_destroy", from);
      const expected = { name: "Hooked", path: "hooked", path_with_namespace: project.path_with_namespace, project_id: project.id, project_visibility: "private", owner_name: t.groups.grp.name, owner_email: "", owners: [{ name: t.users.alice.name, email: "[REDACTED]" }] };
      expect(keys(projectCreate)).toEqual(sorted(PROJECT_KEYS));
      expect(projectCreate).toMatchObject({ ...expected, event_name: "project_create" });
      expect(keys(projectDestroy)).toEqual(sorted(PROJECT_KEYS));
      expect(projectDestroy).toMatchObject({ ...expected, event_name: "project_destroy" });
      // Creating the group project also made no team event (only personal projects add their owner as a member).
      expect(named("lifecycle", "user_add_to_team", from)).toEqual([]);
    });

    it("a membership change that is refused (409 Member already exists) sends nothing; the next change is the next delivery", async () => {
      const carol = await member();
      await addHook("/hooks", "refused", {});
      const project = t.projects.publicProject;
      const members = `/api/v4/projects/${project.id}/members`;
      expect((await h.request("POST", members, { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 30 } })).status).toBe(201);
      expect((await h.request("POST", members, { ...as(t.tokens.root), json: { user_id: carol.id, access_level: 30 } })).status).toBe(409);
      expect((await h.request("DELETE", `${members}/${carol.id}`, as(t.tokens.root))).status).toBe(204);
      await until(() => withToken("refused").length >= 2, "the two deliveries");
      expect(withToken("refused").map((r) => body(r)["event_name"])).toEqual(["user_add_to_team", "user_remove_from_team"]);
    });
  });

  describe("POST /hooks/:id", () => {
    let t: TestForgekit;
    let receiver: HookReceiver;
    beforeAll(async () => {
      t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
      await h.serve(t.fk);
      receiver = await startHookReceiver();
    });
    afterAll(async () => {
      await receiver.close();
    });
    /** A system hook with a token of the test's own, to tell its deliveries from other tests'. */
    const add = async (token: string) => {
      const r = await h.request("POST", "/api/v4/hooks", { headers: { "private-token": t.tokens.root }, json: { url: receiver.url, token } });
      expect(r.status).toBe(201);
      return (r.json as { id: number }).id;
    };

    it("sends the reference's sample project_create as System Hook and answers it with 201", async () => {
      const id = await add("tested-sample");
      const r = await h.request("POST", `/api/v4/hooks/${id}`, { headers: { "private-token": t.tokens.root } });
      expect(r.status).toBe(201);
      const sample = { event_name: "project_create", name: "Ruby", path: "ruby", project_id: 1, owner_name: "Someone", owner_email: "example@gitlabhq.com" };
      expect(r.json).toEqual(sample);
      const got = receiver.received.filter((x) => x.headers["x-gitlab-token"] === "tested-sample");
      expect(got.map((x) => [x.headers["x-gitlab-event"], x.body])).toEqual([["System Hook", sample]]);
      const log = await h.request("GET", `/api/v4/hooks/${id}/events`, { headers: { "private-token": t.tokens.root } });
      expect((log.json as { trigger: string; response_status: string }[]).map((e) => [e.trigger, e.response_status])).toEqual([["system_hooks", "200"]]);
    });

    it("answers 201 with the sample when the receiver fails (the failure is in the hook's log)", async () => {
      const id = await add("tested-failing");
      receiver.status = 500;
      try {
        const r = await h.request("POST", `/api/v4/hooks/${id}`, { headers: { "private-token": t.tokens.root } });
        expect(r.status).toBe(201);
      } finally {
        receiver.status = 200;
      }
      const log = await h.request("GET", `/api/v4/hooks/${id}/events`, { headers: { "private-token": t.tokens.root } });
      expect((log.json as { response_status: string }[]).map((e) => e.response_status)).toEqual(["500"]);
    });

    it("non-administrators → 403; an unknown hook → 404 Hook Not Found", async () => {
      const id = await add("tested-refused");
      expect((await h.request("POST", `/api/v4/hooks/${id}`, { headers: { "private-token": t.tokens.alice } })).status).toBe(403);
      const missing = await h.request("POST", "/api/v4/hooks/999999", { headers: { "private-token": t.tokens.root } });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ message: "404 Hook Not Found" });
    });
  });
};
