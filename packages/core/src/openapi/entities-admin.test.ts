/**
 * The hook, instance, application, error-tracking and import schemas of the OpenAPI document
 * against real responses of a seeded instance, each schema made strict at every depth
 * (testing/schema-check.ts): no field missing, none unknown.
 */
import { afterAll, describe, expect, it } from "vitest";
import { restExtForge } from "../imports/extforge/client.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { startHookReceiver, type HookReceiver } from "../testing/hook-receiver.js";
import { startExtForgeStandIn } from "../testing/import-stand-ins/index.js";
import { apiCaller, schemaChecks } from "../testing/schema-check.js";


const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function world(options: Parameters<typeof createTestForgekit>[0] = {}) {
  const t = await createTestForgekit(options);
  const call = apiCaller(t.fk, t.tokens.root);
  const { send, checked, checkedList } = schemaChecks(call, expect);
  return { t, send, checked, checkedList };
}

describe("entity schemas against real responses: hooks, instance, applications, error tracking, imports", () => {
  it("ProjectHook, GroupHook, SystemHook, HookLog and Message match", async () => {
    const receiver: HookReceiver = await startHookReceiver();
    closers.push(() => receiver.close());
    const { t, send, checked, checkedList } = await world({ tier: "premium", imports: { allowLocalNetwork: true } });
    const project = `/projects/${t.projects.publicProject.id}`;
    await send("POST", `${project}/repository/commits`, { branch: "main", commit_message: "first", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] });
    const group = `/groups/${t.groups.grp.id}`;
    for (const [entity, base] of [["ProjectHook", project], ["GroupHook", group], ["SystemHook", ""]] as const) {
      const hook = await checked(entity, "POST", `${base}/hooks`, { url: receiver.url, name: "ci", description: "the CI", token: "secret", push_events_branch_filter: "main", issues_events: true });
      const path = `${base}/hooks/${String(hook["id"])}`;
      await checkedList(entity, `${base}/hooks`);
      await checked(entity, "GET", path);
      await checked(entity, "PUT", path, { url: receiver.url, enable_ssl_verification: false });
      if (base === "") await checked("SystemHookTestSample", "POST", path);
      else await checked("Message", "POST", `${path}/test/push_events`);
      await checkedList("HookLog", `${path}/events`);
    }
  });

  it("Metadata, ApplicationSettings, Application(WithSecret), True, PersonalAccessToken, ErrorTracking* and ProjectImport(Status) match", async () => {
    const forge = await startExtForgeStandIn({
      users: [{ id: 7, login: "octocat", name: "Octo Cat", email: "alice@example.com", token: "forge-token" }],
      repos: [{ id: 501, owner: "octocat", name: "hello", git: { defaultBranch: "main", commits: [{ message: "first", files: { "README.md": "# hi\n" } }] } }],
    });
    closers.push(() => forge.close());
    const { t, checked, checkedList } = await world({ imports: { allowLocalNetwork: true, extForge: (options) => restExtForge({ ...options, hostname: options.hostname ?? forge.url }) } });
    await checked("Metadata", "GET", "/metadata");
    await checked("ApplicationSettings", "GET", "/application/settings");
    await checked("ApplicationSettings", "PUT", "/application/settings", { impersonation_enabled: false, default_branch_protection: 1 });
    const app = await checked("ApplicationWithSecret", "POST", "/applications", { name: "CI", redirect_uri: "https://ci.example.com/callback", scopes: "api read_user" });
    await checkedList("Application", "/applications");
    await checked("ApplicationWithSecret", "POST", `/applications/${String(app["id"])}/renew-secret`);
    for (const action of ["block", "unblock", "deactivate", "activate"]) await checked("True", "POST", `/users/${t.users.bob.id}/${action}`);
    await checked("PersonalAccessToken", "GET", "/personal_access_tokens/self", undefined, { token: t.tokens.alice });

    const project = `/projects/${t.projects.publicProject.id}`;
    await checked("ErrorTrackingSettings", "PUT", `${project}/error_tracking/settings`, { active: true, integrated: true });
    await checked("ErrorTrackingSettings", "PATCH", `${project}/error_tracking/settings`, { active: false });
    await checked("ErrorTrackingSettings", "GET", `${project}/error_tracking/settings`);
    await checked("ErrorTrackingClientKey", "POST", `${project}/error_tracking/client_keys`);
    await checkedList("ErrorTrackingClientKey", `${project}/error_tracking/client_keys`);

    await checked("ProjectImportStatus", "GET", `${project}/import`);
    const started = await checked("ProjectImport", "POST", "/import/extforge", { personal_access_token: "forge-token", repo_id: 501, target_namespace: "grp", extforge_hostname: forge.url }, { token: t.tokens.alice });
    await checked("ProjectImportStatus", "GET", `/projects/${String(started["id"])}/import`, undefined, { token: t.tokens.alice });
    await checked("ProjectImport", "POST", "/import/extforge/cancel", { project_id: started["id"] }, { token: t.tokens.alice });
    await checked("ProjectImportStatus", "GET", `/projects/${String(started["id"])}/import`, undefined, { token: t.tokens.alice });
  });

  it("the per-caller and per-parameter variants, GroupDetail, the storage moves with their containers, Message and OpenApiDocument match", async () => {
    const { t, send, checked, checkedList } = await world({ tier: "premium", repositoryStorages: ["default", "second"], openapi: { serve: true } });
    const alice = { token: t.tokens.alice };
    for (const opts of [{}, alice]) {
      await checked("CurrentUser", "GET", "/user", undefined, opts);
      await checked("UserForViewer", "GET", `/users/${t.users.bob.id}`, undefined, opts);
      await checkedList("UserListEntry", "/users", opts);
      await checkedList("ProjectListEntry", "/projects", opts);
      await checkedList("ProjectListEntry", "/projects", { ...opts, query: "simple=true" });
      await checkedList("ProjectListEntry", `/groups/${t.groups.grp.id}/projects`, { ...opts, query: "simple=true" });
      await checkedList("ProjectListEntry", `/users/${t.users.alice.id}/projects`, { ...opts, query: "simple=true" });
    }
    await checked("GroupDetail", "GET", `/groups/${t.groups.grp.id}`, undefined, alice);
    await checked("GroupDetail", "GET", `/groups/${t.groups.grp.id}`, undefined, { ...alice, query: "with_projects=false" });
    const group = await checked("GroupDetail", "POST", "/groups", { name: "New", path: "new" }, alice);
    await checked("GroupDetail", "PUT", `/groups/${String(group["id"])}`, { description: "changed" }, alice);

    const project = t.projects.publicProject.id;
    await send("POST", `/projects/${project}/repository/commits`, { branch: "main", commit_message: "first", actions: [{ action: "create", file_path: "README.md", content: "hi\n" }] });
    const snippet = (await send("POST", "/snippets", { title: "s", visibility: "private", files: [{ file_path: "a.txt", content: "a\n" }] })) as { id: number };
    const moves = [
      ["ProjectRepositoryStorageMove", "project", `/projects/${project}`],
      ["SnippetRepositoryStorageMove", "snippet", `/snippets/${snippet.id}`],
      ["GroupRepositoryStorageMove", "group", `/groups/${t.groups.grp.id}`],
    ] as const;
    for (const [entity, kind, container] of moves) {
      const move = await checked(entity, "POST", `${container}/repository_storage_moves`, { destination_storage_name: "second" });
      await checkedList(entity, `${container}/repository_storage_moves`);
      await checked(entity, "GET", `${container}/repository_storage_moves/${String(move["id"])}`);
      await checkedList(entity, `/${kind}_repository_storage_moves`);
      await checked(entity, "GET", `/${kind}_repository_storage_moves/${String(move["id"])}`);
      await checked("Message", "POST", `/${kind}_repository_storage_moves`, { source_storage_name: "second", destination_storage_name: "default" });
    }
    await checked("OpenApiDocument", "GET", "/openapi.json");
    await checked("Message", "DELETE", `/projects/${t.projects.hidden.id}`);
    await checked("Message", "DELETE", `/groups/${String(group["id"])}`, undefined, alice);
  });
});
