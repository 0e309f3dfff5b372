/**
 * `GET /projects/:id/repository/commits`, `GET …/commits/:sha`, `POST …/commits` with `actions`
 * (reference `lib/api/commits.rb`): the write API clients use to change files without git.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { errors, type ForgekitError } from "../../errors.js";
import { offsetHeaders, offsetPage } from "../../http/pagination-offset.js";
import { p, paramError, parseBoolean, REASONS, type ParamIssue } from "../../http/params.js";
import { parseQuery } from "../../http/query.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { ParamValue } from "../../http/types.js";
import { isRepositoryFilePath } from "../../repositories/names.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import type { RepositoryApiDeps } from "../context.js";
import { commitDetailEntity, commitEntity, diffEntity } from "../entities.js";
import { diffCommits, diffStats } from "../git/diffs.js";
import { countCommits, listCommits, readCommit, resolveCommit, type CommitInfo } from "../git/reads.js";
import type { GitRepo } from "../git/repo.js";
import type { CommitAction } from "../git/writes.js";
import { commitChanges } from "../service.js";
import { pagedList, READ_AUTH, WRITE_AUTH, withRepository } from "./kit.js";

/** Stats of a commit against its first parent (the empty tree for a root commit). */
export const statsOf = (repo: GitRepo, c: CommitInfo) => diffStats(repo, c.parentIds[0] ?? null, c.id);

/** Decodes `content` as `encoding` (`text` or `base64`); null when the base64 is malformed. */
export function decodeContent(content: string, encoding: string | undefined): Buffer | null {
  if (encoding !== "base64") return Buffer.from(content, "utf8");
  const compact = content.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  return Buffer.from(compact, "base64");
}

const ACTIONS = ["create", "delete", "move", "update", "chmod"] as const;

