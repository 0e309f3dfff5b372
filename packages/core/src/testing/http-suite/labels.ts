/**
 * Project labels over REST (reference `lib/api/labels.rb`, `LabelHelpers`, `subscriptions.rb`):
 * entities, colours, conflicts, permissions, counts from stored issues and merge requests, renames
 * and deletions seen on the issues that carry the label, subscriptions, the deprecated
 * name-addressed `PUT` / `DELETE` python-gitlab uses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { must } from "../fixtures.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The project label endpoints. */
export const labelsSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  let pid: number;
  let base: string;
  const auth = (token: string) => ({ "private-token": token });
  const create = (json: Json, token = w.t.tokens.alice, at = base) => h.request("POST", at, { json, headers: auth(token) });
  /** Creates a label of the public project (201) and gives its body: for the tests that need a label of their own. */
  const label = async (json: Json) => {
    const r = await create(json);
    expect(r.status).toBe(201);
    return r.json as Json;
  };
  const names = (json: unknown) => (json as Json[]).map((l) => l["name"]);
  const issueLabels = async (iid: number) => (await h.request("GET", `/api/v4/projects/${pid}/issues/${iid}`, { headers: auth(w.t.tokens.alice) })).json as Json;

  describe("project labels", () => {
    beforeAll(async () => {
      w = await activityWorld();
      pid = w.t.projects.publicProject.id;
      base = `/api/v4/projects/${pid}/labels`;
      await h.serve(w.t.fk);
    });

    describe("POST /projects/:id/labels", () => {
      it("creates a label: 201 with the ProjectLabel entity (text colour for its background, priority)", async () => {
        const r = await create({ name: "created-bug", color: "#d9534f", description: "Bug <b>reported</b>", priority: 10 });
        expect(r.status).toBe(201);
        expect(r.json).toEqual({
          id: (r.json as Json)["id"],
          name: "created-bug",
          color: "#d9534f",
          description: "Bug <b>reported</b>",
          description_html: "Bug &lt;b&gt;reported&lt;/b&gt;",
          text_color: "#FFFFFF",
          subscribed: false,
          priority: 10,
          is_project_label: true,
        });
      });
      it("accepts CSS colour names (stored as hex) and short hex; a light colour gets dark text", async () => {
        expect((await create({ name: "named-colour", color: "LightYellow" })).json).toMatchObject({ color: "#ffffe0", text_color: "#1F1E24", description: null, priority: null });
        expect((await create({ name: "short-hex", color: "#abc" })).json).toMatchObject({ color: "#abc" });
      });
      it("an existing name is 409 Label already exists; a bad colour or a comma in the name is 400 with the field", async () => {
        await label({ name: "existing", color: "#d9534f" });
        expect(await create({ name: "existing", color: "#000000" })).toMatchObject({ status: 409, json: { message: "Label already exists" } });
        expect(await create({ name: "x", color: "nope" })).toMatchObject({ status: 400, json: { message: { color: ["must be a valid color code"] } } });
        expect(await create({ name: "a,b", color: "#000000" })).toMatchObject({ status: 400, json: { message: { title: ["is invalid"] } } });
        expect((await create({ name: "x" })).status).toBe(400);
        expect(await create({ name: "x", color: "red", description: "é".repeat(40_000) })).toMatchObject({ status: 400, json: { message: { description: ["is too long (maximum is 65535 bytes)"] } } });
      });
      it("needs Reporter+: a signed-in non-member is 403, anonymous 401, an unreadable project 404", async () => {
        expect((await create({ name: "x", color: "red" }, w.carol.token)).status).toBe(403);
        expect((await h.request("POST", base, { json: { name: "x", color: "red" } })).status).toBe(401);
        expect((await h.request("POST", `/api/v4/projects/${w.t.projects.hidden.id}/labels`, { json: { name: "x", color: "red" }, headers: auth(w.carol.token) })).status).toBe(404);
      });
    });

    describe("GET /projects/:id/labels", () => {
      it("lists by name for any reader, with search and pagination", async () => {
        // A public project of its own, outside any group: its list is exactly the three labels made here.
        const { t } = w;
        const project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "listed-labels", name: "listed-labels", visibility: "public", creatorId: t.users.alice.id });
        const at = `/api/v4/projects/${project.id}/labels`;
        for (const json of [{ name: "short", color: "#abc" }, { name: "bug", color: "#d9534f", description: "Bug <b>reported</b>" }, { name: "docs", color: "LightYellow" }]) {
          expect((await create(json, t.tokens.alice, at)).status).toBe(201);
        }
        const r = await h.request("GET", at, { headers: auth(w.carol.token), query: { per_page: "2" } });
        expect(names(r.json)).toEqual(["bug", "docs"]);
        expect(r.headers["x-total"]).toBe("3");
        expect(names((await h.request("GET", at, { headers: auth(w.carol.token), query: { search: "REPORTED" } })).json)).toEqual(["bug"]);
      });
      it("with_counts counts the stored open and closed issues and open merge requests carrying each label", async () => {
        const { t } = w;
        const alice = t.users.alice.id;
        // A label only this test puts on issues and merge requests.
        await label({ name: "counted", color: "#d9534f" });
        await must(t.fk.issues.create({ projectId: pid, authorId: alice, title: "open", labels: ["counted"] }));
        const closed = await must(t.fk.issues.create({ projectId: pid, authorId: alice, title: "closed", labels: ["counted"] }));
        await must(t.fk.issues.update(pid, closed.iid, alice, { stateEvent: "close" }));
        await must(t.fk.issues.create({ projectId: pid, authorId: alice, title: "secret", labels: ["counted"], confidential: true }));
        const mr = await must(t.fk.mergeRequests.create({ projectId: pid, authorId: alice, title: "fix", sourceBranch: "fix", targetBranch: "main" }));
        const counted = await t.store.imports.labels.findByName(pid, "counted");
        await t.store.reviews.setMergeRequestLabels(mr.id, [counted?.id ?? 0]);
        const counts = async (token: string) => ((await h.request("GET", base, { headers: auth(token), query: { with_counts: "true" } })).json as Json[]).find((l) => l["name"] === "counted");
        expect(await counts(t.tokens.alice)).toMatchObject({ open_issues_count: 2, closed_issues_count: 1, open_merge_requests_count: 1 });
        // Confidential issues count only for those who may see them.
        expect(await counts(w.carol.token)).toMatchObject({ open_issues_count: 1, closed_issues_count: 1, open_merge_requests_count: 1 });
        expect((await h.request("GET", base, { headers: auth(t.tokens.alice) })).json).not.toContainEqual(expect.objectContaining({ open_issues_count: expect.anything() }));
      });
    });

    describe("GET /projects/:id/labels/:label_id", () => {
      it("finds by id or by title; another project's id or an unknown title is 404 Label Not Found", async () => {
        const made = await label({ name: "findable", color: "#d9534f", description: "Found" });
        const byTitle = (await h.request("GET", `${base}/findable`, { headers: auth(w.carol.token) })).json as Json;
        expect(byTitle).toEqual(made);
        expect((await h.request("GET", `${base}/${String(byTitle["id"])}`, { headers: auth(w.carol.token) })).json).toEqual(byTitle);
        expect(await h.request("GET", `${base}/nothing`, { headers: auth(w.carol.token) })).toMatchObject({ status: 404, json: { message: "404 Label Not Found" } });
        expect(await h.request("GET", `${base}/99999999999`, { headers: auth(w.carol.token) })).toMatchObject({ status: 404, json: { message: "404 Label Not Found" } });
        const other = `/api/v4/projects/${w.t.projects.internalProject.id}/labels/${String(byTitle["id"])}`;
        expect((await h.request("GET", other, { headers: auth(w.t.tokens.alice) })).status).toBe(404);
      });
    });

    describe("titles with slashes, spaces and scopes", () => {
      it("are found, edited and deleted by their percent-encoded title", async () => {
        const name = "type/bug fix::high";
        expect((await create({ name, color: "#ff0000" })).status).toBe(201);
        const at = `${base}/${encodeURIComponent(name)}`;
        expect((await h.request("GET", at, { headers: auth(w.carol.token) })).json).toMatchObject({ name });
        expect((await h.request("PUT", at, { json: { description: "scoped" }, headers: auth(w.t.tokens.alice) })).json).toMatchObject({ name, description: "scoped" });
        expect((await h.request("DELETE", at, { headers: auth(w.t.tokens.alice) })).status).toBe(204);
      });
    });

    describe("labels issues and merge requests carry", () => {
      it("applying an unknown name to an issue creates the project label with the default colour", async () => {
        const r = await h.request("POST", `/api/v4/projects/${pid}/issues`, { json: { title: "new label", labels: "fresh" }, headers: auth(w.t.tokens.alice) });
        expect(r.status).toBe(201);
        expect((await h.request("GET", `${base}/fresh`, { headers: auth(w.t.tokens.alice) })).json).toMatchObject({ name: "fresh", color: "#6699cc" });
      });
      it("renaming a label (PUT by name, as python-gitlab saves) renames it on the issues that carry it", async () => {
        const issue = (await h.request("POST", `/api/v4/projects/${pid}/issues`, { json: { title: "carrier", labels: "old-name" }, headers: auth(w.t.tokens.alice) })).json as Json;
        const r = await h.request("PUT", base, { json: { name: "old-name", new_name: "new-name", color: "navy" }, headers: auth(w.t.tokens.alice) });
        expect(r.json).toMatchObject({ name: "new-name", color: "#000080" });
        expect((await issueLabels(issue["iid"] as number))["labels"]).toEqual(["new-name"]);
      });
      it("deleting a label takes it off the issues: 204, then 404", async () => {
        const issue = (await h.request("POST", `/api/v4/projects/${pid}/issues`, { json: { title: "doomed", labels: "doomed,kept" }, headers: auth(w.t.tokens.alice) })).json as Json;
        expect((await h.request("DELETE", `${base}/doomed`, { headers: auth(w.t.tokens.alice) })).status).toBe(204);
        expect((await h.request("DELETE", `${base}/doomed`, { headers: auth(w.t.tokens.alice) })).status).toBe(404);
        expect((await issueLabels(issue["iid"] as number))["labels"]).toEqual(["kept"]);
      });
    });

    describe("with_labels_details=true on issue and merge-request lists", () => {
      it("gives each label as an object (id, name, colours, description) instead of its name", async () => {
        const { t } = w;
        const bug = await label({ name: "detailed-bug", color: "#d9534f", description: "Bug <b>reported</b>" });
        const issue = (await h.request("POST", `/api/v4/projects/${pid}/issues`, { json: { title: "detailed", labels: "detailed-bug" }, headers: auth(t.tokens.alice) })).json as Json;
        const detail = { id: bug["id"], name: "detailed-bug", color: "#d9534f", description: "Bug <b>reported</b>", description_html: "Bug &lt;b&gt;reported&lt;/b&gt;", text_color: "#FFFFFF" };
        const issues = async (query: Record<string, string>) => ((await h.request("GET", `/api/v4/projects/${pid}/issues`, { headers: auth(t.tokens.alice), query: { "iids[]": String(issue["iid"]), ...query } })).json as Json[])[0];
        expect((await issues({ with_labels_details: "true" }))?.["labels"]).toEqual([detail]);
        expect((await issues({}))?.["labels"]).toEqual(["detailed-bug"]);
        const mr = await must(t.fk.mergeRequests.create({ projectId: pid, authorId: t.users.alice.id, title: "detailed", sourceBranch: "detailed", targetBranch: "main" }));
        await t.store.reviews.setMergeRequestLabels(mr.id, [bug["id"] as number]);
        const mrs = (await h.request("GET", `/api/v4/projects/${pid}/merge_requests`, { headers: auth(t.tokens.alice), query: { with_labels_details: "true", source_branch: "detailed" } })).json as Json[];
        expect(mrs.map((m) => m["labels"])).toEqual([[detail]]);
      });
    });

    describe("PUT /projects/:id/labels/:label_id", () => {
      it("changes colour, description and priority; a blank priority clears it; nothing given is 400", async () => {
        await label({ name: "edited", color: "LightYellow" });
        const put = (json: Json, token = w.t.tokens.alice) => h.request("PUT", `${base}/edited`, { json, headers: auth(token) });
        expect((await put({ description: "Docs", priority: 2 })).json).toMatchObject({ description: "Docs", priority: 2 });
        expect((await put({ priority: "" })).json).toMatchObject({ priority: null });
        expect((await put({})).json).toEqual({ error: "new_name, color, description, priority are missing, at least one parameter must be provided" });
        expect((await put({ color: "#zzzzzz" })).status).toBe(400);
        expect((await put({ priority: -1 })).status).toBe(400);
        expect((await put({ description: "x" }, w.carol.token)).status).toBe(403);
      });
      it("a name another label has is 400 title has already been taken", async () => {
        await label({ name: "renamed-later", color: "LightYellow" });
        await label({ name: "name-holder", color: "#d9534f" });
        expect((await h.request("PUT", `${base}/renamed-later`, { json: { new_name: "name-holder" }, headers: auth(w.t.tokens.alice) })).json).toEqual({ message: { title: ["has already been taken"] } });
      });
    });

    describe("deprecated PUT and DELETE /projects/:id/labels", () => {
      it("need exactly one of label_id and name", async () => {
        const made = await label({ name: "deleted-by-name", color: "#abc" });
        expect((await h.request("PUT", base, { json: { color: "red" }, headers: auth(w.t.tokens.alice) })).status).toBe(400);
        expect((await h.request("DELETE", base, { json: { name: "deleted-by-name", label_id: made["id"] }, headers: auth(w.t.tokens.alice) })).status).toBe(400);
        expect((await h.request("DELETE", base, { json: { name: "deleted-by-name" }, headers: auth(w.t.tokens.alice) })).status).toBe(204);
      });
    });

    describe("POST /projects/:id/labels/:label_id/subscribe and /unsubscribe", () => {
      it("subscribes and unsubscribes the reader (201 with subscribed), 304 when unchanged", async () => {
        await label({ name: "followed", color: "#d9534f" });
        const post = (action: string) => h.request("POST", `${base}/followed/${action}`, { headers: auth(w.carol.token) });
        expect(await post("subscribe")).toMatchObject({ status: 201, json: { name: "followed", subscribed: true } });
        expect((await post("subscribe")).status).toBe(304);
        expect(((await h.request("GET", `${base}/followed`, { headers: auth(w.t.tokens.alice) })).json as Json)["subscribed"]).toBe(false);
        expect(await post("unsubscribe")).toMatchObject({ status: 201, json: { subscribed: false } });
        expect((await post("unsubscribe")).status).toBe(304);
      });
    });
  });
};
