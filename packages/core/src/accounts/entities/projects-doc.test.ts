/**
 * docs/entities.md's project table is the project entity's field list (issue 19 §1): every key a
 * project renders is listed with its source, and every field listed as anything but `fixed`
 * (stored, computed, counted, derived, the caller's) differs between two differently-configured
 * projects — no listed fact is a constant — while the `fixed` ones are the same for both.
 */
import { beforeAll, describe, expect } from "vitest";
import { AccessLevel, type User } from "../types.js";
import { createTestForgekit, type TestForgekit } from "../../testing/fixtures.js";
import { callApi, itHoldsTheEntityToItsTable } from "../../testing/entity-doc-table.js";

type Json = Record<string, unknown>;

describe("docs/entities.md: the project entity's fields", () => {
  let t: TestForgekit;
  let a: Json;
  let b: Json;
  const call = (method: string, path: string, user: User | null, json?: Json) => {
    const token = user === null ? undefined : user.id === t.users.root.id ? t.tokens.root : user.id === t.users.alice.id ? t.tokens.alice : t.tokens.bob;
    return callApi(t, method, path, token, json);
  };

  beforeAll(async () => {
    t = await createTestForgekit();
    // A: a public group project with a README, an open issue, a failed import, moved and read-only, every feature enabled.
    const made = await call("POST", "/projects", t.users.alice, { name: "doc-a", namespace_id: t.groups.grp.id, visibility: "public", description: "A", initialize_with_readme: true });
    expect(made.status).toBe(201);
    const idA = made.json["id"] as number;
    expect((await call("POST", `/projects/${idA}/issues`, t.users.alice, { title: "open" })).status).toBe(201);
    await t.store.imports.projects.create({ projectId: idA, source: "extforge", importSource: "o/r", url: "https://forge.example", userId: t.users.alice.id, options: "{}", credentials: null }, t.clock.now());
    await t.store.imports.projects.update(idA, ["scheduled"], { status: "failed", error: "boom" }, t.clock.now());
    await t.store.projects.update(idA, { repositoryReadOnly: true, repositoryStorage: "elsewhere" });
    // B: later, bob's private personal project, empty on `develop`, features restricted, both merge checks on, root a Guest member.
    t.clock.advance(86_400_000);
    const other = await call("POST", "/projects", t.users.bob, {
      name: "doc-b",
      default_branch: "develop",
      issues_access_level: "disabled",
      merge_requests_access_level: "disabled",
      repository_access_level: "private",
      snippets_access_level: "disabled",
      only_allow_merge_if_pipeline_succeeds: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
    });
    expect(other.status).toBe(201);
    const idB = other.json["id"] as number;
    const projectB = await t.store.projects.findById(idB);
    if (projectB === null) throw new Error("project B missing");
    await t.addMember({ project: projectB }, t.users.root, AccessLevel.Guest);
    a = (await call("GET", `/projects/${idA}`, t.users.root)).json;
    b = (await call("GET", `/projects/${idB}`, t.users.root)).json;
  });

  itHoldsTheEntityToItsTable("Project", "project", () => [a, b]);
});
