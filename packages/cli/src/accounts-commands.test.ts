/** `forgekit groups|projects|members|tokens` on a temporary SQLite file, checked through the API too. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createForgekit, TOKEN_SCOPES } from "@forgekit/core";
import { fromUrl, kyselyStore } from "@forgekit/store-kysely";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

/** GET through a fresh instance over the sandbox database (proves a printed token really works). */
async function apiGet(path: string, token: string) {
  const store = kyselyStore(fromUrl(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store });
    const response = await fk.handle({ method: "GET", path, rawQuery: "", headers: { "private-token": token } });
    return { status: response.status, body: JSON.parse(String(response.body)) as Record<string, unknown> };
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  expect((await sandbox.run("migrate")).code).toBe(0);
  for (const [username, admin] of [["root", true], ["alice", false], ["bob", false]] as const) {
    const args = ["users", "create", "--username", username, "--name", username, "--email", `${username}@example.com`];
    expect((await sandbox.run(...args, ...(admin ? ["--admin"] : []))).code).toBe(0);
  }
});

describe("groups and projects", () => {
  it("creates a group, a subgroup and projects in group and user namespaces", async () => {
    const group = await sandbox.run("--json", "groups", "create", "--path", "eng", "--name", "Engineering", "--visibility", "public", "--owner", "alice");
    expect(group.code).toBe(0);
    expect(group.json()).toMatchObject({ full_path: "eng", name: "Engineering", visibility: "public", parent_id: null });
    const sub = await sandbox.run("groups", "create", "--path", "backend", "--parent", "eng", "--visibility", "internal");
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^created group \d+ eng\/backend "backend" \(internal\)\n$/);

    const project = await sandbox.run("--json", "projects", "create", "--namespace", "eng/backend", "--name", "API Server", "--visibility", "internal");
    expect(project.code).toBe(0);
    expect(project.json()).toMatchObject({ path_with_namespace: "eng/backend/api-server", visibility: "internal" });
    const personal = await sandbox.run("--json", "projects", "create", "--namespace", "bob", "--name", "Dotfiles", "--path", "dotfiles");
    expect(personal.json()).toMatchObject({ path_with_namespace: "bob/dotfiles", visibility: "private" });
  });

  it("reports invalid groups and projects", async () => {
    const open = await sandbox.run("groups", "create", "--path", "wide", "--parent", "eng/backend", "--visibility", "public");
    expect(open.code).toBe(1);
    expect(open.stderr).toBe("error: visibility_level public is not allowed since the parent group has a internal visibility.\n");
    expect((await sandbox.run("groups", "create", "--path", "x", "--parent", "nope")).stderr).toBe("error: Group not found\n");
    expect((await sandbox.run("groups", "create", "--path", "x", "--visibility", "secret")).code).toBe(2);
    const taken = await sandbox.run("groups", "create", "--path", "ENG");
    expect(taken).toMatchObject({ code: 1 });
    expect(taken.stderr).toContain("has already been taken");
    const nowhere = await sandbox.run("projects", "create", "--namespace", "ghost", "--name", "P");
    expect(nowhere).toMatchObject({ code: 1, stderr: "error: Namespace not found\n" });
  });
});

describe("members", () => {
  it("adds group and project members and refuses duplicates", async () => {
    const added = await sandbox.run("--json", "members", "add", "--group", "eng", "--user", "bob", "--access-level", "developer");
    expect(added.code).toBe(0);
    expect(added.json()).toMatchObject({ source_type: "group", access_level: 30, access_level_name: "developer" });
    const project = await sandbox.run("members", "add", "--project", "bob/dotfiles", "--user", "alice", "--access-level", "20", "--expires-at", "2099-12-31");
    expect(project).toMatchObject({ code: 0, stdout: "added @alice to project bob/dotfiles as reporter\n" });
    const again = await sandbox.run("members", "add", "--group", "eng", "--user", "bob", "--access-level", "guest");
    expect(again).toMatchObject({ code: 1, stderr: "error: Member already exists\n" });
  });

  it("checks its options", async () => {
    expect((await sandbox.run("members", "add", "--user", "bob", "--access-level", "guest")).stderr).toContain("give exactly one of --group or --project");
    expect((await sandbox.run("members", "add", "--group", "eng", "--project", "bob/dotfiles", "--user", "bob", "--access-level", "guest")).code).toBe(2);
    expect((await sandbox.run("members", "add", "--group", "eng", "--user", "bob", "--access-level", "boss")).code).toBe(2);
    expect((await sandbox.run("members", "add", "--group", "eng", "--user", "bob", "--access-level", "guest", "--expires-at", "soon")).code).toBe(2);
    expect((await sandbox.run("members", "add", "--project", "eng/nothing", "--user", "bob", "--access-level", "guest")).stderr).toBe("error: Project not found\n");
  });
});

