import { describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { must } from "../testing/fixtures.js";
import { activityKit, summary } from "./test-kit.js";

describe("fk.issues", () => {
  it("create - iids count per project and each issue records `created` in the project feed", async () => {
    const t = await activityKit();
    const { publicProject: p, internalProject: q } = t.projects;
    const a = await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: "First" }));
    const b = await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.bob.id, title: "Second", description: "more", confidential: true }));
    const c = await must(t.fk.issues.create({ projectId: q.id, authorId: t.users.bob.id, title: "Elsewhere" }));
    expect([a.iid, b.iid, c.iid]).toEqual([1, 2, 1]);
    expect(b).toMatchObject({ state: "opened", confidential: true, description: "more", closedAt: null });
    const events = await t.feed(p.id);
    expect(summary(events).slice(-2)).toEqual([["created", "Issue", 1], ["created", "Issue", 2]]);
    expect(events[0]).toMatchObject({ authorId: t.users.bob.id, targetId: b.id, targetTitle: "Second", audience: "reporters", audienceUserId: t.users.bob.id });
    expect(events[1]).toMatchObject({ audience: "project", audienceUserId: null });
  });

  it("create - a blank title is a validation error; unknown project or author → 404, and nothing is written", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const before = (await t.feed(p.id)).length;
    expect((await t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: " " }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { title: ["can't be blank"] } });
    expect((await t.fk.issues.create({ projectId: 999, authorId: t.users.alice.id, title: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await t.fk.issues.create({ projectId: p.id, authorId: 999, title: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    expect(await t.feed(p.id)).toHaveLength(before);
    expect((await must(t.fk.issues.list(p.id))).items).toEqual([]);
  });

  it("close / reopen - state, a system note and an event each; repeating a change → 422", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const issue = await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: "Bug" }));
    t.clock.advance(60_000);
    const closed = await must(t.fk.issues.close(p.id, issue.iid, t.users.bob.id));
    expect(closed).toMatchObject({ state: "closed", closedAt: t.clock.now() });
    expect((await t.fk.issues.close(p.id, issue.iid, t.users.bob.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Issue is already closed" });
    const reopened = await must(t.fk.issues.reopen(p.id, issue.iid, t.users.alice.id));
    expect(reopened).toMatchObject({ state: "opened", closedAt: null });
    expect((await t.fk.issues.reopen(p.id, issue.iid, t.users.alice.id))._unsafeUnwrapErr()).toEqual({ code: "unprocessable", reason: "Issue is already open" });
    expect(summary(await t.feed(p.id)).slice(-3)).toEqual([["created", "Issue", 1], ["closed", "Issue", 1], ["reopened", "Issue", 1]]);
    const notes = await must(t.fk.notes.list({ type: "Issue", projectId: p.id, iid: issue.iid }));
    expect(notes.map((n) => [n.body, n.system, n.authorId])).toEqual([["closed", true, t.users.bob.id], ["reopened", true, t.users.alice.id]]);
  });

  it("find / close - unknown iid → 404 Issue Not Found", async () => {
    const t = await activityKit();
    expect((await t.fk.issues.find(t.projects.publicProject.id, 7))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Issue" });
    expect((await t.fk.issues.close(t.projects.publicProject.id, 7, t.users.alice.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Issue" });
  });

  it("setConfidential - past events of the issue and its notes follow the new audience", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const carol = await t.createUser({ username: "carol" });
    await t.addMember({ project: p }, t.users.bob, AccessLevel.Reporter);
    const issue = await must(t.fk.issues.create({ projectId: p.id, authorId: t.users.alice.id, title: "Leak" }));
    await must(t.fk.notes.create({ on: { type: "Issue", projectId: p.id, iid: issue.iid }, authorId: t.users.bob.id, body: "hm" }));
    const seen = async (viewer: typeof carol | null) => summary(await t.feed(p.id, viewer)).filter(([, type]) => type !== null).length;
    expect(await seen(carol)).toBe(2);
    await must(t.fk.issues.setConfidential(p.id, issue.iid, true));
    expect(await seen(carol)).toBe(0);
    expect(await seen(null)).toBe(0);
    expect(await seen(t.users.bob)).toBe(2);
    expect(await seen(t.users.alice)).toBe(2);
    await must(t.fk.issues.setConfidential(p.id, issue.iid, false));
    expect(await seen(null)).toBe(2);
  });
});
