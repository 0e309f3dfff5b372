/**
 * `members.projectReadFacts` (issue 21) reads in one statement what `GET /projects/:id` otherwise
 * reads in three: it must agree with those reads for every viewer and project, expired memberships
 * and open issues included.
 */
import { createTestForgekit, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "./index.js";

let t: TestForgekit;
beforeAll(async () => {
  t = await createTestForgekit({ store: kyselyStore(sqlite(":memory:")) });
  const { publicProject, privateProject } = t.projects;
  for (const title of ["one", "two"]) {
    const r = await t.fk.handle({ method: "POST", path: `/api/v4/projects/${publicProject.id}/issues`, rawQuery: "", headers: { "private-token": t.tokens.alice, "content-type": "application/json" }, body: new TextEncoder().encode(JSON.stringify({ title })) });
    expect(r.status).toBe(201);
  }
  // bob: a direct membership of the private project that has expired.
  (await t.fk.members.add({ sourceType: "project", sourceId: privateProject.id, userId: t.users.bob.id, accessLevel: 30, expiresAt: new Date(t.clock.now().getTime() - 1000) } as never))._unsafeUnwrap();
});
afterAll(async () => void (await t.fk.close()));

describe("members.projectReadFacts (SQL store)", () => {
  it("agrees with projectPermissionLevels, the open-issue count and the import status for every viewer and project", async () => {
    const { members, activity, imports, namespaces } = t.store;
    expect(typeof members.projectReadFacts).toBe("function");
    const now = t.clock.now();
    let checked = 0;
    for (const user of Object.values(t.users)) {
      for (const project of Object.values(t.projects)) {
        const namespace = await namespaces.findById(project.namespaceId);
        const groupId = namespace?.kind === "group" ? namespace.id : null;
        const levels = await members.projectPermissionLevels(user.id, project.id, groupId, now);
        const open = (await activity.issues.countOpened([project.id])).get(project.id) ?? 0;
        const status = (await imports.projects.statuses([project.id])).get(project.id) ?? null;
        expect(await members.projectReadFacts!(user.id, project.id, groupId, now), `${user.username} on ${project.fullPath}`).toEqual({ ...levels, openIssues: open, importStatus: status });
        checked++;
      }
    }
    expect(checked).toBe(15);
    expect((await members.projectReadFacts!(t.users.alice.id, t.projects.publicProject.id, t.groups.grp.id, now)).openIssues).toBe(2);
  });
});
