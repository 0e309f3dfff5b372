/**
 * A client generated from the OpenAPI document types real responses (issue 19 §3): openapi-typescript
 * turns the instance's document into `paths`, each real response body of a seeded instance is
 * written out as a literal of its operation's generated success type, and the TypeScript compiler
 * (strict) must accept the file — a field the document does not know is an excess property, a wrong
 * type or a missing required field an error. Controls show the check can fail: the same types refuse
 * a number, and the current user with one wrong field.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { apiCaller } from "../testing/schema-check.js";

type Json = Record<string, unknown>;
type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const dir = mkdtempSync(join(tmpdir(), "forgekit-openapi-client-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The TypeScript diagnostics of `files` (in `dir`), as `file: message` lines. */
function diagnostics(files: readonly string[]): string[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: false, types: [] },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file === undefined ? "" : d.file.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").slice(0, 400)}`);
}

/** The 2xx status the document declares for `method path` (the key of the generated response type). */
function successStatus(doc: Document, path: string, method: string): string {
  const operation = doc.paths[path]?.[method];
  if (operation === undefined) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  const status = Object.keys(operation.responses).find((s) => /^2\d\d$/.test(s));
  if (status === undefined) throw new Error(`${method.toUpperCase()} ${path} declares no success response`);
  return status;
}

