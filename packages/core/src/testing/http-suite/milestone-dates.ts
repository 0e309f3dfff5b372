/**
 * Project milestones' dates (reference `project_milestones.rb`, `Timebox`): `start_date` and
 * `due_date` (`YYYY-MM-DD`) on POST and PUT, shown by the entity with `expired` once the due date
 * is past; malformed dates and a due date not after the start date are 400.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const milestoneDatesSuite: HttpSuite = (h: HttpHarness) => {
  describe("milestone start_date and due_date", () => {
    let t: TestForgekit;
    let project: Project;
    const path = (suffix = "") => `/api/v4/projects/${project.id}/milestones${suffix}`;
    const send = (method: string, suffix: string, json: Json) => h.request(method, path(suffix), { json, headers: { "private-token": t.tokens.alice } });

    beforeAll(async () => {
      t = await createTestForgekit({ now: "2024-05-01T12:00:00.000Z" });
      await h.serve(t.fk);
      project = t.projects.publicProject;
    });

    it("POST takes both dates; the entity shows them; expired only once the due date is before today", async () => {
      const r = await send("POST", "", { title: "dated", start_date: "2024-04-01", due_date: "2024-06-30" });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ title: "dated", start_date: "2024-04-01", due_date: "2024-06-30", expired: false });
      const past = await send("POST", "", { title: "past", due_date: "2024-04-30" });
      expect(past.json).toMatchObject({ start_date: null, due_date: "2024-04-30", expired: true });
      const todayDue = await send("POST", "", { title: "due today", due_date: "2024-05-01" });
      expect(todayDue.json).toMatchObject({ expired: false });
      const shown = await h.request("GET", path(`/${(r.json as Json)["id"] as number}`));
      expect(shown.json).toMatchObject({ start_date: "2024-04-01", due_date: "2024-06-30" });
    });

    it("PUT changes a date alone and keeps the other", async () => {
      const made = (await send("POST", "", { title: "moving", start_date: "2024-04-01", due_date: "2024-06-30" })).json as Json;
      const r = await send("PUT", `/${made["id"] as number}`, { due_date: "2024-07-31" });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ start_date: "2024-04-01", due_date: "2024-07-31" });
    });

    it("400 for a malformed or impossible date", async () => {
      for (const bad of ["2024-02-30", "31/12/2024", "tomorrow"]) {
        expect(await send("POST", "", { title: `bad ${bad}`, due_date: bad })).toMatchObject({ status: 400, json: { error: "due_date is invalid" } });
      }
      const made = (await send("POST", "", { title: "kept" })).json as Json;
      expect(await send("PUT", `/${made["id"] as number}`, { start_date: "2024-13-01" })).toMatchObject({ status: 400, json: { error: "start_date is invalid" } });
    });

    it("400 when the due date is not after the start date, on create and against the stored date on update", async () => {
      const message = { message: { due_date: ["must be greater than start date"] } };
      expect(await send("POST", "", { title: "backwards", start_date: "2024-06-01", due_date: "2024-06-01" })).toMatchObject({ status: 400, json: message });
      const made = (await send("POST", "", { title: "ranged", start_date: "2024-06-01", due_date: "2024-06-30" })).json as Json;
      expect(await send("PUT", `/${made["id"] as number}`, { due_date: "2024-05-15" })).toMatchObject({ status: 400, json: message });
      expect((await h.request("GET", path(`/${made["id"] as number}`))).json).toMatchObject({ due_date: "2024-06-30" });
    });
  });
};
