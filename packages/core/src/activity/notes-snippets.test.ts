import { describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { must } from "../testing/fixtures.js";
import { activityKit } from "./test-kit.js";

describe("fk.notes", () => {
  it("create - a user's note records `commented` with the note and its noteable's iid", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const issue = await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: "Bug" }));
    t.clock.advance(1000);
    const note = await must(t.fk.notes.create({ on: { type: "Issue", projectId: p.id, iid: issue.iid }, authorId: t.users.bob.id, body: "Same here" }));
    expect(note).toMatchObject({ projectId: p.id, noteableType: "Issue", noteableId: issue.id, system: false });
    const [event] = await t.feed(p.id);
    expect(event).toMatchObject({
      action: "commented",
      authorId: t.users.bob.id,
      targetType: "Note",
      targetId: note.id,
      targetIid: note.id,
      targetTitle: null,
      note: { id: note.id, body: "Same here", attachment: null, authorId: t.users.bob.id, createdAt: t.clock.now(), system: false, noteableType: "Issue", noteableId: issue.id, noteableIid: 1 },
    });
  });

  it("create - system notes record no event; a blank body is `note can't be blank`", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const mr = await must(t.fk.mergeRequests.create({ projectId: p.id, authorId: t.users.alice.id, title: "MR", sourceBranch: "a", targetBranch: "b" }));
    const before = (await t.feed(p.id)).length;
    await must(t.fk.notes.create({ on: { type: "MergeRequest", projectId: p.id, iid: mr.iid }, authorId: t.users.alice.id, body: "changed the title", system: true }));
    expect(await t.feed(p.id)).toHaveLength(before);
    const blank = await t.fk.notes.create({ on: { type: "MergeRequest", projectId: p.id, iid: mr.iid }, authorId: t.users.alice.id, body: "" });
    expect(blank._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { note: ["can't be blank"] } });
    const missing = await t.fk.notes.create({ on: { type: "MergeRequest", projectId: p.id, iid: 5 }, authorId: t.users.alice.id, body: "x" });
    expect(missing._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Merge Request" });
    expect((await t.fk.notes.create({ on: { type: "Snippet", id: 77 }, authorId: 1, body: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Snippet" });
  });

  it("create - notes on a confidential issue are hidden like the issue", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const carol = await t.createUser({ username: "carol" });
    const issue = await must(t.fk.issues.create({ projectId: p.id, authorId: carol.id, title: "Secret", confidential: true }));
    await must(t.fk.notes.create({ on: { type: "Issue", projectId: p.id, iid: issue.iid }, authorId: t.users.alice.id, body: "ack" }));
    const targets = async (viewer: typeof carol | null) => (await t.feed(p.id, viewer)).filter((e) => e.targetType !== null).map((e) => e.targetType);
    expect(await targets(null)).toEqual([]);
    expect(await targets(t.users.bob)).toEqual([]);
    expect(await targets(carol)).toEqual(["Note", "Issue"]);
    await t.addMember({ project: p }, t.users.bob, AccessLevel.Guest);
    expect(await targets(t.users.bob)).toEqual([]);
    await must(t.fk.members.update({ sourceType: "project", sourceId: p.id }, t.users.bob.id, AccessLevel.Reporter));
    expect(await targets(t.users.bob)).toEqual(["Note", "Issue"]);
  });
});

describe("fk.snippets", () => {
  it("create - project snippets record `created`; visibility decides who sees the events", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const carol = await t.createUser({ username: "carol" });
    const make = (visibility: "public" | "internal" | "private") => must(t.fk.snippets.create({ projectId: p.id, authorId: carol.id, title: visibility, fileName: "a.txt", visibility }));
    const [pub, int, priv] = [await make("public"), await make("internal"), await make("private")];
    await must(t.fk.notes.create({ on: { type: "Snippet", id: priv.id }, authorId: carol.id, body: "note" }));
    const titles = async (viewer: typeof carol | null) => (await t.feed(p.id, viewer)).filter((e) => e.targetType === "Snippet").map((e) => e.targetTitle);
    expect(await titles(null)).toEqual(["public"]);
    expect(await titles(t.users.bob)).toEqual(["internal", "public"]);
    expect(await titles(carol)).toEqual(["private", "internal", "public"]);
    expect(await titles(t.users.alice)).toEqual(["private", "internal", "public"]);
    const noteEvents = async (viewer: typeof carol | null) => (await t.feed(p.id, viewer)).filter((e) => e.targetType === "Note").length;
    expect([await noteEvents(t.users.bob), await noteEvents(carol)]).toEqual([0, 1]);
    expect(pub.projectId).toBe(p.id);
    expect(int.visibility).toBe("internal");
  });

  it("create - personal snippets record an event outside every project feed; a project snippet is never more open than its project", async () => {
    const t = await activityKit();
    const personal = await must(t.fk.snippets.create({ authorId: t.users.alice.id, title: "mine", fileName: "m.txt", visibility: "public" }));
    expect(personal.projectId).toBeNull();
    const own = await must(t.fk.events.own(t.users.alice));
    expect(own.items.some((e) => e.targetType === "Snippet")).toBe(false);
    const open = await t.fk.snippets.create({ projectId: t.projects.privateProject.id, authorId: t.users.alice.id, title: "x", fileName: "x", visibility: "public" });
    expect(open._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { visibility_level: ["public is not allowed in a private project."] } });
    const blank = await t.fk.snippets.create({ authorId: t.users.alice.id, title: "", fileName: "" });
    expect(blank._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { title: ["can't be blank"], file_name: ["can't be blank"] } });
    expect((await t.fk.snippets.find(personal.id + 50))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Snippet" });
  });
});