describe("a client generated from the OpenAPI document with openapi-typescript", () => {
  it("types the real responses of users, projects, groups, issues, merge requests, the repository, releases, labels, statuses and hooks", async () => {
    const t = await createTestForgekit({ tier: "premium" });
    const doc = t.fk.openApi() as unknown as Document;
    writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(doc as never)));

    const call = apiCaller(t.fk, t.tokens.alice);
    const send = async (method: string, path: string, body?: Json): Promise<Json> => {
      const r = await call(method, path, body);
      expect([method, path, r.status]).toEqual([method, path, method === "POST" ? 201 : 200]);
      return r.json as Json;
    };
    const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "client", name: "client", visibility: "private", creatorId: t.users.alice.id });
    await t.addMember({ project }, t.users.bob, AccessLevel.Developer);
    const api = `/projects/${project.id}`;
    const commit = (await send("POST", `${api}/repository/commits`, { branch: "main", commit_message: "add README", actions: [{ action: "create", file_path: "README.md", content: "hello\n" }] })) as { id: string };
    await send("POST", `${api}/repository/commits`, { branch: "feature", start_branch: "main", commit_message: "add feature", actions: [{ action: "create", file_path: "feature.txt", content: "new\n" }] });
    await send("POST", `${api}/statuses/${commit.id}`, { state: "success", ref: "main", name: "ci" });
    await send("POST", `${api}/labels`, { name: "bug", color: "#ff0000" });
    const milestone = await send("POST", `${api}/milestones`, { title: "v1" });
    const issue = await send("POST", `${api}/issues`, { title: "Broken", description: "- [ ] fix", labels: "bug", milestone_id: milestone["id"], assignee_ids: [t.users.bob.id] });
    await send("POST", `${api}/issues/${String(issue["iid"])}/notes`, { body: "seen" });
    const mr = await send("POST", `${api}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "Add feature", description: `Closes #${String(issue["iid"])}`, reviewer_ids: [t.users.bob.id] });
    await send("POST", `${api}/repository/tags`, { tag_name: "v1.0.0", ref: "main" });
    await send("POST", `${api}/releases`, { tag_name: "v1.0.0", name: "One", description: "First" });
    await send("POST", `${api}/hooks`, { url: "https://hooks.example.com/forgekit", push_events: true });

    // [document path, concrete path] of each GET whose real body is typed.
    const reads: [string, string][] = [
      ["/user", "/user"],
      ["/users", "/users"],
      ["/users/{id}", `/users/${t.users.bob.id}`],
      ["/projects", "/projects"],
      ["/projects/{id}", api],
      ["/projects/{id}/members/all", `${api}/members/all`],
      ["/groups", "/groups"],
      ["/groups/{id}", `/groups/${t.groups.grp.id}`],
      ["/namespaces", "/namespaces"],
      ["/projects/{id}/issues", `${api}/issues`],
      ["/projects/{id}/issues/{issue_iid}", `${api}/issues/${String(issue["iid"])}`],
      ["/projects/{id}/issues/{issue_iid}/notes", `${api}/issues/${String(issue["iid"])}/notes`],
      ["/projects/{id}/issues/{issue_iid}/discussions", `${api}/issues/${String(issue["iid"])}/discussions`],
      ["/projects/{id}/milestones", `${api}/milestones`],
      ["/projects/{id}/labels", `${api}/labels`],
      ["/projects/{id}/merge_requests", `${api}/merge_requests`],
      ["/projects/{id}/merge_requests/{merge_request_iid}", `${api}/merge_requests/${String(mr["iid"])}`],
      ["/projects/{id}/merge_requests/{merge_request_iid}/changes", `${api}/merge_requests/${String(mr["iid"])}/changes`],
      ["/projects/{id}/repository/branches", `${api}/repository/branches`],
      ["/projects/{id}/repository/tags", `${api}/repository/tags`],
      ["/projects/{id}/repository/commits", `${api}/repository/commits`],
      ["/projects/{id}/repository/commits/{sha}", `${api}/repository/commits/${commit.id}`],
      ["/projects/{id}/repository/commits/{sha}/statuses", `${api}/repository/commits/${commit.id}/statuses`],
      ["/projects/{id}/repository/tree", `${api}/repository/tree`],
      ["/projects/{id}/repository/compare", `${api}/repository/compare?from=main&to=feature`],
      ["/projects/{id}/releases", `${api}/releases`],
      ["/projects/{id}/releases/{tag_name}", `${api}/releases/v1.0.0`],
      ["/projects/{id}/hooks", `${api}/hooks`],
      ["/projects/{id}/protected_branches", `${api}/protected_branches`],
      ["/projects/{id}/pipelines", `${api}/pipelines`],
      ["/projects/{id}/events", `${api}/events`],
      ["/version", "/version"],
    ];
    const lines = ['import type { paths } from "./api";', ""];
    // And a number for each: every generated type must refuse it (none is `unknown`, `any` or `{}`).
    const numbers = [...lines];
    for (const [index, [path, concrete]] of reads.entries()) {
      const [plain, query = ""] = concrete.split("?");
      const body = (await call("GET", plain ?? concrete, undefined, { query })).json;
      expect([path, Array.isArray(body) ? body.length > 0 : body !== null]).toEqual([path, true]);
      const type = `paths[${JSON.stringify(path)}]["get"]["responses"][${successStatus(doc, path, "get")}]["content"]["application/json"]`;
      lines.push(`export const r${index}: ${type} = ${JSON.stringify(body)};`);
      numbers.push(`export const n${index}: ${type} = 42;`);
    }
    writeFileSync(join(dir, "responses.ts"), `${lines.join("\n")}\n`);
    expect(diagnostics(["responses.ts"])).toEqual([]);
    writeFileSync(join(dir, "numbers.ts"), `${numbers.join("\n")}\n`);
    expect(diagnostics(["numbers.ts"])).toHaveLength(reads.length);

    // The control: the current user with a string id and a field the document does not know.
    const user = (await call("GET", "/user")).json as Json;
    writeFileSync(
      join(dir, "control.ts"),
      [
        'import type { paths } from "./api";',
        `export const wrongType: paths["/user"]["get"]["responses"][200]["content"]["application/json"] = ${JSON.stringify({ ...user, id: "one" })};`,
        `export const unknownField: paths["/user"]["get"]["responses"][200]["content"]["application/json"] = ${JSON.stringify({ ...user, not_in_the_document: true })};`,
        "",
      ].join("\n"),
    );
    expect(diagnostics(["control.ts"])).toEqual([
      "control.ts: Type 'string' is not assignable to type 'number'.",
      expect.stringContaining(`'"not_in_the_document"' does not exist in type`),
    ]);
  }, 120_000);
});
