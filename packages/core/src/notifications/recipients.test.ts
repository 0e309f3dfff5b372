import { describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import type { RecipientsQuery } from "./recipients.js";
import type { NotificationSettingsInput, NotificationTarget } from "./settings.js";

/**
 * A private project `team/squad/app` (group `team`, subgroup `squad`) and one member per setting.
 * Every user is a Developer of `team` unless named otherwise.
 */
async function world(options: Parameters<typeof createTestForgekit>[0] = {}) {
  const t = await createTestForgekit(options);
  const team = await t.createGroup({ name: "Team", path: "team", visibility: "private" });
  const squad = await t.createGroup({ name: "Squad", path: "squad", parentId: team.id, visibility: "private" });
  const project = await t.createProject({ namespaceId: squad.id, path: "app", name: "app", visibility: "private", creatorId: null });
  const member = async (username: string) => {
    const user = await t.createUser({ username });
    await t.addMember({ group: team }, user, AccessLevel.Developer);
    return user;
  };
  const set = (user: User, target: NotificationTarget, input: NotificationSettingsInput) => must(t.fk.notificationSettings.update(user, target, input));
  const recipients = async (query: Omit<RecipientsQuery, "project"> & { project?: Project }) =>
    (await must(t.fk.notificationRecipients({ ...query, project: (query.project ?? project).id }))).map((r) => `${r.user.username}:${r.reason}`);
  return { t, team, squad, project, member, set, recipients };
}

describe("notificationRecipients", () => {
  it("levels: participating needs involvement, watch always, mention needs a mention, disabled never", async () => {
    const w = await world();
    const plain = await w.member("plain");
    const watcher = await w.member("watcher");
    const quiet = await w.member("quiet");
    const off = await w.member("off");
    await w.set(watcher, { type: "project", id: w.project.id }, { level: "watch" });
    await w.set(quiet, { type: "global" }, { level: "mention" });
    await w.set(off, { type: "project", id: w.project.id }, { level: "disabled" });
    expect(await w.recipients({ event: "new_issue" })).toEqual(["watcher:watch"]);
    expect(await w.recipients({ event: "new_issue", participants: [plain.id, quiet.id, off.id] })).toEqual(["plain:participation", "watcher:watch"]);
    expect(await w.recipients({ event: "new_note", mentioned: [plain.id, quiet.id, off.id, watcher.id] })).toEqual(["plain:mention", "watcher:mention", "quiet:mention"]);
  });

  it("custom: the event key decides, and involvement still counts; failed_pipeline is on by default", async () => {
    const w = await world();
    const custom = await w.member("custom");
    await w.set(custom, { type: "group", id: w.team.id }, { level: "custom", events: { new_issue: true } });
    expect(await w.recipients({ event: "new_issue" })).toEqual(["custom:custom"]);
    expect(await w.recipients({ event: "close_issue" })).toEqual([]);
    expect(await w.recipients({ event: "close_issue", participants: [custom.id] })).toEqual(["custom:participation"]);
    expect(await w.recipients({ event: "failed_pipeline" })).toEqual(["custom:custom"]);
  });

  it("push_to_merge_request, issue_due and success_pipeline never reach watch or participating", async () => {
    const w = await world();
    const watcher = await w.member("watcher");
    const plain = await w.member("plain");
    const custom = await w.member("custom");
    await w.set(watcher, { type: "global" }, { level: "watch" });
    await w.set(custom, { type: "global" }, { level: "custom", events: { push_to_merge_request: true } });
    for (const event of ["push_to_merge_request", "issue_due", "success_pipeline"] as const) {
      const expected = event === "push_to_merge_request" ? ["custom:custom"] : [];
      expect([event, await w.recipients({ event, participants: [watcher.id, plain.id] })]).toEqual([event, expected]);
    }
  });

  it("resolution: project, then the nearest group that is not global, then the global setting", async () => {
    const w = await world();
    const user = await w.member("layered");
    await w.set(user, { type: "global" }, { level: "disabled" });
    await w.set(user, { type: "group", id: w.team.id }, { level: "watch" });
    expect(await w.recipients({ event: "new_issue" })).toEqual(["layered:watch"]);
    await w.set(user, { type: "group", id: w.squad.id }, { level: "mention" });
    expect(await w.recipients({ event: "new_issue" })).toEqual([]);
    await w.set(user, { type: "project", id: w.project.id }, { level: "global" });
    expect(await w.recipients({ event: "new_issue", mentioned: [user.id] })).toEqual(["layered:mention"]);
    await w.set(user, { type: "group", id: w.squad.id }, { level: "global" });
    await w.set(user, { type: "group", id: w.team.id }, { level: "global" });
    expect(await w.recipients({ event: "new_issue", mentioned: [user.id] })).toEqual([]);
    await w.set(user, { type: "project", id: w.project.id }, { level: "watch" });
    expect(await w.recipients({ event: "new_issue" })).toEqual(["layered:watch"]);
  });

  it("never the actor, blocked or deactivated users, bots, or users who cannot read the project", async () => {
    const w = await world();
    const actor = await w.member("actor");
    const blocked = await w.member("blocked");
    const away = await w.member("away");
    const stranger = await w.t.createUser({ username: "stranger" });
    for (const user of [actor, blocked, away, stranger]) await w.set(user, { type: "global" }, { level: "watch" });
    await must(w.t.fk.users.block(blocked.id));
    await must(w.t.fk.users.deactivate(away.id));
    const everyone = [actor.id, blocked.id, away.id, stranger.id];
    expect(await w.recipients({ event: "new_note", actor: actor.id, participants: everyone, mentioned: everyone })).toEqual([]);
  });

  it("a global watch covers projects the user belongs to; a project setting covers a public project of a non-member", async () => {
    const w = await world();
    const publicProject = w.t.projects.publicProject;
    const outsider = await w.t.createUser({ username: "outsider" });
    await w.set(outsider, { type: "global" }, { level: "watch" });
    expect(await w.recipients({ event: "new_issue", project: publicProject })).toEqual([]);
    await w.set(outsider, { type: "project", id: publicProject.id }, { level: "watch" });
    expect(await w.recipients({ event: "new_issue", project: publicProject })).toEqual(["outsider:watch"]);
  });

  it("members through the project and the personal namespace's owner count; expired memberships do not", async () => {
    const w = await world();
    const direct = await w.t.createUser({ username: "direct" });
    const expired = await w.t.createUser({ username: "expired" });
    await w.t.addMember({ project: w.project }, direct, AccessLevel.Reporter);
    await must(w.t.fk.members.add({ sourceType: "project", sourceId: w.project.id, userId: expired.id, accessLevel: AccessLevel.Developer, expiresAt: new Date("2024-05-02T00:00:00Z") }));
    for (const user of [direct, expired, w.t.users.alice]) await w.set(user, { type: "global" }, { level: "watch" });
    expect(await w.recipients({ event: "new_issue" })).toEqual(["direct:watch", "expired:watch"]);
    w.t.clock.set("2024-06-01T00:00:00Z");
    expect(await w.recipients({ event: "new_issue" })).toEqual(["direct:watch"]);
    expect(await w.recipients({ event: "new_issue", project: w.t.projects.personal })).toEqual(["alice:watch"]);
  });

  it("addresses: the chosen notification e-mail, else the primary one", async () => {
    const w = await world();
    const user = await w.member("mailer");
    await must(w.t.fk.users.addEmail(user.id, "mailer@work.example"));
    await w.set(user, { type: "global" }, { level: "watch", notificationEmail: "mailer@work.example" });
    const other = await w.member("other");
    await w.set(other, { type: "project", id: w.project.id }, { level: "watch" });
    const found = await must(w.t.fk.notificationRecipients({ project: "team/squad/app", event: "new_issue" }));
    expect(found.map((r) => [r.user.username, r.email, r.level, r.reason])).toEqual([
      ["mailer", "mailer@work.example", "watch", "watch"],
      ["other", "other@example.com", "watch", "watch"],
    ]);
  });

  it("errors: unknown project; an event key the tier does not serve", async () => {
    const free: TestForgekit = await createTestForgekit();
    expect((await free.fk.notificationRecipients({ project: 99999, event: "new_issue" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await free.fk.notificationRecipients({ project: free.projects.publicProject.id, event: "new_epic" }))._unsafeUnwrapErr()).toEqual({
      code: "invalid_param",
      param: "event",
      reason: "does not have a valid value",
    });
    const ultimate = await world({ tier: "ultimate" });
    const user = await ultimate.member("epic");
    await ultimate.set(user, { type: "group", id: ultimate.team.id }, { level: "custom", events: { new_epic: true } });
    expect(await ultimate.recipients({ event: "new_epic" })).toEqual(["epic:custom"]);
  });
});
