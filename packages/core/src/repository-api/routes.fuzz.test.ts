/**
 * Property: whatever a project member sends to the repository routes — refs, paths, shas, branch
 * and tag names, actions — made of option-looking text, control characters, NUL, unicode and
 * revision syntax, the answer is below 500 and no file appears outside the repository.
 */
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";

const MARKER = join(tmpdir(), `forgekit-fuzz-marker-${process.pid}`);
const NASTY = [`--upload-pack=touch ${MARKER}`, `--output=${MARKER}`, "-h", "--", "HEAD", "main", "main~1", "main^{tree}", "HEAD:README.md", ":/Initial", "@{-1}", "refs/heads/main", "a..b", "*", "?", "[", "\u0000", "a\nb", "\r", " ", "", "😀", "ünï/文件", "../x", "/abs", "x/", ".git/config", "a".repeat(300), "0".repeat(40), "%2F", "README.md", "dir"];
const text = fc.oneof({ arbitrary: fc.constantFrom(...NASTY), weight: 3 }, fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 12 }));
const action = fc.record({ action: fc.oneof(fc.constantFrom("create", "update", "delete", "move", "chmod"), text), file_path: text, previous_path: text, content: text, encoding: fc.constantFrom("text", "base64", "x"), execute_filemode: fc.constantFrom(true, false, "yes", "maybe"), last_commit_id: text }, { requiredKeys: [] });

describe("repository routes under random input", () => {
  it("never answer 5xx and never let an option-looking value run as an option (2,000 requests)", async () => {
    const t = await createTestForgekit();
    const project = t.projects.personal;
    const base = `/api/v4/projects/${project.id}/repository`;
    const body = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const call = (method: string, path: string, params: Record<string, unknown>) =>
      t.fk.handle({ method, path, rawQuery: "", headers: { "private-token": t.tokens.alice, "content-type": "application/json" }, body: body(params) });
    const seed = await call("POST", `${base}/commits`, { branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "README.md", content: "x" }, { action: "create", file_path: "dir/a.txt", content: "y" }] });
    expect(seed.status).toBe(201);
    const requests = fc.oneof(
      fc.tuple(text, text, fc.boolean()).map(([ref, path, recursive]) => ["GET", `${base}/tree`, { ref, path, recursive, pagination: "keyset", page_token: path }] as const),
      fc.tuple(text, text).map(([file, ref]) => ["GET", `${base}/files/${encodeURIComponent(file)}`, { ref }] as const),
      fc.tuple(text, text).map(([file, ref]) => ["GET", `${base}/files/${encodeURIComponent(file)}/raw`, { ref }] as const),
      fc.tuple(text, text).map(([file, content]) => ["PUT", `${base}/files/${encodeURIComponent(file)}`, { branch: "main", commit_message: "m", content, last_commit_id: content }] as const),
      text.map((sha) => ["GET", `${base}/blobs/${encodeURIComponent(sha)}`, {}] as const),
      text.map((sha) => ["GET", `${base}/commits/${encodeURIComponent(sha)}`, {}] as const),
      fc.tuple(text, text, text).map(([ref_name, path, author]) => ["GET", `${base}/commits`, { ref_name, path, author, with_stats: true }] as const),
      fc.tuple(text, text).map(([from, to]) => ["GET", `${base}/compare`, { from, to }] as const),
      fc.tuple(text, text).map(([branch, ref]) => ["POST", `${base}/branches`, { branch, ref }] as const),
      text.map((branch) => ["GET", `${base}/branches/${encodeURIComponent(branch)}`, { search: branch }] as const),
      fc.tuple(text, text, text).map(([tag_name, ref, message]) => ["POST", `${base}/tags`, { tag_name, ref, message }] as const),
      fc.tuple(text, text).map(([sha, path]) => ["GET", `${base}/archive.zip`, { sha, path }] as const),
      fc.tuple(text, text, fc.array(action, { maxLength: 3 })).map(([branch, start, actions]) => ["POST", `${base}/commits`, { branch, start_branch: start, commit_message: "fuzz", actions }] as const),
    );
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const [method, path, params] of fc.sample(requests, { numRuns: 2000, seed: 42 })) {
      const r = await call(method, path, params);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(params)} → ${r.status}`);
    }
    expect(failures).toEqual([]);
    // The handlers were reached: reads succeeded and bad input was refused, not only authentication.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(50);
    expect(existsSync(MARKER)).toBe(false);
    rmSync(MARKER, { force: true });
    await must(t.fk.close());
  }, 300_000);
});
