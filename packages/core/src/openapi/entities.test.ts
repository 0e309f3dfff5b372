/**
 * The entity schemas of the OpenAPI document describe what the routes really answer: responses of a
 * seeded instance parse with each schema made strict (no field missing, none unknown).
 */
import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { ENTITY_SCHEMAS } from "./entities.js";

describe("entity schemas against real responses", () => {
  it("Event (with UserBasic as author) matches GET /projects/:id/events and GET /events after an issue and a note", async () => {
    const t = await createTestForgekit();
    const headers = { "private-token": t.tokens.alice, "content-type": "application/json" };
    const post = (path: string, body: unknown) => t.fk.handle({ method: "POST", path: `/api/v4${path}`, rawQuery: "", headers, body: new TextEncoder().encode(JSON.stringify(body)) });
    const project = t.projects.publicProject.id;
    const issue = await post(`/projects/${project}/issues`, { title: "Broken" });
    expect(issue.status).toBe(201);
    const iid = (JSON.parse(String(issue.body)) as { iid: number }).iid;
    expect((await post(`/projects/${project}/issues/${iid}/notes`, { body: "Indeed" })).status).toBe(201);
    const strict = ENTITY_SCHEMAS.Event.strict();
    for (const path of [`/projects/${project}/events`, "/events"]) {
      const r = await t.fk.handle({ method: "GET", path: `/api/v4${path}`, rawQuery: "", headers });
      expect(r.status).toBe(200);
      const events = JSON.parse(String(r.body)) as unknown[];
      expect(events.length).toBeGreaterThanOrEqual(2);
      for (const event of events) expect(strict.safeParse(event).error?.issues ?? [], path).toEqual([]);
    }
  });

  it("Version matches GET /version; PersonalAccessToken matches GET /personal_access_tokens/self", async () => {
    const t = await createTestForgekit();
    const get = async (path: string) => JSON.parse(String((await t.fk.handle({ method: "GET", path: `/api/v4${path}`, rawQuery: "", headers: { "private-token": t.tokens.bob } })).body)) as unknown;
    expect(ENTITY_SCHEMAS.Version.strict().safeParse(await get("/version")).success).toBe(true);
    const self = await get("/personal_access_tokens/self");
    expect(ENTITY_SCHEMAS.PersonalAccessToken.strict().safeParse(self).error?.issues ?? []).toEqual([]);
  });
});
