/** `forgekit notifications show|set|recipients` on a temporary SQLite file. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox } from "../test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

beforeAll(async () => {
  expect((await sandbox.run("migrate")).code).toBe(0);
  for (const username of ["alice", "bob", "carol"]) {
    expect((await sandbox.run("users", "create", "--username", username, "--name", username, "--email", `${username}@example.com`)).code).toBe(0);
  }
  expect((await sandbox.run("groups", "create", "--path", "eng", "--visibility", "private", "--owner", "alice")).code).toBe(0);
  expect((await sandbox.run("projects", "create", "--namespace", "eng", "--name", "api")).code).toBe(0);
  expect((await sandbox.run("members", "add", "--group", "eng", "--user", "bob", "--access-level", "developer")).code).toBe(0);
});

describe("notifications show and set", () => {
  it("shows the defaults", async () => {
    expect((await sandbox.run("notifications", "show", "--user", "alice")).stdout).toBe("@alice global: participating\nnotification e-mail: alice@example.com\n");
    expect((await sandbox.run("--json", "notifications", "show", "--user", "bob", "--project", "eng/api")).json()).toEqual({ level: "global" });
  });

  it("sets a level and custom events", async () => {
    const set = await sandbox.run("notifications", "set", "--user", "bob", "--project", "eng/api", "--level", "custom", "--event", "new_issue", "--event", "new_note=true");
    expect(set).toMatchObject({ code: 0, stdout: "@bob project eng/api: custom\nevents on: new_note, new_issue, failed_pipeline, fixed_pipeline\n" });
    const off = await sandbox.run("--json", "notifications", "set", "--user", "bob", "--project", "eng/api", "--event", "new_note=false");
    expect(off.json<{ events: Record<string, boolean> }>().events).toMatchObject({ new_note: false, new_issue: true });
    const watch = await sandbox.run("notifications", "set", "--user", "alice", "--group", "eng", "--level", "watch");
    expect(watch.stdout).toBe("@alice group eng: watch\n");
  });

  it("refuses what the API refuses, and malformed options", async () => {
    expect(await sandbox.run("notifications", "set", "--user", "alice", "--email", "bob@example.com")).toMatchObject({
      code: 1,
      stderr: "error: notification_email is not an email you own\n",
    });
    expect(await sandbox.run("notifications", "show", "--user", "carol", "--project", "eng/api")).toMatchObject({ code: 1, stderr: "error: Project not found\n" });
    expect((await sandbox.run("notifications", "set", "--user", "alice", "--level", "loud")).code).toBe(2);
    expect((await sandbox.run("notifications", "set", "--user", "alice", "--event", "new_epic")).code).toBe(2);
    expect((await sandbox.run("notifications", "set", "--user", "alice", "--event", "new_note=maybe")).code).toBe(2);
    expect((await sandbox.run("notifications", "set", "--user", "alice", "--group", "eng", "--email", "x@example.com")).code).toBe(2);
    expect((await sandbox.run("notifications", "show", "--user", "alice", "--group", "eng", "--project", "eng/api")).code).toBe(2);
  });
});

describe("the licensed tier (--tier / FORGEKIT_TIER)", () => {
  it("new_epic is served on ultimate only", async () => {
    expect((await sandbox.run("--tier", "ultimate", "notifications", "set", "--user", "carol", "--level", "custom", "--event", "new_epic")).code).toBe(0);
    const shown = await sandbox.run("--json", "--tier", "ultimate", "notifications", "show", "--user", "carol");
    expect(shown.json<{ events: Record<string, boolean> }>().events).toMatchObject({ new_epic: true });
    expect((await sandbox.run("--tier", "premium", "notifications", "set", "--user", "carol", "--event", "new_epic")).code).toBe(2);
  });
  it("an unknown tier is a usage error", async () => {
    expect(await sandbox.run("--tier", "gold", "users", "list")).toMatchObject({ code: 2 });
  });
});

describe("notifications recipients", () => {
  it("lists who would be e-mailed, without the actor", async () => {
    const issue = await sandbox.run("notifications", "recipients", "--project", "eng/api", "--event", "new_issue");
    expect(issue.stdout).toBe("@alice <alice@example.com> (watch, level watch)\n@bob <bob@example.com> (custom, level custom)\n");
    const json = await sandbox.run("--json", "notifications", "recipients", "--project", "eng/api", "--event", "new_note", "--actor", "alice", "--mentioned", "carol");
    expect(json.json()).toEqual([]);
    const mentioned = await sandbox.run("notifications", "recipients", "--project", "eng/api", "--event", "close_issue", "--actor", "bob", "--participant", "bob", "--mentioned", "alice");
    expect(mentioned.stdout).toBe("@alice <alice@example.com> (mention, level watch)\n");
    expect((await sandbox.run("notifications", "recipients", "--project", "eng/api", "--event", "nothing")).code).toBe(2);
    expect((await sandbox.run("notifications", "recipients", "--project", "eng/api", "--event", "new_issue", "--actor", "ghost")).stderr).toBe("error: User not found\n");
  });
});
