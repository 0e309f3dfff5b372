/**
 * The repository, release, label and upload schemas of the OpenAPI document against real responses
 * of a seeded instance, each schema made strict at every depth (testing/schema-check.ts); the raw
 * routes the document describes as bytes answer bytes.
 */
import { describe, expect, it } from "vitest";
import { AccessLevel } from "../accounts/types.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { apiCaller, schemaChecks } from "../testing/schema-check.js";


async function world() {
  const t = await createTestForgekit();
  const call = apiCaller(t.fk, t.tokens.alice);
  const { send, check, checked, checkedList } = schemaChecks(call, expect);
  const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "app", name: "app", visibility: "private", creatorId: t.users.alice.id });
  const api = `/projects/${project.id}`;
  return { t, call, send, check, checked, checkedList, project, api };
}

describe("entity schemas against real responses: repository, releases, labels, uploads", () => {
  it("CommitDetail, Compare, RepositoryFile, RepositoryFileWrite and Blob match; raw routes answer bytes", async () => {
    const { call, checked, checkedList, api } = await world();
    const first = await checked("CommitDetail", "POST", `${api}/repository/commits`, { branch: "main", commit_message: "first", actions: [{ action: "create", file_path: "README.md", content: "hello\n" }] });
    await checked("CommitDetail", "POST", `${api}/repository/commits`, { branch: "main", commit_message: "no stats", stats: false, actions: [{ action: "create", file_path: "b.txt", content: "b\n" }] });
    await checked("RepositoryFileWrite", "POST", `${api}/repository/files/docs%2Fguide.md`, { branch: "feature", start_branch: "main", commit_message: "guide", content: "# Guide\n" });
    await checked("RepositoryFileWrite", "PUT", `${api}/repository/files/docs%2Fguide.md`, { branch: "feature", commit_message: "guide 2", content: "# Guide 2\n" });
    await checked("CommitDetail", "GET", `${api}/repository/commits/feature`);
    await checked("CommitDetail", "GET", `${api}/repository/commits/${String(first["id"])}`, undefined, { query: "stats=false" });
    await checkedList("Commit", `${api}/repository/commits`, { query: "with_stats=true" });
    await checked("Compare", "GET", `${api}/repository/compare`, undefined, { query: "from=main&to=feature" });
    await checked("Compare", "GET", `${api}/repository/compare`, undefined, { query: "from=main&to=main" });
    const file = await checked("RepositoryFile", "GET", `${api}/repository/files/docs%2Fguide.md`, undefined, { query: "ref=feature" });
    await checked("Blob", "GET", `${api}/repository/blobs/${String(file["blob_id"])}`);
    for (const path of [`${api}/repository/files/docs%2Fguide.md/raw`, `${api}/repository/blobs/${String(file["blob_id"])}/raw`, `${api}/repository/archive.zip`, `${api}/repository/archive`]) {
      const r = await call("GET", path, undefined, { query: "ref=feature" });
      expect(r.status, path).toBe(200);
      expect(r.headers["content-type"], path).not.toMatch(/json/);
    }
  });

  it("Release and ReleaseLink match, with and without the optional fields", async () => {
    const { t, send, checked, checkedList, project, api } = await world();
    await send("POST", `${api}/repository/commits`, { branch: "main", commit_message: "first", actions: [{ action: "create", file_path: "README.md", content: "hello\n" }] });
    await send("POST", `${api}/milestones`, { title: "v1", due_date: "2030-01-01" });
    const release = await checked("Release", "POST", `${api}/releases`, {
      tag_name: "v1.0",
      ref: "main",
      name: "One",
      description: "First\n\nrelease",
      milestones: ["v1"],
      assets: { links: [{ name: "binary", url: "https://example.com/app", filepath: "/bin/app", link_type: "package" }] },
    });
    expect(release["milestones"]).toBeDefined();
    await checked("Release", "POST", `${api}/releases`, { tag_name: "v2.0", ref: "main", released_at: "2031-01-01T00:00:00Z" });
    await checkedList("Release", `${api}/releases`, { query: "include_html_description=true" });
    await checked("Release", "GET", `${api}/releases/v1.0`, undefined, { query: "include_html_description=true" });
    await checked("Release", "PUT", `${api}/releases/v1.0`, { description: "Changed" });
    // A Guest of the private project sees no code fields.
    await t.addMember({ project }, t.users.bob, AccessLevel.Guest);
    const guest = await checked("Release", "GET", `${api}/releases/v1.0`, undefined, { token: t.tokens.bob });
    expect(guest["commit"]).toBeUndefined();
    const links = await checkedList("ReleaseLink", `${api}/releases/v1.0/assets/links`);
    await checked("ReleaseLink", "GET", `${api}/releases/v1.0/assets/links/${String(links[0]?.["id"])}`);
    const link = await checked("ReleaseLink", "POST", `${api}/releases/v1.0/assets/links`, { name: "docs", url: "https://example.com/docs" });
    await checked("ReleaseLink", "PUT", `${api}/releases/v1.0/assets/links/${String(link["id"])}`, { name: "manual" });
    await checked("ReleaseLink", "DELETE", `${api}/releases/v1.0/assets/links/${String(link["id"])}`);
    await checked("Release", "DELETE", `${api}/releases/v2.0`);
  });

  it("ProjectLabel and GroupLabel match, with counts and subscriptions", async () => {
    const { t, send, checked, checkedList, api } = await world();
    const group = `/groups/${t.groups.grp.id}`;
    await checked("GroupLabel", "POST", `${group}/labels`, { name: "team", color: "#00ff00" });
    const label = await checked("ProjectLabel", "POST", `${api}/labels`, { name: "bug", color: "#ff0000", description: "Broken", priority: 1 });
    await send("POST", `${api}/issues`, { title: "Broken", labels: "bug,team" });
    const listed = await checkedList("ProjectLabel", `${api}/labels`, { query: "with_counts=true" });
    expect(listed.some((l) => l["is_project_label"] === false)).toBe(true);
    await checkedList("ProjectLabel", `${api}/labels`);
    await checked("ProjectLabel", "GET", `${api}/labels/${String(label["id"])}`);
    await checked("ProjectLabel", "PUT", `${api}/labels/bug`, { description: "" });
    await checked("ProjectLabel", "PUT", `${api}/labels`, { name: "bug", color: "#aa0000" });
    await checked("ProjectLabel", "POST", `${api}/labels/bug/subscribe`);
    await checked("ProjectLabel", "POST", `${api}/labels/bug/unsubscribe`);
    await checkedList("GroupLabel", `${group}/labels`, { query: "with_counts=true" });
    await checked("GroupLabel", "GET", `${group}/labels/team`);
    await checked("GroupLabel", "PUT", `${group}/labels/team`, { color: "#0000ff" });
    await checked("GroupLabel", "PUT", `${group}/labels`, { name: "team", description: "The team" });
    await checked("GroupLabel", "POST", `${group}/labels/team/subscribe`);
    await checked("GroupLabel", "POST", `${group}/labels/team/unsubscribe`);
    await checkedList("Issue", `${api}/issues`, { query: "with_labels_details=true" });
  });

  it("Upload and UploadListEntry match; snippets' raw routes answer bytes", async () => {
    const { t, call, check, checkedList, send, api } = await world();
    const boundary = "XyZ";
    const body = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="shot.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--${boundary}--\r\n`);
    const r = await t.fk.handle({ method: "POST", path: `/api/v4${api}/uploads`, rawQuery: "", headers: { "private-token": t.tokens.alice, "content-type": `multipart/form-data; boundary=${boundary}` }, body });
    expect(r.status, String(r.body)).toBe(201);
    check("Upload", JSON.parse(String(r.body)), "POST uploads");
    await checkedList("UploadListEntry", `${api}/uploads`);
    const personal = (await send("POST", "/snippets", { title: "s", visibility: "private", files: [{ file_path: "a.txt", content: "a\n" }] })) as { id: number };
    const own = (await send("POST", `${api}/snippets`, { title: "s", visibility: "private", file_name: "b.txt", content: "b\n" })) as { id: number };
    for (const path of [`/snippets/${personal.id}/raw`, `/snippets/${personal.id}/files/main/a.txt/raw`, `${api}/snippets/${own.id}/raw`, `${api}/snippets/${own.id}/files/main/b.txt/raw`]) {
      const raw = await call("GET", path);
      expect(raw.status, `${path}: ${raw.text}`).toBe(200);
      expect(raw.headers["content-type"], path).not.toMatch(/json/);
    }
  });
});
