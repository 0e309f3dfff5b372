/**
 * Input no store can hold or compare (forgekit issue 8): a NUL byte (PostgreSQL refuses it in any
 * text value), ids beyond the 32-bit id columns, over-long values. The parameter layer decides
 * once what they mean, so every store answers alike and none answers 500: a path value that can
 * name nothing gets the route's usual 404; a text parameter is 400 `{"error":"<param> is invalid"}`;
 * an out-of-range cursor is 400; an over-long value is the route's 400 validation body.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const notFound = (what: string) => ({ message: `404 ${what} Not Found` });

/** Bad input on every route family, answered by the parameter layer. */
export const unstorableInputSuite: HttpSuite = (h: HttpHarness) => {
  describe("input no store can hold (NUL, out-of-range ids, over-long values)", () => {
    let t: TestForgekit;
    const as = (token: string) => ({ "private-token": token });
    const get = (target: string, token?: string) => h.raw("GET", `/api/v4${target}`, token === undefined ? {} : { headers: as(token) });

    beforeAll(async () => {
      t = await createTestForgekit({ tier: "ultimate" });
      await must(t.fk.errorTracking.putSettings(t.projects.publicProject.id, { active: true, integrated: true }));
      await h.serve(t.fk);
    });

    it("a NUL byte in a path id or full path names nothing: the route's usual 404", async () => {
      const cases: [string, string][] = [
        ["/groups/%00", "Group"],
        ["/groups/grp%2F%00", "Group"],
        ["/projects/grp%2F%00", "Project"],
        ["/users/a%00b", "User"],
        ["/users/%00/events", "User"],
        ["/projects/grp%2Fpublic-project%00/events", "Project"],
        ["/groups/%00/iterations", "Group"],
        ["/groups/grp%2F%00/notification_settings", "Group"],
        ["/projects/grp%2F%00/notification_settings", "Project"],
        ["/projects/grp%2F%00/error_tracking/settings", "Project"],
        ["/projects/%00%2F%00/error_tracking/client_keys", "Project"],
      ];
      for (const [target, what] of cases) {
        const r = await get(target, t.tokens.root);
        expect([target, r.status, r.json]).toEqual([target, 404, notFound(what)]);
      }
    });

    it("an id beyond the id columns names nothing: the route's usual 404", async () => {
      const cases: [string, string][] = [
        ["/groups/2147483648", "Group"],
        ["/groups/2147483648/iterations", "Group"],
        ["/groups/4294967296/notification_settings", "Group"],
        ["/projects/2147483648/notification_settings", "Project"],
        ["/projects/4294967296/events", "Project"],
        ["/projects/2147483648/error_tracking/settings", "Project"],
        ["/users/2147483648", "User"],
        ["/users/99999999999/events", "User"],
      ];
      for (const [target, what] of cases) {
        const r = await get(target, t.tokens.root);
        expect([target, r.status, r.json]).toEqual([target, 404, notFound(what)]);
      }
      const put = await h.raw("PUT", "/api/v4/projects/2147483648/notification_settings?level=watch", { headers: as(t.tokens.alice) });
      expect([put.status, put.json]).toEqual([404, notFound("Project")]);
      const collector = await h.raw("POST", "/api/v4/error_tracking/collector/api/4294967296/store?sentry_key=abc", { headers: { "content-type": "application/json" }, body: "{}" });
      expect(collector.status).toBe(404);
    });

    it("a collector key with a NUL byte names no key: the collector's uniform 404", async () => {
      const r = await h.raw("POST", `/api/v4/error_tracking/collector/api/${t.projects.publicProject.id}/store?sentry_key=%00`, { headers: { "content-type": "application/json" }, body: "{}" });
      expect([r.status, r.json]).toEqual([404, { message: "404 Not Found" }]);
    });

    it("the usual order of checks still holds: anonymous /users/<nothing> is 403 as for any id", async () => {
      for (const target of ["/users/%00", "/users/2147483648", "/users/999999"]) {
        const r = await get(target);
        expect([target, r.status, r.json]).toEqual([target, 403, { message: "403 Forbidden - Not authorized!" }]);
      }
    });

    it("a NUL byte in a text parameter is 400 {error: '<param> is invalid'} (query, form and JSON)", async () => {
      const cases: [string, string][] = [
        ["/projects?search=%00", "search"],
        ["/groups?search=grp%00", "search"],
        ["/groups/grp/iterations?search=%00", "search"],
        ["/events?scope=%00", "scope"],
        ["/projects?repository_storage=%00", "repository_storage"],
      ];
      for (const [target, param] of cases) {
        const r = await get(target, t.tokens.root);
        expect([target, r.status, r.json]).toEqual([target, 400, { error: `${param} is invalid` }]);
      }
      const email = await h.raw("PUT", "/api/v4/notification_settings", { headers: { ...as(t.tokens.alice), "content-type": "application/x-www-form-urlencoded" }, body: "notification_email=a%00%40example.com" });
      expect([email.status, email.json]).toEqual([400, { error: "notification_email is invalid" }]);
      const token = await h.raw("POST", `/api/v4/users/${t.users.bob.id}/impersonation_tokens`, {
        headers: { ...as(t.tokens.root), "content-type": "application/json" },
        body: JSON.stringify({ name: "tok\u0000en", scopes: ["api"] }),
      });
      expect([token.status, token.json]).toEqual([400, { error: "name is invalid" }]);
    });

    it("a lone surrogate (JSON \\ud800) is not refused: every driver sends it as U+FFFD, which every store holds", async () => {
      const json = { ...as(t.tokens.root), "content-type": "application/json" };
      const created = await h.raw("POST", `/api/v4/users/${t.users.bob.id}/impersonation_tokens`, { headers: json, body: '{"name":"tok\\ud800en","scopes":["api"]}' });
      expect(created.status).toBe(201);
      const compared = await h.raw("PUT", "/api/v4/notification_settings", { headers: json, body: '{"notification_email":"\\udfff@example.com"}' });
      expect(compared.status).toBe(400);
    });

    it("a sudo target with a NUL byte names nobody: sudo's usual 404", async () => {
      const r = await get("/user?sudo=%00", t.tokens.root);
      expect([r.status, r.json]).toEqual([404, notFound("User with ID or username '\u0000'")]);
      const spaced = await get("/user?sudo=alice%00", t.tokens.root);
      expect([spaced.status, spaced.json]).toEqual([404, notFound("User with ID or username 'alice\u0000'")]);
    });

    it("a keyset cursor beyond the id column is 400 {error: '<cursor> is invalid'}", async () => {
      const asc = await get("/projects?pagination=keyset&order_by=id&sort=asc&id_after=99999999999", t.tokens.root);
      expect([asc.status, asc.json]).toEqual([400, { error: "id_after is invalid" }]);
      const desc = await get("/projects?pagination=keyset&order_by=id&sort=desc&id_before=2147483648", t.tokens.root);
      expect([desc.status, desc.json]).toEqual([400, { error: "id_before is invalid" }]);
      const inRange = await get("/projects?pagination=keyset&order_by=id&sort=asc&id_after=2147483647", t.tokens.root);
      expect([inRange.status, inRange.json]).toEqual([200, []]);
    });

    it("over-long values for a column are the route's 400 validation body, never a store error", async () => {
      const token = await h.raw("POST", `/api/v4/users/${t.users.bob.id}/impersonation_tokens`, {
        headers: { ...as(t.tokens.root), "content-type": "application/json" },
        body: JSON.stringify({ name: "n".repeat(256), scopes: ["api"] }),
      });
      expect([token.status, token.json]).toEqual([400, { message: { name: ["is too long (maximum is 255 characters)"] } }]);
      const email = await h.raw("PUT", "/api/v4/notification_settings", { headers: { ...as(t.tokens.alice), "content-type": "application/json" }, body: JSON.stringify({ notification_email: `${"e".repeat(300)}@example.com` }) });
      expect(email.status).toBe(400);
      const search = await get(`/projects?search=${"s".repeat(2000)}`, t.tokens.root);
      expect([search.status, search.json]).toEqual([200, []]);
    });
  });
};