/** Validates the `actions` array in Grape's terms (`actions[0][file_path] is missing`). */
export function parseActions(raw: ParamValue | undefined): Result<CommitAction[], ForgekitError> {
  if (raw === undefined || raw === null) return err(errors.missingParam("actions"));
  if (!Array.isArray(raw) || raw.length === 0) return err(paramError([{ param: "actions", reason: REASONS.invalid }]));
  const out: CommitAction[] = [];
  const issues: ParamIssue[] = [];
  raw.forEach((item, i) => {
    const at = (k: string) => `actions[${i}][${k}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) return void issues.push({ param: `actions[${i}]`, reason: REASONS.invalid });
    const text = (k: string): string | undefined => {
      const v = item[k];
      return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
    };
    const action = text("action");
    const filePath = text("file_path");
    if (action === undefined) return void issues.push({ param: at("action"), reason: REASONS.missing });
    if (!(ACTIONS as readonly string[]).includes(action)) return void issues.push({ param: at("action"), reason: REASONS.notValid });
    if (filePath === undefined) return void issues.push({ param: at("file_path"), reason: REASONS.missing });
    if (!isRepositoryFilePath(filePath)) return void issues.push({ param: at("file_path"), reason: "should be a valid file path" });
    const encoding = text("encoding");
    if (encoding !== undefined && encoding !== "text" && encoding !== "base64") return void issues.push({ param: at("encoding"), reason: REASONS.notValid });
    const lastCommitId = text("last_commit_id");
    const last = lastCommitId === undefined || lastCommitId === "" ? {} : { lastCommitId };
    const rawContent = text("content");
    const content = rawContent === undefined ? undefined : decodeContent(rawContent, encoding);
    if (content === null) return void issues.push({ param: at("content"), reason: REASONS.invalid });
    const exec = item["execute_filemode"];
    const executable = exec === undefined || exec === null ? undefined : parseBoolean(exec);
    if (executable === null) return void issues.push({ param: at("execute_filemode"), reason: REASONS.invalid });
    switch (action as (typeof ACTIONS)[number]) {
      case "create":
      case "update":
        out.push({ action: action as "create" | "update", filePath, content: content ?? Buffer.alloc(0), ...(executable === undefined ? {} : { executable }), ...last });
        break;
      case "delete":
        out.push({ action: "delete", filePath, ...last });
        break;
      case "move": {
        const previousPath = text("previous_path");
        if (previousPath === undefined || !isRepositoryFilePath(previousPath)) return void issues.push({ param: at("previous_path"), reason: previousPath === undefined ? REASONS.missing : "should be a valid file path" });
        out.push({ action: "move", filePath, previousPath, ...(content === undefined ? {} : { content }), ...last });
        break;
      }
      case "chmod":
        if (executable === undefined) return void issues.push({ param: at("execute_filemode"), reason: REASONS.missing });
        out.push({ action: "chmod", filePath, executable, ...last });
        break;
    }
  });
  return issues.length > 0 ? err(paramError(issues)) : ok(out);
}

const listSchema = z.object({
  ref_name: p.string().optional(),
  since: p.datetime().optional(),
  until: p.datetime().optional(),
  path: p.string().optional(),
  all: p.bool().default(false),
  with_stats: p.bool().default(false),
  first_parent: p.bool().default(false),
  author: p.string().optional(),
  order: p.enum(["default", "topo"]).default("default"),
  page: z.unknown().optional(),
  per_page: z.unknown().optional(),
  pagination: z.unknown().optional(),
});

const createSchema = z.object({
  branch: p.string({ allowBlank: false }),
  commit_message: p.string({ allowBlank: false }),
  start_branch: p.string().optional(),
  start_sha: p.string().optional(),
  author_email: p.string().optional(),
  author_name: p.string().optional(),
  stats: p.bool().default(true),
  force: p.bool().default(false),
  actions: z.unknown().optional(),
});

/** Builds the commit routes. */
export function commitRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  const baseUrl = deps.config.baseUrl;
  return [
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/commits",
      auth: READ_AUTH,
      schema: listSchema,
      handler: ({ identity, pathParams, params, request }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ project, repo }) => {
            const page = offsetPage({ page: params.page as never, per_page: params.per_page as never });
            if (page.isErr()) return err(page.error);
            const start = params.all ? null : await resolveCommit(repo, params.ref_name ?? project.defaultBranch ?? "HEAD");
            const filter = {
              from: start === null ? [] : [start],
              all: params.all,
              firstParent: params.first_parent,
              ...(params.since === undefined ? {} : { since: params.since }),
              ...(params.until === undefined ? {} : { until: params.until }),
              ...(params.path === undefined ? {} : { path: params.path }),
              ...(params.author === undefined || params.author === "" ? {} : { author: params.author }),
            };
            if (!params.all && start === null) return ok({ body: [], headers: offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), page.value, { total: 0, hasNext: false }) });
            const { page: n, perPage } = page.value;
            const commits = await listCommits(repo, { ...filter, topo: params.order === "topo", skip: (n - 1) * perPage, limit: perPage + 1 });
            const shown = commits.slice(0, perPage);
            const total = await countCommits(repo, filter);
            const body = [];
            for (const c of shown) body.push(params.with_stats ? { ...commitEntity(baseUrl, project, c), stats: await statsOf(repo, c) } : commitEntity(baseUrl, project, c));
            const headers = offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), page.value, { total: total > TOTAL_COUNT_LIMIT ? null : total, hasNext: commits.length > perPage });
            return ok({ body, headers });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/commits/:sha",
      auth: READ_AUTH,
      schema: z.object({ sha: p.string(), stats: p.bool().default(true) }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ project, repo }) => {
            const id = await resolveCommit(repo, params.sha);
            const commit = id === null ? null : await readCommit(repo, id);
            if (commit === null) return err(errors.notFound("Commit"));
            const pipeline = await deps.config.store.statuses.newestPipeline(project.id, { sha: commit.id });
            return ok({ body: commitDetailEntity(baseUrl, project, commit, params.stats ? await statsOf(repo, commit) : null, pipeline) });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/commits/:sha/diff",
      auth: READ_AUTH,
      schema: z.object({ sha: p.string(), page: z.unknown().optional(), per_page: z.unknown().optional() }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async ({ repo }) => {
            const id = await resolveCommit(repo, params.sha);
            const commit = id === null ? null : await readCommit(repo, id);
            if (commit === null) return err(errors.notFound("Commit"));
            const diffs = await diffCommits(repo, commit.parentIds[0] ?? null, commit.id);
            return pagedList(baseUrl, request, { page: params.page as never, per_page: params.per_page as never }, diffs, diffEntity);
          }),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/repository/commits",
      auth: WRITE_AUTH,
      schema: createSchema,
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async ({ project, repo, user }) => {
            const actions = parseActions(params.actions as ParamValue | undefined);
            if (actions.isErr()) return err(actions.error);
            const made = await commitChanges(deps, repo, project, user as NonNullable<typeof user>, {
              branch: params.branch,
              startBranch: params.start_branch,
              startSha: params.start_sha,
              message: params.commit_message,
              actions: actions.value,
              authorName: params.author_name,
              authorEmail: params.author_email,
              force: params.force,
            });
            if (made.isErr()) return err(made.error);
            const commit = await readCommit(repo, made.value);
            if (commit === null) return err(errors.notFound("Commit"));
            const latest = (await deps.config.store.projects.findById(project.id)) ?? project;
            return ok({ status: 201, body: commitDetailEntity(baseUrl, latest, commit, params.stats ? await statsOf(repo, commit) : null, null) });
          }),
        ),
    }),
  ];
}
