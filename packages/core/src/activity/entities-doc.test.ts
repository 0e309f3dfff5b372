/**
 * docs/entities.md's issue, note, milestone and snippet tables are those entities' field lists
 * (issue 19 §1): every rendered key is listed with its source, and every field not listed as
 * `fixed` differs between two differently-made records (the `fixed` ones are equal).
 */
import { beforeAll, describe, expect } from "vitest";
import { createTestForgekit, type TestForgekit } from "../testing/fixtures.js";
import { callApi, itHoldsTheEntityToItsTable } from "../testing/entity-doc-table.js";

type Json = Record<string, unknown>;

let t: TestForgekit;
const call = (method: string, path: string, token: string, json?: Json) => callApi(t, method, path, token, json);
async function made(method: string, path: string, token: string, json?: Json): Promise<Json> {
  const r = await call(method, path, token, json);
  expect([path, r.status]).toEqual([path, method === "POST" ? 201 : 200]);
  return r.json;
}

/** Two projects: A (alice's, with a README) and, a day later, B (bob's personal project, with a README). */
let projectA: number;
let projectB: number;
beforeAll(async () => {
  t = await createTestForgekit();
  projectA = (await made("POST", "/projects", t.tokens.alice, { name: "doc-a", namespace_id: t.groups.grp.id, visibility: "public", initialize_with_readme: true }))["id"] as number;
  t.clock.advance(86_400_000);
  projectB = (await made("POST", "/projects", t.tokens.bob, { name: "doc-b", visibility: "private", initialize_with_readme: true }))["id"] as number;
});