describe("tokens", () => {
  it("creates a personal token, prints it once, and the API accepts it", async () => {
    const created = await sandbox.run("tokens", "create", "--kind", "personal", "--user", "alice", "--name", "laptop", "--scopes", "api,read_user");
    expect(created.code).toBe(0);
    const token = /^token: (\S+)$/m.exec(created.stdout)?.[1] ?? "";
    expect(token).toMatch(/^fkpat-/);
    expect(created.stdout).toContain("Store it now");
    expect(await apiGet("/api/v4/user", token)).toMatchObject({ status: 200, body: { username: "alice" } });
    const listed = await sandbox.run("tokens", "list", "--user", "alice");
    expect(listed.stdout).toContain('personal "laptop"');
    expect(listed.stdout).not.toContain(token);
  });

  it("creates impersonation tokens only for an administrator actor", async () => {
    const ok = await sandbox.run("--json", "tokens", "create", "--kind", "impersonation", "--user", "bob", "--actor", "root", "--name", "support", "--scopes", "read_api");
    expect(ok.code).toBe(0);
    expect(ok.json()).toMatchObject({ kind: "impersonation", name: "support", scopes: ["read_api"], token: expect.stringMatching(/^fkpat-/) });
    const refused = await sandbox.run("tokens", "create", "--kind", "impersonation", "--user", "bob", "--actor", "alice", "--name", "x", "--scopes", "api");
    expect(refused).toMatchObject({ code: 1, stderr: "error: forbidden\n" });
  });

  it("creates project and group tokens backed by bot users", async () => {
    const project = await sandbox.run("--json", "tokens", "create", "--kind", "project", "--project", "eng/backend/api-server", "--name", "deploy", "--scopes", "read_api", "--access-level", "reporter");
    expect(project.code).toBe(0);
    const body = project.json<{ token: string; bot_username: string; kind: string }>();
    expect(body.kind).toBe("project");
    expect(body.bot_username).toMatch(/^project_\d+_bot_/);
    expect(await apiGet("/api/v4/projects/eng%2Fbackend%2Fapi-server", body.token)).toMatchObject({ status: 200 });
    const group = await sandbox.run("--json", "tokens", "create", "--kind", "group", "--group", "eng", "--name", "ci", "--scopes", "api", "--expires-at", "2099-01-01");
    expect(group.json()).toMatchObject({ kind: "group", expires_at: "2099-01-01" });
  });

  it("rejects invalid token requests", async () => {
    const wrongOption = await sandbox.run("tokens", "create", "--kind", "project", "--user", "alice", "--project", "1", "--name", "x", "--scopes", "api");
    expect(wrongOption).toMatchObject({ code: 2 });
    expect(wrongOption.stderr).toContain("--user does not apply to --kind project");
    expect((await sandbox.run("tokens", "create", "--kind", "deploy", "--name", "x", "--scopes", "api")).code).toBe(2);
    const scope = await sandbox.run("tokens", "create", "--kind", "personal", "--user", "alice", "--name", "x", "--scopes", "everything");
    // A bad scope is bad usage, and the error lists the valid ones.
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain(`error: --scopes: unknown scope "everything"; the valid scopes are ${TOKEN_SCOPES.join(", ")}\n`);
    const past = await sandbox.run("tokens", "create", "--kind", "personal", "--user", "alice", "--name", "x", "--scopes", "api", "--expires-at", "2001-01-01");
    expect(past).toMatchObject({ code: 1, stderr: "error: expires_at must be in the future\n" });
  });

  it("revokes tokens; the API then refuses them", async () => {
    const created = await sandbox.run("--json", "tokens", "create", "--kind", "personal", "--user", "bob", "--name", "temp", "--scopes", "api");
    const { id, token } = created.json<{ id: number; token: string }>();
    const revoked = await sandbox.run("--json", "tokens", "revoke", String(id));
    expect(revoked.code).toBe(0);
    expect(revoked.json()).toMatchObject({ id, revoked: true });
    expect((await apiGet("/api/v4/user", token)).status).toBe(401);
    expect((await sandbox.run("tokens", "revoke", "999999")).stderr).toBe("error: Token not found\n");
    expect((await sandbox.run("tokens", "revoke", "abc")).code).toBe(2);
    const inactive = await sandbox.run("--json", "tokens", "list", "--user", "bob", "--state", "inactive");
    expect(inactive.json<{ id: number }[]>().map((t) => t.id)).toContain(id);
  });
});
