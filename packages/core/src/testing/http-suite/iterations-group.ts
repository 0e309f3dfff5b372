/**
 * `GET /groups/:id/iterations` (spec "Group iterations (premium tier)", "Group iteration"; reference
 * §6): filters, ancestors, states by the injected clock, order, pagination, permissions, tier gate.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Iteration } from "../../iterations/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;
const titles = (json: unknown) => (json as Json[]).map((i) => i["title"]);

/**
 * Premium instance, today 2024-05-10 (UTC). `grp`: April (closed), May (current), June (upcoming);
 * `grp/sub`: "Sub sprint" (current); `secret`: "Hidden". Each created one hour after the previous.
 */
async function iterationWorld(tier: "free" | "premium" | "ultimate" = "premium") {
  const t = await createTestForgekit({ tier, now: "2024-05-10T08:00:00.000Z" });
  const made: Record<string, Iteration> = {};
  const specs: [string, number, string, string][] = [
    ["April", t.groups.grp.id, "2024-04-01", "2024-04-30"],
    ["May", t.groups.grp.id, "2024-05-01", "2024-05-14"],
    ["June", t.groups.grp.id, "2024-06-01", "2024-06-14"],
    ["Sub sprint", t.groups.sub.id, "2024-05-06", "2024-05-19"],
    ["Hidden", t.groups.secret.id, "2024-05-01", "2024-05-31"],
  ];
  for (const [title, groupId, startDate, dueDate] of specs) {
    made[title] = await must(t.fk.iterations.create({ groupId, title, description: `${title} work`, startDate, dueDate }));
    t.clock.advance(3_600_000);
  }
  return { t, made };
}

