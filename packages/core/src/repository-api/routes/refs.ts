/**
 * Branches and tags (reference `lib/api/branches.rb`, `lib/api/tags.rb`): list, show, create,
 * delete; names with `/` arrive as `%2F`. Protection flags come from the project's protected refs.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { errors } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { Params } from "../../http/types.js";
import type { RepositoryApiDeps } from "../context.js";
import { branchEntity, tagEntity, type BranchFlags } from "../entities.js";
import { listRefs, readCommit, type CommitInfo, type RefInfo } from "../git/reads.js";
import type { GitRepo } from "../git/repo.js";
import { createBranch, createTag, deleteBranch, deleteMergedBranches, deleteTag, refAccessOf } from "../service.js";
import { pagedList, pagedListLoaded, READ_AUTH, WRITE_AUTH, withRepository, type Opened } from "./kit.js";

const pageParams = { page: z.unknown().optional(), per_page: z.unknown().optional(), pagination: z.unknown().optional() };

/** Reference branch search: `^x` prefix, `x$` suffix, else a case-insensitive substring. */
export function matchesSearch(name: string, search: string | undefined): boolean {
  if (search === undefined || search === "") return true;
  const n = name.toLowerCase();
  let s = search.toLowerCase();
  const prefix = s.startsWith("^");
  const suffix = s.endsWith("$");
  if (prefix) s = s.slice(1);
  if (suffix) s = s.slice(0, -1);
  if (prefix && suffix) return n === s;
  if (prefix) return n.startsWith(s);
  if (suffix) return n.endsWith(s);
  return n.includes(s);
}

async function commitsOf(repo: GitRepo, refs: RefInfo[]): Promise<Map<string, CommitInfo>> {
  const ids = [...new Set(refs.map((r) => r.commitId).filter((id): id is string => id !== null))];
  const commits = new Map<string, CommitInfo>();
  for (const id of ids) {
    const c = await readCommit(repo, id);
    if (c !== null) commits.set(id, c);
  }
  return commits;
}

/** Branch names merged into the default branch (its ancestors), the default branch excluded. */
async function mergedNames(repo: GitRepo, defaultBranch: string | null): Promise<Set<string>> {
  if (defaultBranch === null) return new Set();
  const r = await repo.run(["for-each-ref", "--format=%(refname)", `--merged=refs/heads/${defaultBranch}`, "refs/heads/"]);
  if (r.code !== 0) return new Set();
  return new Set(r.stdout.toString("utf8").split("\n").filter((l) => l.startsWith("refs/heads/")).map((l) => l.slice("refs/heads/".length)).filter((n) => n !== defaultBranch));
}

/** The entity flags of each branch for the viewer (reference `Branch` entity: `can_push` is `can_push_to_branch?`, false while read-only). */
async function branchFlags(deps: RepositoryApiDeps, o: Opened): Promise<(name: string) => Promise<BranchFlags>> {
  const access = await refAccessOf(deps, o.project, o.user);
  return async (name) => ({
    protected: access.isProtected("branch", name),
    developersCanPush: access.developersCan("push", name),
    developersCanMerge: access.developersCan("merge", name),
    canPush: !o.project.repositoryReadOnly && (await access.canPush(name)),
  });
}

