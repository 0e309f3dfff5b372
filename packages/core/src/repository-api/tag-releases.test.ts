/** Tags show their release with one release lookup per page of tags, never one per tag. */
import { describe, expect, it } from "vitest";
import type { HttpRequest } from "../http/types.js";
import type { Store } from "../ports/store.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { memoryStore } from "../memory-store/index.js";

/** A memory store that counts the release lookups. */
function countingStore(): { store: Store; calls: { find: number; findByTags: number } } {
  const base = memoryStore();
  const calls = { find: 0, findByTags: 0 };
  const releases: Store["releases"] = {
    ...base.releases,
    find: (...args) => {
      calls.find++;
      return base.releases.find(...args);
    },
    findByTags: (...args) => {
      calls.findByTags++;
      return base.releases.findByTags(...args);
    },
  };
  return { store: { ...base, releases }, calls };
}

describe("GET /projects/:id/repository/tags", () => {
  it("looks the page's releases up once, whatever the number of tags", async () => {
    const { store, calls } = countingStore();
    const t = await createTestForgekit({ store });
    const request = async (method: string, path: string, json?: unknown) => {
      const req: HttpRequest = { method, path: `/api/v4${path}`, rawQuery: "", headers: { "private-token": t.tokens.alice, "content-type": "application/json" }, ...(json === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(json)) }) };
      const r = await t.fk.handle(req);
      return { status: r.status, json: JSON.parse(String(r.body)) as unknown };
    };
    const id = t.projects.personal.id;
    expect((await request("POST", `/projects/${id}/repository/commits`, { branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "a", content: "a" }] })).status).toBe(201);
    for (let n = 1; n <= 5; n++) {
      expect((await request("POST", `/projects/${id}/releases`, { tag_name: `v${n}`, ref: "main", description: `notes ${n}` })).status).toBe(201);
    }
    calls.find = 0;
    calls.findByTags = 0;
    const r = await request("GET", `/projects/${id}/repository/tags`);
    expect(r.status).toBe(200);
    expect((r.json as { release: unknown }[]).map((tag) => tag.release)).toHaveLength(5);
    expect((r.json as { release: { description: string } | null }[]).every((tag) => tag.release?.description.startsWith("notes "))).toBe(true);
    expect(calls).toEqual({ find: 0, findByTags: 1 });
  });
});
