/**
 * Release webhook events (issue 20; doc "Webhook events" → Release events): a release created,
 * changed and deleted reaches a real receiver on 127.0.0.1 as `Release Hook` with action create,
 * update and delete, field by field as the documented example payload, only for hooks with
 * `releases_events` on; the delete reports the release as it was before it went.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import { startHookReceiver, type HookReceiver, type ReceivedHook } from "../hook-receiver.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { until } from "../jobs-conformance/context.js";

/** The keys of the documented example payload, level by level. */
const RELEASE_KEYS = ["id", "created_at", "description", "name", "released_at", "tag", "object_kind", "project", "url", "action", "assets", "commit"];
const PROJECT_KEYS = ["id", "name", "description", "web_url", "avatar_url", "git_ssh_url", "git_http_url", "namespace", "visibility_level", "path_with_namespace", "default_branch", "ci_config_path", "homepage", "url", "ssh_url", "http_url"];
const ASSETS_KEYS = ["count", "links", "sources"];
const LINK_KEYS = ["id", "external", "link_type", "name", "url"];
const SOURCE_KEYS = ["format", "url"];
const COMMIT_KEYS = ["id", "message", "title", "timestamp", "url", "author"];
const AUTHOR_KEYS = ["name", "email"];
/** `2020-11-02 12:55:12 UTC`, as the example shows release times. */
const RUBY_UTC = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/;

const keys = (value: unknown) => Object.keys(value as object).sort();
const sorted = (list: readonly string[]) => [...list].sort();

