/** What the merge-request versions, closing-issues and approvals suites share: a project with a `main` branch and request helpers. */
import { expect } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit, type TestForgekitOptions } from "../fixtures.js";
import type { HttpHarness, RequestOptions } from "../http-harness.js";

export type Json = Record<string, unknown>;

/** One suite's instance, project and helpers. */
export interface ReviewKit {
  t: TestForgekit;
  project: Project;
  base: string;
  api(path: string, p?: Project): string;
  as(token: string | undefined, options?: RequestOptions): RequestOptions;
  alice(options?: RequestOptions): RequestOptions;
  /** A commit through the commit API (201 expected): its sha. */
  commit(branch: string, file: string, options?: { start?: string; message?: string; content?: string; as?: string; project?: Project }): Promise<string>;
  /** Opens a merge request of `source` into `main` (201 expected). */
  open(source: string, extra?: Json, token?: string): Promise<Json & { iid: number; id: number; sha: string }>;
}

export const json = <T = Json>(r: { json: unknown }) => r.json as T;

/** A fresh instance with alice's private project `path` whose `main` has one commit. */
export async function reviewKit(h: HttpHarness, path: string, options: TestForgekitOptions = {}): Promise<ReviewKit> {
  const t = await createTestForgekit(options);
  const base = await h.serve(t.fk);
  const project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path, name: path, visibility: "private", creatorId: t.users.alice.id });
  const api = (rest: string, p: Project = project) => `/api/v4/projects/${p.id}${rest}`;
  const as = (token: string | undefined, o: RequestOptions = {}): RequestOptions => ({ ...o, headers: { ...(o.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
  const alice = (o: RequestOptions = {}) => as(t.tokens.alice, o);
  const kit: ReviewKit = {
    t,
    project,
    base,
    api,
    as,
    alice,
    async commit(branch, file, o = {}) {
      const body = { branch, commit_message: o.message ?? `on ${branch}`, actions: [{ action: "create", file_path: file, content: o.content ?? `${branch}\n` }], ...(o.start === undefined ? {} : { start_branch: o.start }) };
      const r = await h.request("POST", api("/repository/commits", o.project), as(o.as ?? t.tokens.alice, { json: body }));
      expect(r.status).toBe(201);
      return json<{ id: string }>(r).id;
    },
    async open(source, extra = {}, token = t.tokens.alice) {
      const r = await h.request("POST", api("/merge_requests"), as(token, { json: { source_branch: source, target_branch: "main", title: `Merge ${source}`, ...extra } }));
      expect(r.status).toBe(201);
      return json<Json & { iid: number; id: number; sha: string }>(r);
    },
  };
  await kit.commit("main", "README.md");
  return kit;
}
