/**
 * `GET /projects/:id/repository/tree`, `/blobs/:sha`, `/blobs/:sha/raw` and `/compare` (reference
 * `lib/api/repositories.rb`).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { formatLink, linkUrl } from "../../http/links.js";
import { readPerPage } from "../../http/pagination-offset.js";
import { p, paramError, REASONS } from "../../http/params.js";
import { parseQuery } from "../../http/query.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { RepositoryApiDeps } from "../context.js";
import { commitEntity, diffEntity, treeEntity } from "../entities.js";
import { diffCommits } from "../git/diffs.js";
import { listCommits, listTree, readBlob, resolveCommit } from "../git/reads.js";
import { pagedList, READ_AUTH, withRepository } from "./kit.js";

/** Largest blob the JSON and raw blob routes send. */
export const MAX_BLOB_BYTES = 50 * 1024 * 1024;
/** Most commits a compare lists (oldest first). */
export const MAX_COMPARE_COMMITS = 1000;

const treeSchema = z.object({
  ref: p.string().optional(),
  path: p.string().optional(),
  recursive: p.bool().default(false),
  pagination: p.enum(["legacy", "keyset", "none", "offset"]).optional(),
  page_token: p.string().optional(),
  page: z.unknown().optional(),
  per_page: z.unknown().optional(),
});

/** Builds the read routes. */
export function readRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  const baseUrl = deps.config.baseUrl;
  return [
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/tree",
      summary: "List the repository tree of a project",
      auth: READ_AUTH,
      schema: treeSchema,
      handler: ({ identity, pathParams, params, request }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ project, repo }) => {
            const commit = await resolveCommit(repo, params.ref ?? project.defaultBranch ?? "HEAD");
            if (commit === null) return err(errors.notFound("Tree"));
            const entries = await listTree(repo, commit, params.path ?? "", params.recursive);
            if (entries === null) return err(errors.notFound("Tree"));
            if (params.pagination === "none") {
              if (!params.recursive) return err(errors.invalidParam("pagination", 'cannot be "none" unless "recursive" is true'));
              return ok({ body: entries.map(treeEntity) });
            }
            if (params.pagination !== "keyset") return pagedList(baseUrl, request, { page: params.page as never, per_page: params.per_page as never }, entries, treeEntity);
            // Keyset: `page_token` is the path (or, as the reference documents, the id) of the last entry seen.
            const perPage = readPerPage({ per_page: params.per_page as never });
            if (typeof perPage !== "number") return err(paramError([perPage]));
            let start = 0;
            if (params.page_token !== undefined && params.page_token !== "") {
              const at = entries.findIndex((e) => e.path === params.page_token);
              const byId = at >= 0 ? at : entries.findIndex((e) => e.id === params.page_token);
              if (byId < 0) return err(paramError([{ param: "page_token", reason: REASONS.invalid }]));
              start = byId + 1;
            }
            const page = entries.slice(start, start + perPage);
            const headers: Record<string, string> = {};
            const last = page[page.length - 1];
            if (last !== undefined && start + perPage < entries.length) {
              headers["link"] = formatLink([["next", linkUrl(baseUrl, request, { ...parseQuery(request.rawQuery), page_token: last.path })]]);
            }
            return ok({ body: page.map(treeEntity), headers });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/blobs/:sha",
      auth: READ_AUTH,
      schema: z.object({ sha: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ repo }) => {
            const blob = await readBlob(repo, params.sha, MAX_BLOB_BYTES);
            if (blob === null) return err(errors.notFound("Blob"));
            if (blob === "too_large") return err(errors.payloadTooLarge());
            return ok({ body: { size: blob.data.length, encoding: "base64", content: blob.data.toString("base64"), sha: blob.id } });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/blobs/:sha/raw",
      auth: READ_AUTH,
      schema: z.object({ sha: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ repo }) => {
            const blob = await readBlob(repo, params.sha, MAX_BLOB_BYTES);
            if (blob === null) return err(errors.notFound("Blob"));
            if (blob === "too_large") return err(errors.payloadTooLarge());
            return ok({ raw: blob.data, headers: rawHeaders(blob.data) });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/compare",
      summary: "Compare two refs of a project's repository",
      auth: READ_AUTH,
      schema: z.object({ from: p.string(), to: p.string(), straight: p.bool().default(false) }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ project, repo }) => {
            const from = await resolveCommit(repo, params.from);
            const to = await resolveCommit(repo, params.to);
            if (from === null || to === null) return err(errors.notFound("Ref"));
            // `from..to` lists the same commits either way; the diff starts at the merge base unless `straight`.
            const commits = await listCommits(repo, { from: [to], exclude: [from], reverse: true, limit: MAX_COMPARE_COMMITS });
            let base: string = from;
            if (!params.straight) {
              const mb = await repo.run(["merge-base", "--end-of-options", from, to], { maxOutputBytes: 4096 });
              const id = mb.stdout.toString("utf8").trim();
              if (mb.code === 0 && id !== "") base = id;
            }
            const diffs = await diffCommits(repo, base, to);
            const newest = commits[commits.length - 1];
            return ok({
              body: {
                commit: newest === undefined ? null : commitEntity(baseUrl, project, newest),
                commits: commits.map((c) => commitEntity(baseUrl, project, c)),
                diffs: diffs.map(diffEntity),
                compare_timeout: false,
                compare_same_ref: from === to,
                web_url: `${baseUrl.replace(/\/$/, "")}/${project.fullPath}/-/compare/${from}...${to}`,
              },
            });
          }),
        ),
    }),
  ];
}

/** Headers of a raw blob: bytes as `application/octet-stream` unless they are UTF-8 text, never cached. */
export function rawHeaders(data: Buffer): Record<string, string> {
  const text = isUtf8Text(data);
  return { "content-type": text ? "text/plain; charset=utf-8" : "application/octet-stream", "cache-control": "no-cache", "content-disposition": "inline" };
}

function isUtf8Text(data: Buffer): boolean {
  if (data.subarray(0, 8000).includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(data.subarray(0, 8000));
    return true;
  } catch {
    // A multi-byte character cut at 8000 bytes is still text.
    return data.length > 8000;
  }
}