/** The group iterations endpoint. */
export const groupIterationsSuite: HttpSuite = (h) => {
  describe("GET /groups/:id/iterations", () => {
    let t: TestForgekit;
    let made: Record<string, Iteration>;
    const list = (group: string, query: Record<string, string> = {}, token?: string) =>
      h.request("GET", `/api/v4/groups/${group}/iterations`, { query, headers: token === undefined ? {} : { "private-token": token } });

    beforeAll(async () => {
      ({ t, made } = await iterationWorld());
      await h.serve(t.fk);
    });

    it("entity: exactly the spec's fields; integer state; web_url with the id", async () => {
      const r = await list("grp", { search: "May" });
      expect(r.status).toBe(200);
      const may = made["May"]!;
      expect(r.json).toEqual([
        {
          id: may.id,
          iid: 2,
          sequence: 2,
          group_id: t.groups.grp.id,
          title: "May",
          description: "May work",
          state: 2,
          created_at: "2024-05-10T09:00:00.000Z",
          updated_at: "2024-05-10T09:00:00.000Z",
          due_date: "2024-05-14",
          start_date: "2024-05-01",
          web_url: `${t.baseUrl}/groups/grp/-/iterations/${may.id}`,
        },
      ]);
    });
    it("order: due date, then title, then id; the group's and its ancestors' iterations", async () => {
      const r = await list("grp%2Fsub", {}, t.tokens.bob);
      expect(titles(r.json)).toEqual(["April", "May", "Sub sprint", "June"]);
      expect((r.json as Json[]).map((i) => i["state"])).toEqual([3, 2, 2, 1]);
    });
    it("include_ancestors=false: only the group's own", async () => {
      expect(titles((await list("grp%2Fsub", { include_ancestors: "false" }, t.tokens.bob)).json)).toEqual(["Sub sprint"]);
    });
    it("state: opened, upcoming, current, closed, all, and started as an alias of current", async () => {
      const cases: [string, string[]][] = [
        ["opened", ["May", "June"]],
        ["upcoming", ["June"]],
        ["current", ["May"]],
        ["started", ["May"]],
        ["closed", ["April"]],
        ["all", ["April", "May", "June"]],
      ];
      for (const [state, expected] of cases) expect([state, titles((await list("grp", { state })).json)]).toEqual([state, expected]);
    });
    it("state: another value → 400", async () => {
      const r = await list("grp", { state: "active" });
      expect([r.status, r.json]).toEqual([400, { error: "state does not have a valid value" }]);
    });
    it("state is computed from the dates against the clock, never stored", async () => {
      t.clock.set("2024-05-15T00:00:00.000Z");
      const r = await list("grp", { state: "closed" });
      t.clock.set("2024-05-10T13:00:00.000Z");
      expect(titles(r.json)).toEqual(["April", "May"]);
      expect((r.json as Json[]).map((i) => i["state"])).toEqual([3, 3]);
    });
    it("search: case-insensitive match on the title", async () => {
      expect(titles((await list("grp", { search: "jUn" })).json)).toEqual(["June"]);
      expect(titles((await list("grp", { search: "zzz" })).json)).toEqual([]);
    });
    it("updated_before and updated_after: ISO 8601, inclusive", async () => {
      expect(titles((await list("grp", { updated_before: "2024-05-10T09:00:00Z" })).json)).toEqual(["April", "May"]);
      expect(titles((await list("grp", { updated_after: "2024-05-10T11:00:00+02:00" })).json)).toEqual(["May", "June"]);
      expect(titles((await list("grp", { updated_after: "2024-05-10T09:00:00Z", updated_before: "2024-05-10T09:00:00Z" })).json)).toEqual(["May"]);
      const bad = await list("grp", { updated_before: "yesterday" });
      expect([bad.status, bad.json]).toEqual([400, { error: "updated_before is invalid" }]);
    });
    it("offset pagination with headers", async () => {
      const r = await list("grp", { per_page: "2", page: "2" });
      expect(titles(r.json)).toEqual(["June"]);
      expect(r.headers["x-total"]).toBe("3");
      expect(r.headers["x-total-pages"]).toBe("2");
      expect(r.headers["x-page"]).toBe("2");
      expect(r.headers["link"]).toContain(`<${t.baseUrl}/api/v4/groups/grp/iterations?page=1&per_page=2>; rel="prev"`);
    });
    it("permissions: anyone who can read the group; invisible or unknown group → 404 Group Not Found", async () => {
      expect((await list("grp")).status).toBe(200);
      expect(titles((await list("grp%2Fsub", {}, t.tokens.alice)).json)).toEqual(["April", "May", "Sub sprint", "June"]);
      const cases: [string, string | undefined][] = [
        ["grp%2Fsub", undefined],
        ["secret", t.tokens.bob],
        ["nope", t.tokens.root],
        [String(t.users.alice.namespaceId), t.tokens.root],
      ];
      for (const [group, token] of cases) {
        const r = await list(group, {}, token);
        expect([group, r.status, r.json]).toEqual([group, 404, { message: "404 Group Not Found" }]);
      }
      expect(titles((await list("secret", {}, t.tokens.root)).json)).toEqual(["Hidden"]);
    });
  });

  describe("GET /groups/:id/iterations — tier gate (premium)", () => {
    it("free: a visible group → 403 with the reason; an invisible one is still 404", async () => {
      const { t } = await iterationWorld("free");
      await h.serve(t.fk);
      const r = await h.request("GET", "/api/v4/groups/grp/iterations");
      expect([r.status, r.json]).toEqual([403, { message: "403 Forbidden - Group iterations require the premium tier" }]);
      const hidden = await h.request("GET", "/api/v4/groups/secret/iterations");
      expect([hidden.status, hidden.json]).toEqual([404, { message: "404 Group Not Found" }]);
    });
    it("premium and ultimate: served", async () => {
      for (const tier of ["premium", "ultimate"] as const) {
        const { t } = await iterationWorld(tier);
        await h.serve(t.fk);
        const r = await h.request("GET", "/api/v4/groups/grp/iterations", { headers: { "private-token": t.tokens.bob } });
        expect([tier, r.status, titles(r.json)]).toEqual([tier, 200, ["April", "May", "June"]]);
      }
    });
  });
};