describe("docs/entities.md: the issue entity's fields (`GET /projects/:id/issues/:issue_iid`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: open, no tasks, no labels, milestone or assignee, no notes.
    const issueA = await made("POST", `/projects/${projectA}/issues`, t.tokens.alice, { title: "A" });
    t.clock.advance(86_400_000);
    // B: later, bob's second issue, written by an import, confidential, with tasks, a label, a
    // milestone, an assignee, a due date, a locked discussion, a note, a merge request that
    // closes it, closed.
    await made("POST", `/projects/${projectB}/issues`, t.tokens.bob, { title: "first" });
    const milestone = await made("POST", `/projects/${projectB}/milestones`, t.tokens.bob, { title: "v1" });
    const imported = await t.store.activity.issues.create(
      { projectId: projectB, title: "B", description: "- [x] one\n- [ ] two", confidential: true, authorId: t.users.bob.id, importedFrom: "extforge" },
      t.clock.now(),
    );
    const issueB = await made("PUT", `/projects/${projectB}/issues/${imported.iid}`, t.tokens.bob, { labels: "bug", milestone_id: milestone["id"], assignee_ids: [t.users.bob.id], due_date: "2024-06-30", discussion_locked: true });
    await made("POST", `/projects/${projectB}/issues/${issueB["iid"] as number}/notes`, t.tokens.bob, { body: "note" });
    // The closing merge request lives in a third project of bob's, so project B's merge-request iids stay as the note test expects.
    const closer = (await made("POST", "/projects", t.tokens.bob, { name: "doc-closer", visibility: "private", initialize_with_readme: true }))["id"] as number;
    const pathB = (await made("GET", `/projects/${projectB}`, t.tokens.bob))["path_with_namespace"] as string;
    await made("POST", `/projects/${closer}/repository/branches`, t.tokens.bob, { branch: "closer", ref: "main" });
    await made("POST", `/projects/${closer}/merge_requests`, t.tokens.bob, { source_branch: "closer", target_branch: "main", title: "Closer", description: `Closes ${pathB}#${issueB["iid"] as number}` });
    t.clock.advance(60_000);
    await made("PUT", `/projects/${projectB}/issues/${issueB["iid"] as number}`, t.tokens.bob, { state_event: "close" });
    a = (await call("GET", `/projects/${projectA}/issues/${issueA["iid"] as number}`, t.tokens.root)).json;
    b = (await call("GET", `/projects/${projectB}/issues/${issueB["iid"] as number}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Issue", "issue", () => [a, b]);
});

describe("docs/entities.md: the note entity's fields (`GET …/notes/:note_id`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: an imported system note on alice's issue. B: later, bob's resolved diff note on his merge request.
    const issue = await made("POST", `/projects/${projectA}/issues`, t.tokens.alice, { title: "noted" });
    const noteA = await t.store.activity.notes.create(
      { projectId: projectA, noteableType: "Issue", noteableId: issue["id"] as number, authorId: t.users.alice.id, body: "closed", system: true, importedFrom: "extforge" },
      t.clock.now(),
    );
    t.clock.advance(86_400_000);
    await made("POST", `/projects/${projectB}/repository/branches`, t.tokens.bob, { branch: "topic", ref: "main" });
    await made("POST", `/projects/${projectB}/repository/commits`, t.tokens.bob, { branch: "topic", commit_message: "c", actions: [{ action: "create", file_path: "x.txt", content: "x" }] });
    const mr = await made("POST", `/projects/${projectB}/merge_requests`, t.tokens.bob, { source_branch: "topic", target_branch: "main", title: "MR" });
    await made("POST", `/projects/${projectB}/merge_requests/${mr["iid"] as number}/notes`, t.tokens.bob, { body: "first" });
    const refs = (await made("GET", `/projects/${projectB}/merge_requests/${mr["iid"] as number}`, t.tokens.bob))["diff_refs"] as Json;
    const position = { base_sha: refs["base_sha"], start_sha: refs["start_sha"], head_sha: refs["head_sha"], position_type: "text", new_path: "x.txt", old_path: "x.txt", new_line: 1 };
    const discussion = await made("POST", `/projects/${projectB}/merge_requests/${mr["iid"] as number}/discussions`, t.tokens.bob, { body: "B", position });
    t.clock.advance(60_000);
    await made("PUT", `/projects/${projectB}/merge_requests/${mr["iid"] as number}/discussions/${discussion["id"] as string}`, t.tokens.bob, { resolved: true });
    const noteB = (discussion["notes"] as Json[])[0] ?? {};
    a = (await call("GET", `/projects/${projectA}/issues/${issue["iid"] as number}/notes/${noteA.id}`, t.tokens.root)).json;
    b = (await call("GET", `/projects/${projectB}/merge_requests/${mr["iid"] as number}/notes/${noteB["id"] as number}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Note", "note", () => [a, b]);
});

describe("docs/entities.md: the milestone entity's fields (`GET /projects/:id/milestones/:milestone_id`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: alice's open milestone without dates. B: later, bob's closed second milestone, past due.
    const mA = await made("POST", `/projects/${projectA}/milestones`, t.tokens.alice, { title: "A" });
    t.clock.advance(86_400_000);
    await made("POST", `/projects/${projectB}/milestones`, t.tokens.bob, { title: "other" });
    const mB = await made("POST", `/projects/${projectB}/milestones`, t.tokens.bob, { title: "B", description: "b", start_date: "2020-01-01", due_date: "2020-02-01" });
    t.clock.advance(60_000);
    await made("PUT", `/projects/${projectB}/milestones/${mB["id"] as number}`, t.tokens.bob, { state_event: "close" });
    a = (await call("GET", `/projects/${projectA}/milestones/${mA["id"] as number}`, t.tokens.root)).json;
    b = (await call("GET", `/projects/${projectB}/milestones/${mB["id"] as number}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Milestone", "milestone", () => [a, b]);
});

describe("docs/entities.md: the snippet entity's fields (`GET /snippets/:id`, `GET /projects/:id/snippets/:snippet_id`)", () => {
  let a: Json;
  let b: Json;
  beforeAll(async () => {
    // A: alice's public personal snippet as a gist import writes it (no repository yet). B: later,
    // bob's private project snippet with a description and two files.
    const sA = await t.store.activity.snippets.create({ projectId: null, authorId: t.users.alice.id, title: "A", fileName: "a.txt", content: "a", visibility: "public", importedFrom: "extforge" }, t.clock.now());
    t.clock.advance(86_400_000);
    const sB = await made("POST", `/projects/${projectB}/snippets`, t.tokens.bob, {
      title: "B",
      description: "b",
      visibility: "private",
      files: [
        { file_path: "b.txt", content: "b" },
        { file_path: "c.txt", content: "c" },
      ],
    });
    t.clock.advance(60_000);
    await made("PUT", `/projects/${projectB}/snippets/${sB["id"] as number}`, t.tokens.bob, { title: "B2" });
    a = (await call("GET", `/snippets/${sA.id}`, t.tokens.root)).json;
    b = (await call("GET", `/projects/${projectB}/snippets/${sB["id"] as number}`, t.tokens.root)).json;
  });

  itHoldsTheEntityToItsTable("Snippet", "snippet", () => [a, b]);
});
