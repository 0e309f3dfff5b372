import { describe, expect, it } from "vitest";
import { activityKit } from "../activity/test-kit.js";
import { must } from "../testing/fixtures.js";
import type { PushData } from "./types.js";

const A = "a".repeat(40);
const B = "b".repeat(64);

describe("fk.pushes.record", () => {
  it("derives the push action from the commit range; cuts commit titles to 70 characters", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const base = { projectId: p.id, authorId: t.users.alice.id, ref: "main" };
    const created = await must(t.fk.pushes.record({ ...base, commitTo: A, commitCount: 1, commitTitle: "x".repeat(90) }));
    const pushed = await must(t.fk.pushes.record({ ...base, commitFrom: A, commitTo: B, commitCount: 2 }));
    const removed = await must(t.fk.pushes.record({ ...base, ref: "v1", refType: "tag", commitFrom: B }));
    expect(created.push).toEqual({ commitCount: 1, action: "created", refType: "branch", commitFrom: null, commitTo: A, ref: "main", commitTitle: "x".repeat(70) });
    expect(pushed.push).toMatchObject({ action: "pushed", commitFrom: A, commitTo: B, commitCount: 2, commitTitle: null });
    expect(removed.push).toMatchObject({ action: "removed", refType: "tag", commitTo: null, commitCount: 0 });
    expect([created, pushed, removed].map((e) => [e.action, e.targetType, e.projectId])).toEqual([["pushed", null, p.id], ["pushed", null, p.id], ["pushed", null, p.id]]);
  });

  it("bad commit ranges are validation errors nested under push_data", async () => {
    const t = await activityKit();
    const base = { projectId: t.projects.publicProject.id, authorId: t.users.alice.id, ref: "" };
    const r = await t.fk.pushes.record({ ...base, action: "pushed", commitFrom: "xyz", commitCount: -1 });
    expect(r._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { push_data: { commit_count: ["is invalid"], ref: ["can't be blank"], commit_from: ["is invalid"], commit_to: ["can't be blank"] } },
    });
    const created = await t.fk.pushes.record({ ...base, ref: "main", action: "created", commitFrom: A, commitTo: A });
    expect(created._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { push_data: { commit_from: ["must be blank"] } } });
    expect((await t.fk.pushes.record({ ...base, ref: "main", projectId: 404, commitTo: A }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
  });
});

describe("fk.events.record", () => {
  it("records a host's own event with its target, audience and time", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const at = new Date("2024-04-01T00:00:00.000Z");
    const event = await must(
      t.fk.events.record({ projectId: p.id, authorId: t.users.bob.id, action: "approved", target: { type: "MergeRequest", id: 900, iid: 12, title: "Host MR" }, audience: "members", createdAt: at }),
    );
    expect(event).toMatchObject({ action: "approved", targetType: "MergeRequest", targetId: 900, targetIid: 12, targetTitle: "Host MR", audience: "members", createdAt: at });
    const noIid = await must(t.fk.events.record({ projectId: p.id, authorId: t.users.bob.id, action: "updated", target: { type: "User", id: 5 } }));
    expect(noIid).toMatchObject({ targetIid: 5, targetTitle: null, audience: "project", createdAt: t.clock.now() });
  });

  it("epic targets, unknown actions and misplaced payloads are refused with the validation body", async () => {
    const t = await activityKit();
    const base = { projectId: t.projects.publicProject.id, authorId: t.users.bob.id };
    const epic = await t.fk.events.record({ ...base, action: "created", target: { type: "Epic" as never, id: 1 } });
    expect(epic._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { target_type: ["is not included in the list"] } });
    const action = await t.fk.events.record({ ...base, action: "exploded" as never });
    expect(action._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { action: ["is not included in the list"] } });
    const push: PushData = { commitCount: 1, action: "pushed", refType: "branch", commitFrom: A, commitTo: A, ref: "main", commitTitle: null };
    expect((await t.fk.events.record({ ...base, action: "pushed" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { push_data: ["can't be blank"] } });
    expect((await t.fk.events.record({ ...base, action: "closed", push }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { push_data: ["must be blank"] } });
    const noteless = await t.fk.events.record({ ...base, action: "commented", target: { type: "Note", id: 3 } });
    expect(noteless._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { note: ["can't be blank"] } });
    const wrongNote = await t.fk.events.record({
      ...base,
      action: "commented",
      target: { type: "Note", id: 3 },
      note: { id: 4, body: "", attachment: null, authorId: 1, createdAt: new Date(0), system: false, noteableType: "Epic", noteableId: 1, noteableIid: null },
    });
    expect(wrongNote._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { note: { id: ["must be the target id"], body: ["can't be blank"], noteable_type: ["is not included in the list"] } } });
    expect((await t.fk.events.record({ ...base, authorId: 999, action: "created" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    expect((await t.fk.events.record({ ...base, action: "created", createdAt: new Date(Number.NaN) }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { created_at: ["is invalid"] } });
  });
});

describe("events of accounts actions", () => {
  it("projects.create records `created` by the creator; without a creator nothing is recorded", async () => {
    const t = await activityKit();
    const [created] = await t.feed(t.projects.publicProject.id);
    expect(created).toMatchObject({ action: "created", authorId: t.users.alice.id, targetType: null, projectId: t.projects.publicProject.id });
    const orphan = await t.createProject({ namespaceId: t.groups.grp.id, path: "orphan", name: "orphan", visibility: "public" });
    expect(await t.feed(orphan.id)).toEqual([]);
  });

  it("members.add / remove record `joined` / `left` by the member, for projects only", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const carol = await t.createUser({ username: "carol" });
    await t.addMember({ project: p }, carol, 30);
    await t.addMember({ group: t.groups.secret }, carol, 30);
    await must(t.fk.members.remove({ sourceType: "project", sourceId: p.id }, carol.id));
    const carolsEvents = (await must(t.fk.events.own(carol))).items;
    expect(carolsEvents.map((e) => [e.action, e.projectId])).toEqual([["left", p.id], ["joined", p.id]]);
    expect((await t.fk.members.remove({ sourceType: "project", sourceId: p.id }, carol.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Member" });
  });

  it("a refused membership records nothing (one transaction)", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const carol = await t.createUser({ username: "carol" });
    await t.addMember({ project: p }, carol, 30);
    expect((await t.fk.members.add({ sourceType: "project", sourceId: p.id, userId: carol.id, accessLevel: 40 }))._unsafeUnwrapErr()).toEqual({ code: "conflict", reason: "Member already exists" });
    expect((await must(t.fk.events.own(carol))).items).toHaveLength(1);
  });
});
