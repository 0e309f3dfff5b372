import { describe, expect, it } from "vitest";
import { activityKit } from "../activity/test-kit.js";
import { must } from "../testing/fixtures.js";
import { dayStart, readQuery } from "./feeds.js";

describe("event feeds", () => {
  it("readQuery - before / after exclude the named UTC day; default sort desc", () => {
    expect(readQuery({ before: "2024-03-10", after: "2024-03-01" })._unsafeUnwrap()).toEqual({
      sort: "desc",
      createdBefore: new Date("2024-03-10T00:00:00.000Z"),
      createdAfter: new Date("2024-03-01T23:59:59.999Z"),
    });
    expect(readQuery({ action: "merged", targetType: "merge_request", sort: "asc" })._unsafeUnwrap()).toEqual({ sort: "asc", action: "merged", targetType: "MergeRequest" });
    expect(dayStart("2024-02-30")).toBeNull();
  });

  it("readQuery - every bad value in one reference body", () => {
    const bad = readQuery({ action: "pushed_to" as never, targetType: "epic" as never, before: "yesterday", after: "2024-13-01", sort: "up" as never });
    expect(bad._unsafeUnwrapErr()).toEqual({
      code: "invalid_param",
      param: "action",
      reason: "does not have a valid value, target_type does not have a valid value, before is invalid, after is invalid, sort does not have a valid value",
    });
    expect(readQuery({ targetType: "constructor" as never })._unsafeUnwrapErr()).toMatchObject({ param: "target_type" });
  });

  it("before / after select whole days through the service", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    for (const iso of ["2024-03-01T23:59:59.999Z", "2024-03-02T00:00:00.000Z", "2024-03-02T23:59:59.999Z", "2024-03-03T00:00:00.000Z"]) {
      await must(t.fk.events.record({ projectId: p.id, authorId: t.users.bob.id, action: "updated", target: { type: "User", id: 1 }, createdAt: new Date(iso) }));
    }
    const times = async (query: { before?: string; after?: string }) =>
      (await must(t.fk.events.ofProject(null, p.id, { ...query, targetType: "user", sort: "asc" }))).items.map((e) => e.createdAt.toISOString());
    expect(await times({ after: "2024-03-01", before: "2024-03-03" })).toEqual(["2024-03-02T00:00:00.000Z", "2024-03-02T23:59:59.999Z"]);
    expect(await times({ before: "2024-03-02" })).toEqual(["2024-03-01T23:59:59.999Z"]);
    expect(await times({ after: "2024-03-02" })).toEqual(["2024-03-03T00:00:00.000Z"]);
  });

  it("ofUser - unknown user → 404; private profile → empty for others, full for the user and admins", async () => {
    const t = await activityKit();
    expect((await t.fk.events.ofUser(null, "nobody"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    await must(t.fk.users.update(t.users.alice.id, { privateProfile: true }));
    expect(await must(t.fk.events.ofUser(t.users.bob, "alice"))).toEqual({ items: [], total: 0, hasNext: false });
    expect((await must(t.fk.events.ofUser(t.users.alice, t.users.alice.id))).items.length).toBeGreaterThan(0);
    expect((await must(t.fk.events.ofUser(t.users.root, "ALICE"))).items.length).toBeGreaterThan(0);
    expect(await must(t.fk.events.ofUser(t.users.root, String(t.users.alice.id)))).toEqual(await must(t.fk.events.ofUser(t.users.root, "alice")));
  });

  it("ofProject - unknown, bare-name and invisible projects → 404 Project; hand-built bad pages → 400", async () => {
    const t = await activityKit();
    for (const id of [999, "public-project", "grp/nope"]) {
      expect((await t.fk.events.ofProject(null, id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    }
    expect((await t.fk.events.ofProject(t.users.bob, t.projects.hidden.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await must(t.fk.events.ofProject(null, "grp/public-project"))).items).toHaveLength(1);
    const bad = await t.fk.events.ofProject(null, t.projects.publicProject.id, {}, { kind: "offset", page: 1, perPage: 500 });
    expect(bad._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "per_page", reason: "does not have a valid value" });
  });

  it("own - scope all lists every authorised project's events, not only the user's", async () => {
    const t = await activityKit();
    await must(t.fk.issues.create({ projectId: t.projects.privateProject.id, authorId: t.users.alice.id, title: "in sub" }));
    const mine = (await must(t.fk.events.own(t.users.bob))).items;
    const all = (await must(t.fk.events.own(t.users.bob, { scope: "all" }))).items;
    expect(mine.every((e) => e.authorId === t.users.bob.id)).toBe(true);
    expect(all.map((e) => e.projectId)).toEqual(expect.arrayContaining([t.projects.privateProject.id, t.projects.internalProject.id]));
    expect(all.some((e) => e.projectId === t.projects.publicProject.id)).toBe(false);
  });
});
