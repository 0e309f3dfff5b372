import { describe, expect, it } from "vitest";
import type { User } from "../accounts/types.js";
import { actionName } from "./action-name.js";
import { eventEntity } from "./entity.js";
import type { Event, PushData } from "./types.js";

const push = (action: PushData["action"]): PushData => ({ commitCount: 1, action, refType: "branch", commitFrom: null, commitTo: null, ref: "main", commitTitle: "t" });
const user: User = {
  id: 4, username: "ann", name: "Ann", state: "active", admin: false, bot: null, twoFactorEnabled: false, privateProfile: false,
  avatarUrl: null, passwordHash: null, namespaceId: null, externalId: null, lastActivityOn: null, createdAt: new Date(0), updatedAt: new Date(0),
};
const base: Event = {
  id: 9, projectId: 2, authorId: 4, action: "created", targetType: "Issue", targetId: 30, targetIid: 3, targetTitle: "Bug",
  audience: "project", audienceUserId: null, push: null, note: null, createdAt: new Date("2024-05-01T12:00:00.000Z"),
};

describe("actionName", () => {
  it("the reference's strings, in the reference's order of branches", () => {
    const cases: [Partial<Event>, string][] = [
      [{ action: "pushed", targetType: null, push: push("created") }, "pushed new"],
      [{ action: "pushed", targetType: null, push: push("removed") }, "deleted"],
      [{ action: "pushed", targetType: null, push: push("pushed") }, "pushed to"],
      [{ action: "closed" }, "closed"],
      [{ action: "merged" }, "accepted"],
      [{ action: "joined", targetType: null }, "joined"],
      [{ action: "left", targetType: null }, "left"],
      [{ action: "expired", targetType: null }, "removed due to membership expiration from"],
      [{ action: "destroyed" }, "destroyed"],
      [{ action: "commented", targetType: "Note" }, "commented on"],
      [{ action: "created", targetType: null }, "created"],
      [{ action: "approved" }, "approved"],
      [{ action: "created" }, "opened"],
      [{ action: "reopened" }, "opened"],
      [{ action: "updated" }, "opened"],
    ];
    for (const [patch, name] of cases) expect([patch.action, actionName({ ...base, ...patch })]).toEqual([patch.action, name]);
  });
});

describe("eventEntity", () => {
  const users = new Map([[4, user]]);
  const ctx = { baseUrl: "https://h", users, projectList: true };

  it("every field of the spec's table, in project lists with target_iid and data", () => {
    expect(eventEntity(base, ctx)).toEqual({
      id: 9, title: null, project_id: 2, action_name: "opened", target_id: 30, target_iid: 3, target_type: "Issue", author_id: 4,
      author: { id: 4, username: "ann", name: "Ann", state: "active", locked: false, avatar_url: null, web_url: "https://h/ann" },
      author_username: "ann", target_title: "Bug", created_at: "2024-05-01T12:00:00.000Z", data: null,
    });
  });

  it("user lists leave out target_iid, data and noteable_iid; note only for notes; push_data only for pushes", () => {
    const note = { id: 30, body: "hi", attachment: null, authorId: 4, createdAt: new Date(0), system: false, noteableType: "Issue", noteableId: 7, noteableIid: 1 };
    const noted = eventEntity({ ...base, action: "commented", targetType: "Note", note }, { ...ctx, projectList: false });
    expect(noted).not.toHaveProperty("target_iid");
    expect(noted).not.toHaveProperty("data");
    expect(noted).not.toHaveProperty("push_data");
    expect(noted.note).toEqual({ id: 30, body: "hi", attachment: null, author: expect.objectContaining({ username: "ann" }), created_at: "1970-01-01T00:00:00.000Z", system: false, noteable_id: 7, noteable_type: "Issue" });
    expect(eventEntity({ ...base, action: "commented", targetType: "Note", note }, ctx).note).toMatchObject({ noteable_iid: 1 });
    const pushed = eventEntity({ ...base, action: "pushed", targetType: null, targetId: null, targetIid: null, targetTitle: null, push: push("pushed") }, ctx);
    expect(pushed).toMatchObject({ target_type: null, action_name: "pushed to", push_data: { commit_count: 1, action: "pushed", ref_type: "branch", commit_from: null, commit_to: null, ref: "main", commit_title: "t", ref_count: null } });
    expect(pushed).not.toHaveProperty("note");
  });

  it("an author the users map lacks renders without `author`", () => {
    const out = eventEntity({ ...base, authorId: 77 }, ctx);
    expect(out).not.toHaveProperty("author");
    expect(out.author_username).toBeNull();
  });
});
