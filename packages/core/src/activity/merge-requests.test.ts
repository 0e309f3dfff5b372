import { describe, expect, it } from "vitest";
import { must } from "../testing/fixtures.js";
import { activityKit, summary } from "./test-kit.js";

describe("fk.mergeRequests", () => {
  it("create - own iid sequence, `created` event; branches must be given and differ", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: "issue" }));
    const mr = await must(t.fk.mergeRequests.create({ projectId: p.id, authorId: t.users.alice.id, title: "Feature", sourceBranch: "feature", targetBranch: "main" }));
    expect(mr).toMatchObject({ iid: 1, state: "opened", sourceBranch: "feature", targetBranch: "main", mergedAt: null });
    expect(summary(await t.feed(p.id)).at(-1)).toEqual(["created", "MergeRequest", 1]);
    const same = await t.fk.mergeRequests.create({ projectId: p.id, authorId: t.users.alice.id, title: "x", sourceBranch: "main", targetBranch: "main" });
    expect(same._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { source_branch: ["must differ from the target branch"] } });
    const blank = await t.fk.mergeRequests.create({ projectId: p.id, authorId: t.users.alice.id, title: "", sourceBranch: "", targetBranch: "main" });
    expect(blank._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { title: ["can't be blank"], source_branch: ["can't be blank"] } });
  });

  it("merge / close / reopen - only from the right state; each with a system note and its event", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const make = () => must(t.fk.mergeRequests.create({ projectId: p.id, authorId: t.users.alice.id, title: "MR", sourceBranch: "a", targetBranch: "b" }));
    const first = await make();
    const second = await make();
    const merged = await must(t.fk.mergeRequests.merge(p.id, first.iid, t.users.root.id));
    expect(merged).toMatchObject({ state: "merged", mergedAt: t.clock.now(), closedAt: null });
    expect((await t.fk.mergeRequests.close(p.id, first.iid, t.users.root.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Merge Request is already merged" });
    expect((await t.fk.mergeRequests.reopen(p.id, first.iid, t.users.root.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Merge Request is already merged" });
    await must(t.fk.mergeRequests.close(p.id, second.iid, t.users.bob.id));
    expect((await t.fk.mergeRequests.merge(p.id, second.iid, t.users.bob.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Merge Request is already closed" });
    await must(t.fk.mergeRequests.reopen(p.id, second.iid, t.users.bob.id));
    expect((await t.fk.mergeRequests.reopen(p.id, second.iid, t.users.bob.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Merge Request is already open" });
    expect(summary(await t.feed(p.id)).slice(-3)).toEqual([["merged", "MergeRequest", 1], ["closed", "MergeRequest", 2], ["reopened", "MergeRequest", 2]]);
    const notes = await must(t.fk.notes.list({ type: "MergeRequest", projectId: p.id, iid: second.iid }));
    expect(notes.map((n) => [n.body, n.system])).toEqual([["closed", true], ["reopened", true]]);
    expect((await t.fk.mergeRequests.find(p.id, 9))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Merge Request" });
    expect((await must(t.fk.mergeRequests.list(p.id))).items.map((m) => m.state)).toEqual(["merged", "opened"]);
  });
});

describe("fk.milestones", () => {
  it("create - titles are unique per project; `created` event authored by the creating user", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const v1 = await must(t.fk.milestones.create({ projectId: p.id, authorId: t.users.alice.id, title: "v1" }));
    expect(v1).toMatchObject({ iid: 1, state: "active", title: "v1" });
    expect((await t.fk.milestones.create({ projectId: p.id, authorId: t.users.alice.id, title: "v1" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { title: ["has already been taken"] } });
    const events = await t.feed(p.id);
    expect(events[0]).toMatchObject({ action: "created", targetType: "Milestone", targetIid: 1, targetTitle: "v1", authorId: t.users.alice.id });
  });

  it("close / reopen - events `closed` and `reopened`; repeating → 422", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    await must(t.fk.milestones.create({ projectId: p.id, authorId: t.users.alice.id, title: "v1" }));
    expect(await must(t.fk.milestones.close(p.id, 1, t.users.bob.id))).toMatchObject({ state: "closed" });
    expect((await t.fk.milestones.close(p.id, 1, t.users.bob.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Milestone is already closed" });
    expect(await must(t.fk.milestones.reopen(p.id, 1, t.users.bob.id))).toMatchObject({ state: "active" });
    expect(summary(await t.feed(p.id)).slice(-3)).toEqual([["created", "Milestone", 1], ["closed", "Milestone", 1], ["reopened", "Milestone", 1]]);
    expect((await t.fk.milestones.find(p.id, 2))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Milestone" });
  });
});
