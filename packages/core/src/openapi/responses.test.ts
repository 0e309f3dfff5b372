/**
 * The success responses of the OpenAPI document carry real schemas, and those schemas describe what
 * a seeded instance really answers.
 */
import * as z from "zod";
import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { schemaIssues } from "../testing/schema-check.js";
import { ENTITY_SCHEMAS } from "./entities.js";

/** JSON success responses documented as `{}`: none are left, and none may come back. */
const SCHEMALESS_LIMIT = 0;

describe("success responses of the OpenAPI document", () => {
  it("every `$ref` names a component schema, and no more JSON success responses lack a schema than the known remainder", async () => {
    const { fk } = await createTestForgekit();
    const doc = fk.openApi();
    const schemas = doc.components["schemas"] ?? {};
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (!status.startsWith("2") || status === "204") continue;
          const content = (response as { content?: Record<string, { schema?: Record<string, unknown> }> }).content;
          // Raw bytes (files, archives), redirects and bodyless answers are documented as such, not as JSON.
          if (content === undefined || content["application/json"] === undefined) {
            expect(status === "302" || status === "202" || Object.keys(content ?? {}).length > 0, `${method.toUpperCase()} ${path}`).toBe(true);
            continue;
          }
          const schema = content["application/json"].schema;
          const target = (schema?.["type"] === "array" ? schema["items"] : schema) as { $ref?: string } | undefined;
          if (target?.$ref === undefined) {
            missing.push(`${method.toUpperCase()} ${path}`);
            continue;
          }
          expect(Object.keys(schemas)).toContain(target.$ref.replace("#/components/schemas/", ""));
        }
      }
    }
    expect(missing.length, missing.join("\n")).toBeLessThanOrEqual(SCHEMALESS_LIMIT);
  });
});

describe("entity schemas against real responses", () => {
  it("users, projects, groups, members, issues, notes, discussions, milestones, namespaces, branches, tags and commits match GET responses of a seeded instance", async () => {
    const t = await createTestForgekit();
    const headers = { "private-token": t.tokens.alice, "content-type": "application/json" };
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await t.fk.handle({ method, path: `/api/v4${path}`, rawQuery: "", headers, ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }) });
      expect(r.status, `${method} ${path}`).toBeLessThan(300);
      return JSON.parse(String(r.body)) as unknown;
    };
    const project = t.projects.publicProject.id;
    const milestone = (await call("POST", `/projects/${project}/milestones`, { title: "v1", due_date: "2030-01-01" })) as { id: number };
    const issue = (await call("POST", `/projects/${project}/issues`, { title: "Broken", description: "- [ ] a", milestone_id: milestone.id })) as { iid: number };
    await call("POST", `/projects/${project}/issues/${issue.iid}/notes`, { body: "Indeed" });
    const checks: [z.ZodType, string][] = [
      [ENTITY_SCHEMAS.UserSelf, "/user"],
      [z.array(ENTITY_SCHEMAS.UserBasic), "/users"],
      [ENTITY_SCHEMAS.Project, `/projects/${project}`],
      [z.array(ENTITY_SCHEMAS.Project), "/projects"],
      [z.array(ENTITY_SCHEMAS.Group), "/groups"],
      [z.array(ENTITY_SCHEMAS.Member), `/projects/${project}/members/all`],
      [z.array(ENTITY_SCHEMAS.Issue), `/projects/${project}/issues`],
      [z.array(ENTITY_SCHEMAS.Note), `/projects/${project}/issues/${issue.iid}/notes`],
      [z.array(ENTITY_SCHEMAS.Discussion), `/projects/${project}/issues/${issue.iid}/discussions`],
      [ENTITY_SCHEMAS.Milestone, `/projects/${project}/milestones/${milestone.id}`],
      [z.array(ENTITY_SCHEMAS.Namespace), "/namespaces"],
      [ENTITY_SCHEMAS.NotificationSettings, "/notification_settings"],
      [z.array(ENTITY_SCHEMAS.Branch), `/projects/${project}/repository/branches`],
      [z.array(ENTITY_SCHEMAS.Tag), `/projects/${project}/repository/tags`],
      [z.array(ENTITY_SCHEMAS.Commit), `/projects/${project}/repository/commits`],
      [z.array(ENTITY_SCHEMAS.ProtectedBranch), `/projects/${project}/protected_branches`],
    ];
    // Strict at every depth: no field missing, none unknown (testing/schema-check.ts).
    for (const [schema, path] of checks) expect(schemaIssues(schema, await call("GET", path)), path).toEqual([]);
  });
});
