/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests` (reference `lib/api/commits.rb`,
 * `MergeRequestsFinder` with `commit_sha`): the project's merge requests whose commits include the
 * commit — open, closed or merged (`state` filters) — as `MergeRequestBasic`, paginated.
 * semantic-release asks it which merge requests a release contains.
 */
import { err } from "neverthrow";
import * as z from "zod";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params } from "../http/types.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { Store } from "../ports/store.js";
import { resolveCommit } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { pagedListOf } from "../repository-api/routes/kit.js";
import { gitFacts } from "./git-facts.js";
import { readable, READ } from "./route-helpers.js";
import { renderMergeRequests } from "./service.js";

const raw = z.unknown().optional();

/** The commits a merge request holds: its newest version's range, else the range its branches (or merge commit) show. */
async function rangeOf(store: Store, repo: GitRepo, mr: MergeRequestRecord): Promise<{ base: string; head: string } | null> {
  const [newest] = await store.mergeRequestVersions.list(mr.id);
  if (newest !== undefined) return { base: newest.baseSha, head: newest.headSha };
  const refs = (await gitFacts(repo, mr)).diffRefs;
  return refs === null ? null : { base: refs.base_sha, head: refs.head_sha };
}

const isAncestor = async (repo: GitRepo, commit: string, of: string) => (await repo.run(["merge-base", "--is-ancestor", "--end-of-options", commit, of])).code === 0;

/** Every merge request of `projectId` (in `state`) whose range holds `sha`, newest first. */
async function mergeRequestsWith(store: Store, repo: GitRepo, projectId: number, sha: string, state: MergeRequestRecord["state"] | undefined): Promise<MergeRequestRecord[]> {
  const out: MergeRequestRecord[] = [];
  for (let page = 1; ; page++) {
    const result = await store.reviews.listMergeRequests({ projectIds: [projectId], ...(state === undefined ? {} : { state }), orderBy: "created_at", sort: "desc" }, { kind: "offset", page, perPage: 100 });
    for (const mr of result.items) {
      const range = await rangeOf(store, repo, mr);
      if (range !== null && (await isAncestor(repo, sha, range.head)) && !(await isAncestor(repo, sha, range.base))) out.push(mr);
    }
    if (!result.hasNext || result.items.length === 0) return out;
  }
}

/** Builds the commit's merge-requests route. */
export function commitMergeRequestRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  return tagRoutes("Repository", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/commits/:sha/merge_requests",
      summary: "List the merge requests a commit belongs to",
      auth: READ,
      schema: z.object({ sha: p.string(), state: p.enum(["opened", "closed", "merged"]).optional(), page: raw, per_page: raw, pagination: raw }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const { project, repo } = o.value;
          const sha = repo === null ? null : await resolveCommit(repo, params.sha);
          if (repo === null || sha === null) return err(errors.notFound("Commit"));
          const all = await mergeRequestsWith(store, repo, project.id, sha, params.state);
          return pagedListOf(baseUrl, request, params as Params, all, (page) => renderMergeRequests(config, project, repo, page, null));
        }),
    }),
  ]);
}