/** Builds the branch and tag routes. */
export function refRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  const baseUrl = deps.config.baseUrl;
  const renderBranches = async (o: Opened, refs: RefInfo[]) => {
    const commits = await commitsOf(o.repo, refs);
    const merged = await mergedNames(o.repo, o.project.defaultBranch);
    const flagsOf = await branchFlags(deps, o);
    const flags = new Map<string, BranchFlags>();
    for (const ref of refs) flags.set(ref.name, await flagsOf(ref.name));
    return (ref: RefInfo) => branchEntity(baseUrl, o.project, ref, ref.commitId === null ? null : (commits.get(ref.commitId) ?? null), merged.has(ref.name), flags.get(ref.name) as BranchFlags);
  };
  const renderTags = async (o: Opened, refs: readonly RefInfo[], loaded?: Map<string, CommitInfo>) => {
    const commits = loaded ?? (await commitsOf(o.repo, [...refs]));
    // The releases of the whole page in one lookup (reference `Entities::Tag#release`).
    const releases = new Map((await deps.config.store.releases.findByTags(o.project.id, refs.map((ref) => ref.name))).map((release) => [release.tagName, release]));
    const access = await refAccessOf(deps, o.project, o.user);
    return (ref: RefInfo) => tagEntity(baseUrl, o.project, ref, ref.commitId === null ? null : (commits.get(ref.commitId) ?? null), releases.get(ref.name) ?? null, access.isProtected("tag", ref.name));
  };
  return [
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/branches",
      auth: READ_AUTH,
      schema: z.object({ search: p.string().optional(), ...pageParams }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const refs = (await listRefs(o.repo, "branch")).filter((r) => matchesSearch(r.name, params.search));
            const page = pagedList(baseUrl, request, params as Params, refs, (r) => r);
            if (page.isErr()) return page;
            const shown = page.value.body as RefInfo[];
            const render = await renderBranches(o, shown);
            return ok({ ...page.value, body: shown.map(render) });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/branches/:branch",
      auth: READ_AUTH,
      schema: z.object({ branch: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const [ref] = await listRefs(o.repo, "branch", [params.branch]);
            if (ref === undefined) return err(errors.notFound("Branch"));
            return ok({ body: (await renderBranches(o, [ref]))(ref) });
          }),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/repository/branches",
      auth: WRITE_AUTH,
      schema: z.object({ branch: p.string(), ref: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            const created = await createBranch(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, params.branch, params.ref);
            if (created.isErr()) return err(created.error);
            const project = (await deps.config.store.projects.findById(o.project.id)) ?? o.project;
            const [ref] = await listRefs(o.repo, "branch", [params.branch]);
            if (ref === undefined) return err(errors.notFound("Branch"));
            return ok({ status: 201, body: (await renderBranches({ ...o, project }, [ref]))(ref) });
          }),
        ),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/repository/branches/:branch",
      auth: WRITE_AUTH,
      schema: z.object({ branch: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            const deleted = await deleteBranch(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, params.branch);
            return deleted.isErr() ? err(deleted.error) : ok({ status: 204 });
          }),
        ),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/repository/merged_branches",
      auth: WRITE_AUTH,
      handler: ({ identity, pathParams }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            await deleteMergedBranches(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>);
            return ok({ status: 202, body: { message: "202 Accepted" } });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/tags",
      auth: READ_AUTH,
      schema: z.object({ search: p.string().optional(), order_by: p.enum(["name", "updated", "version"]).default("updated"), sort: p.enum(["asc", "desc"]).default("desc"), ...pageParams }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const refs = (await listRefs(o.repo, "tag")).filter((r) => matchesSearch(r.name, params.search));
            const commits = await commitsOf(o.repo, refs);
            const date = (r: RefInfo) => (r.commitId === null ? "" : (commits.get(r.commitId)?.committedDate ?? ""));
            const byName = (a: RefInfo, b: RefInfo) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
            const compare =
              params.order_by === "name" ? byName
              : params.order_by === "version" ? (a: RefInfo, b: RefInfo) => a.name.localeCompare(b.name, "en", { numeric: true }) || byName(a, b)
              : (a: RefInfo, b: RefInfo) => Date.parse(date(a) || "0") - Date.parse(date(b) || "0") || byName(a, b);
            refs.sort((a, b) => (params.sort === "asc" ? compare(a, b) : compare(b, a)));
            return pagedListLoaded(baseUrl, request, params as Params, refs, (page) => renderTags(o, page, commits));
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/tags/:tag_name",
      auth: READ_AUTH,
      schema: z.object({ tag_name: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const [ref] = await listRefs(o.repo, "tag", [params.tag_name]);
            if (ref === undefined) return err(errors.notFound("Tag"));
            return ok({ body: (await renderTags(o, [ref]))(ref) });
          }),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/repository/tags",
      auth: WRITE_AUTH,
      schema: z.object({ tag_name: p.string(), ref: p.string(), message: p.string().optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            const created = await createTag(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, { name: params.tag_name, ref: params.ref, message: params.message });
            if (created.isErr()) return err(created.error);
            const [ref] = await listRefs(o.repo, "tag", [params.tag_name]);
            if (ref === undefined) return err(errors.notFound("Tag"));
            return ok({ status: 201, body: (await renderTags(o, [ref]))(ref) });
          }),
        ),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/repository/tags/:tag_name",
      auth: WRITE_AUTH,
      schema: z.object({ tag_name: p.string() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            const deleted = await deleteTag(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, params.tag_name);
            return deleted.isErr() ? err(deleted.error) : ok({ status: 204 });
          }),
        ),
    }),
  ];
}