export const webHookReleaseDeliverySuite: HttpSuite = (h: HttpHarness) => {
  describe("webhook deliveries: Release Hook", () => {
    let t: TestForgekit;
    let project: Project;
    let receiver: HookReceiver;
    let head: string;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
    const addHook = async (json: Record<string, unknown>) => {
      const r = await h.request("POST", api("/hooks"), { ...as(t.tokens.alice), json: { url: receiver.url, ...json } });
      expect(r.status).toBe(201);
      return (r.json as { id: number }).id;
    };
    const withToken = (token: string, from: number) => receiver.received.slice(from).filter((r) => r.headers["x-gitlab-token"] === token);
    const releasesTo = (token: string, from: number) => withToken(token, from).filter((r) => r.headers["x-gitlab-event"] === "Release Hook");
    const body = (r: ReceivedHook | undefined) => (r?.body ?? {}) as Record<string, unknown>;

    beforeAll(async () => {
      t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
      await h.serve(t.fk);
      receiver = await startHookReceiver();
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: "released", name: "Released", visibility: "private", creatorId: t.users.alice.id });
      const c = await h.request("POST", api("/repository/commits"), {
        ...as(t.tokens.alice),
        json: { branch: "main", commit_message: "Release v1.1\n\nWith notes", author_name: "Ann Author", author_email: "ann@example.com", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] },
      });
      expect(c.status).toBe(201);
      head = (c.json as { id: string }).id;
      const started = t.fk.workers.start({ pollIntervalMs: 20, recurring: false });
      if (started.isErr()) throw new Error(`workers did not start: ${started.error.code}`);
    });
    afterAll(async () => {
      await t.fk.workers.stop();
      await receiver.close();
    });

    it("a release created, changed and deleted → Release Hook with action create, update, delete and the documented example's fields", async () => {
      await addHook({ push_events: false, releases_events: true, token: "releases" });
      const from = receiver.received.length;
      const links = [
        { name: "Changelog", url: "https://example.net/changelog", link_type: "other" },
        { name: "Binary", url: `${t.baseUrl}/${project.fullPath}/-/jobs/1/artifacts`, link_type: "package" },
      ];
      const created = await h.request("POST", api("/releases"), { ...as(t.tokens.alice), json: { tag_name: "v1.1", ref: "main", name: "v1.1", description: "v1.1 has been released", assets: { links } } });
      expect(created.status).toBe(201);
      expect((await h.request("PUT", api("/releases/v1.1"), { ...as(t.tokens.alice), json: { description: "Edited" } })).status).toBe(200);
      expect((await h.request("DELETE", api("/releases/v1.1"), as(t.tokens.alice))).status).toBe(200);
      await until(() => releasesTo("releases", from).length >= 3, "the three release deliveries");
      const [onCreate, onUpdate, onDelete] = releasesTo("releases", from).map(body);

      expect(keys(onCreate)).toEqual(sorted(RELEASE_KEYS));
      expect(keys(onCreate?.["project"])).toEqual(sorted(PROJECT_KEYS));
      const assets = onCreate?.["assets"] as { links: unknown[]; sources: unknown[] };
      expect(keys(assets)).toEqual(sorted(ASSETS_KEYS));
      expect(assets.links.map(keys)).toEqual([sorted(LINK_KEYS), sorted(LINK_KEYS)]);
      expect(assets.sources.map(keys)).toEqual(Array.from({ length: 4 }, () => sorted(SOURCE_KEYS)));
      expect(keys(onCreate?.["commit"])).toEqual(sorted(COMMIT_KEYS));
      expect(keys((onCreate?.["commit"] as { author: unknown }).author)).toEqual(sorted(AUTHOR_KEYS));

      const web = `${t.baseUrl}/${project.fullPath}`;
      expect(onCreate).toMatchObject({
        object_kind: "release",
        action: "create",
        name: "v1.1",
        tag: "v1.1",
        description: "v1.1 has been released",
        url: `${web}/-/releases/v1.1`,
        project: { id: project.id, name: "Released", path_with_namespace: project.fullPath, web_url: web, namespace: t.groups.grp.name, visibility_level: 0 },
        assets: {
          count: 6,
          links: [
            { id: expect.any(Number), external: true, link_type: "other", name: "Changelog", url: "https://example.net/changelog" },
            { id: expect.any(Number), external: false, link_type: "package", name: "Binary", url: links[1]?.url },
          ],
          sources: ["zip", "tar.gz", "tar.bz2", "tar"].map((format) => ({ format, url: `${web}/-/archive/v1.1/released-v1.1.${format}` })),
        },
        commit: { id: head, message: "Release v1.1\n\nWith notes", title: "Release v1.1", url: `${web}/-/commit/${head}`, author: { name: "Ann Author", email: "ann@example.com" } },
      });
      expect(onCreate?.["created_at"]).toMatch(RUBY_UTC);
      expect(onCreate?.["released_at"]).toMatch(RUBY_UTC);
      expect(typeof (onCreate?.["commit"] as { timestamp: unknown }).timestamp).toBe("string");
      expect(onUpdate).toMatchObject({ object_kind: "release", action: "update", id: onCreate?.["id"], description: "Edited" });
      // The release is gone when the delete is sent: the payload is the release as it was.
      expect(onDelete).toMatchObject({ object_kind: "release", action: "delete", id: onCreate?.["id"], description: "Edited", assets: { count: 6 } });
      expect(keys(onDelete)).toEqual(sorted(RELEASE_KEYS));
    });

    it("hooks without releases_events get no Release Hook (per-hook order: their next delivery comes first)", async () => {
      // Hooks of its own: the first test's releases hook may not exist, and is not this test's.
      await addHook({ push_events: false, releases_events: true, token: "releases-too" });
      await addHook({ push_events: true, releases_events: false, token: "pushes" });
      const from = receiver.received.length;
      expect((await h.request("POST", api("/releases"), { ...as(t.tokens.alice), json: { tag_name: "v2.0", ref: "main" } })).status).toBe(201);
      // A push the same hook does hear, queued after the release: once it arrives, any release delivery queued for the hook would have arrived before it.
      const c = await h.request("POST", api("/repository/commits"), { ...as(t.tokens.alice), json: { branch: "more", start_branch: "main", commit_message: "More", actions: [{ action: "create", file_path: "MORE.md", content: "more\n" }] } });
      expect(c.status).toBe(201);
      await until(() => withToken("pushes", from).some((r) => r.headers["x-gitlab-event"] === "Push Hook"), "the push delivery");
      await until(() => releasesTo("releases-too", from).length >= 1, "the release delivery to the releases hook");
      expect(releasesTo("pushes", from)).toEqual([]);
      expect(body(releasesTo("releases-too", from)[0])).toMatchObject({ action: "create", tag: "v2.0", assets: { count: 4, links: [] } });
    });
  });
};
