/**
 * `/snippets` and `/projects/:id/snippets` (reference `lib/api/snippets.rb`,
 * `lib/api/project_snippets.rb`): list, public list, show, create with several `files`, update
 * with file actions (create / update / delete / move, one commit each), delete, raw content and
 * per-file raw at a ref. Invisible snippets and projects are 404.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { withFeature } from "../access/features.js";
import { hasProjectAccess, projectAccess, visibleProject } from "../access/permissions.js";
import { AccessLevel, type Project, type User, type Visibility } from "../accounts/types.js";
import { snippetsService } from "../activity/snippets.js";
import type { Identity } from "../auth/identity.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { idOrPath, p } from "../http/params.js";
import { defineRoute, listHeaders, noneGiven, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { checkSpam } from "../http/spam.js";
import type { Params, RouteAuth, RouteResult } from "../http/types.js";
import type { SnippetListFilter, SnippetRecord } from "../ports/review-store.js";
import { isRepositoryFilePath } from "../repositories/names.js";
import type { CommitAction } from "../repository-api/git/writes.js";
import { snippetEntity } from "./entities.js";
import { commitSnippetChange, headBranch, snippetFile, snippetFiles, snippetRepo, undoSnippetChange } from "./files.js";

const READ: RouteAuth = { mode: "optional" };
const WRITE: RouteAuth = { mode: "required" };
const raw = z.unknown().optional();
const VISIBILITY = p.enum(["private", "internal", "public"]);
const FILE = z.object({ file_path: p.string(), content: p.string() });
const FILE_ACTION = z.object({ action: p.enum(["create", "update", "delete", "move"]), file_path: p.string(), previous_path: p.string().optional(), content: p.string().optional() });

type Family = "personal" | "project";

/** Where a family's snippets live: no project (personal) or the project of `:id`. */
interface Scope {
  project: Project | null;
}

async function scopeOf(config: ForgekitConfig, family: Family, identity: Identity, id: string | undefined): Promise<Result<Scope, ForgekitError>> {
  if (family === "personal") return ok({ project: null });
  const ref = idOrPath(id ?? "");
  const project = typeof ref === "number" ? await config.store.projects.findById(ref) : ref !== null && ref.includes("/") ? await config.store.projects.findByFullPath(ref) : null;
  const now = config.clock.now();
  const visible = await visibleProject(config.store, identity.user, project, now);
  if (visible.isErr()) return err(visible.error);
  // Reference `check_snippets_enabled`: 403 when the snippets feature is not available to the caller.
  const enabled = await withFeature(config.store, identity.user, visible.value, "snippets", now);
  return enabled.isErr() ? err(enabled.error) : ok({ project: enabled.value });
}

/** Reference `read_snippet`: public to all who see the project; internal to signed-in users; private to the author, project members and administrators. */
async function canRead(config: ForgekitConfig, user: User | null, snippet: SnippetRecord, project: Project | null): Promise<boolean> {
  if (user?.admin === true || (user !== null && snippet.authorId === user.id)) return true;
  switch (snippet.visibility) {
    case "public":
      return true;
    case "internal":
      return user !== null;
    case "private":
      return project !== null && (await projectAccess(config.store, user, project, config.clock.now())) >= AccessLevel.Guest;
  }
}

/** Reference `update_snippet` / `admin_snippet`: the author, administrators, and Maintainers+ of the project. */
async function canWrite(config: ForgekitConfig, user: User, snippet: SnippetRecord, project: Project | null): Promise<boolean> {
  if (user.admin || snippet.authorId === user.id) return true;
  return project !== null && (await hasProjectAccess(config.store, user, project, AccessLevel.Maintainer, config.clock.now()));
}

/** Which visibilities of a project's snippets a viewer lists. */
async function listedVisibilities(config: ForgekitConfig, user: User | null, project: Project): Promise<readonly Visibility[] | undefined> {
  if (user?.admin === true || (await projectAccess(config.store, user, project, config.clock.now())) >= AccessLevel.Guest) return undefined;
  return user === null ? ["public"] : ["public", "internal"];
}

function rawResponse(data: Buffer, name: string): RouteResult {
  return { raw: new Uint8Array(data), headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": `inline; filename="${name.replace(/["\\\r\n]/g, "_")}"` } };
}

const missingOneOf = (names: string) => errors.invalidParam(names, "are missing, exactly one parameter must be provided");

/** Builds both families' routes. */
export function snippetRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock, baseUrl } = config;
  const service = snippetsService(config);

  const render = async (snippets: readonly SnippetRecord[], project: Project | null) => {
    const out: unknown[] = [];
    for (const s of snippets) {
      const repo = await snippetRepo(config, s.id);
      const files = repo === null ? { ref: null, paths: [] } : { ref: await headBranch(repo), paths: (await snippetFiles(repo)).paths };
      out.push(snippetEntity(baseUrl, s, project, await store.users.findById(s.authorId), files));
    }
    return out;
  };

  /** The snippet `:snippet_id` of the scope the viewer may read, else 404 Snippet Not Found. */
  const readable = async (family: Family, identity: Identity, pathId: string | undefined, snippetId: number): Promise<Result<{ scope: Scope; snippet: SnippetRecord }, ForgekitError>> => {
    const scope = await scopeOf(config, family, identity, pathId);
    if (scope.isErr()) return err(scope.error);
    const snippet = await store.reviews.findSnippet(snippetId);
    const inScope = snippet !== null && snippet.projectId === (scope.value.project?.id ?? null);
    if (!inScope || !(await canRead(config, identity.user, snippet, scope.value.project))) return err(errors.notFound("Snippet"));
    return ok({ scope: scope.value, snippet });
  };

  const list = (family: Family, path: string, publicOnly: boolean) =>
    defineRoute({
      method: "GET",
      path,
      ...(publicOnly ? { summary: "List public snippets" } : {}),
      auth: family === "personal" ? WRITE : READ,
      schema: z.object({ page: raw, per_page: raw }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const scope = await scopeOf(config, family, identity, pathParams["id"]);
          if (scope.isErr()) return err(scope.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const project = scope.value.project;
          let filter: SnippetListFilter;
          if (project === null) filter = publicOnly ? { projectId: null, visibilities: ["public"] } : { projectId: null, authorId: (identity.user as User).id };
          else {
            const visibilities = await listedVisibilities(config, identity.user, project);
            filter = visibilities === undefined ? { projectId: project.id } : { projectId: project.id, visibilities };
          }
          const result = await store.reviews.listSnippets(filter, page.value);
          return ok({ body: await render(result.items, project), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    });

  const routesOf = (family: Family, base: string, idParam: "id" | "snippet_id"): AnyRoute[] => {
    const one = `${base}/:${idParam}`;
    const snippetIdOf = (params: object) => (params as Record<string, unknown>)[idParam] as number;
    // The snippet id's parameter: `:id` for personal snippets, `:snippet_id` under a project (typed apart from the rest).
    const idShape = { [idParam]: p.recordId() } as object;
    return [
      list(family, base, false),
      defineRoute({
        method: "POST",
        path: base,
        auth: WRITE,
        schema: z.object({
          title: p.string(),
          description: p.string().optional(),
          visibility: family === "project" ? VISIBILITY : VISIBILITY.optional(),
          files: p.array(FILE).optional(),
          file_name: p.string().optional(),
          content: p.string().optional(),
        }),
        handler: ({ identity, pathParams, params, request }) =>
          respond(async () => {
            const scope = await scopeOf(config, family, identity, pathParams["id"]);
            if (scope.isErr()) return err(scope.error);
            const user = identity.user as User;
            const project = scope.value.project;
            if (project !== null && !(await hasProjectAccess(store, user, project, AccessLevel.Reporter, clock.now()))) return err(errors.forbidden());
            if (params.files !== undefined && params.content !== undefined) return err(errors.invalidParam("files, content", "are mutually exclusive"));
            if (params.files === undefined && params.content === undefined) return err(missingOneOf("files, content"));
            if (params.content !== undefined && params.file_name === undefined) return err(errors.missingParam("file_name"));
            const files = params.files?.map((f) => ({ path: f.file_path, content: f.content })) ?? [{ path: params.file_name ?? "", content: params.content ?? "" }];
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "snippet", text: [params.title, params.description ?? "", ...files.map((f) => f.content)].join("\n") });
            if (spam.isErr()) return err(spam.error);
            const created = await service.create({
              projectId: project?.id ?? null,
              authorId: user.id,
              title: params.title,
              files,
              ...(params.description === undefined ? {} : { description: params.description }),
              // Reference: personal snippets default to internal; project snippets name theirs.
              visibility: params.visibility ?? "internal",
            });
            if (created.isErr()) return err(created.error);
            const record = await store.reviews.findSnippet(created.value.id);
            if (record === null) return err(errors.notFound("Snippet"));
            return ok({ status: 201, body: (await render([record], project))[0] });
          }),
      }),
      defineRoute({
        method: "GET",
        path: one,
        auth: READ,
        schema: z.object({ ...idShape }),
        handler: ({ identity, pathParams, params }) =>
          respond(async () => {
            const found = await readable(family, identity, pathParams["id"], snippetIdOf(params));
            if (found.isErr()) return err(found.error);
            return ok({ body: (await render([found.value.snippet], found.value.scope.project))[0] });
          }),
      }),
      defineRoute({
        method: "PUT",
        path: one,
        auth: WRITE,
        schema: z.object({
          ...idShape,
          title: p.string().optional(),
          description: p.string().optional(),
          visibility: VISIBILITY.optional(),
          files: p.array(FILE_ACTION).optional(),
          file_name: p.string().optional(),
          content: p.string().optional(),
        }),
        handler: ({ identity, pathParams, params, request }) =>
          respond(async () => {
            const found = await readable(family, identity, pathParams["id"], snippetIdOf(params));
            if (found.isErr()) return err(found.error);
            const { snippet, scope } = found.value;
            const user = identity.user as User;
            const given = ["title", "file_name", "content", "files", "visibility", "description"] as const;
            const missing = noneGiven(params, given);
            if (missing !== null) return err(missing);
            if (params.files !== undefined && (params.content !== undefined || params.file_name !== undefined)) return err(errors.invalidParam("files, content", "are mutually exclusive"));
            if (!(await canWrite(config, user, snippet, scope.project))) return err(errors.forbidden());
            const messages: Record<string, string[]> = {};
            if (params.title !== undefined && params.title.trim() === "") messages["title"] = ["can't be blank"];
            if (params.visibility !== undefined && scope.project !== null && rank(params.visibility) > rank(scope.project.visibility)) {
              messages["visibility_level"] = [`${params.visibility} is not allowed in a ${scope.project.visibility} project.`];
            }
            const repo = await snippetRepo(config, snippet.id);
            const current = repo === null ? [] : (await snippetFiles(repo)).paths;
            const actions: CommitAction[] = [];
            for (const f of params.files ?? []) {
              if (!isRepositoryFilePath(f.file_path) || (f.previous_path !== undefined && !isRepositoryFilePath(f.previous_path))) messages["files"] = ["is invalid"];
              else if (f.action === "delete") actions.push({ action: "delete", filePath: f.file_path });
              else if (f.action === "move") {
                if (f.previous_path === undefined) return err(errors.missingParam("files[previous_path]"));
                actions.push({ action: "move", filePath: f.file_path, previousPath: f.previous_path, ...(f.content === undefined ? {} : { content: Buffer.from(f.content, "utf8") }) });
              } else {
                if (f.content === undefined) return err(errors.missingParam("files[content]"));
                actions.push({ action: f.action, filePath: f.file_path, content: Buffer.from(f.content, "utf8") });
              }
            }
            if (params.files === undefined && (params.content !== undefined || params.file_name !== undefined)) {
              // The legacy single-file form: only for a snippet with one file.
              if (current.length > 1) return err(errors.badRequestMessage("To update Snippets with multiple files, you must use the `files` parameter"));
              const previous = current[0] ?? snippet.fileName;
              const name = params.file_name ?? previous;
              if (!isRepositoryFilePath(name)) messages["file_name"] = ["is invalid"];
              else if (name !== previous) actions.push({ action: "move", filePath: name, previousPath: previous, ...(params.content === undefined ? {} : { content: Buffer.from(params.content, "utf8") }) });
              else if (params.content !== undefined) actions.push({ action: "update", filePath: name, content: Buffer.from(params.content, "utf8") });
            }
            if (Object.keys(messages).length > 0) return err(errors.validation(messages));
            const text = [params.title ?? snippet.title, params.description ?? snippet.description, params.content ?? "", ...(params.files ?? []).map((f) => f.content ?? "")].join("\n");
            if (params.title !== undefined || params.description !== undefined || params.content !== undefined || params.files !== undefined) {
              const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "snippet", text });
              if (spam.isErr()) return err(spam.error);
            }
            const now = clock.now();
            let change: { before: string | null; after: string } | null = null;
            if (actions.length > 0) {
              if (repo === null) return err(errors.notFound("Repository"));
              const before = (await snippetFiles(repo)).commit;
              const emails = await store.emails.listByUser(user.id);
              const email = (emails.find((e) => e.primary) ?? emails[0])?.email ?? `${user.username}@users.noreply.${new URL(baseUrl).hostname}`;
              const made = await commitSnippetChange(repo, actions, `Update ${actions.map((a) => a.filePath).join(", ")}`, { name: user.name, email, date: now });
              if (!("commit" in made)) return err(errors.badRequestMessage(refusalText(made.reason, "path" in made ? made.path : "")));
              const after = await snippetFiles(repo);
              if (after.paths.length === 0) {
                await undoSnippetChange(repo, made.commit, before);
                return err(errors.validation({ files: ["can't be empty"] }));
              }
              change = { before, after: made.commit };
            }
            const first = repo === null ? null : (await snippetFiles(repo)).paths[0];
            const firstContent = repo === null || first === undefined || first === null ? null : await snippetFile(repo, await headBranch(repo), first);
            try {
              const updated = await store.reviews.updateSnippet(snippet.id, {
                ...(params.title === undefined ? {} : { title: params.title }),
                ...(params.description === undefined ? {} : { description: params.description }),
                ...(params.visibility === undefined ? {} : { visibility: params.visibility }),
                ...(first === undefined || first === null ? {} : { fileName: first }),
                ...(Buffer.isBuffer(firstContent) ? { content: firstContent.toString("utf8") } : {}),
                updatedAt: now,
              });
              if (updated === null) return err(errors.notFound("Snippet"));
              return ok({ body: (await render([updated], scope.project))[0] });
            } catch (cause) {
              if (change !== null && repo !== null) await undoSnippetChange(repo, change.after, change.before);
              throw cause;
            }
          }),
      }),
      defineRoute({
        method: "DELETE",
        path: one,
        auth: WRITE,
        schema: z.object({ ...idShape }),
        handler: ({ identity, pathParams, params }) =>
          respond(async () => {
            const found = await readable(family, identity, pathParams["id"], snippetIdOf(params));
            if (found.isErr()) return err(found.error);
            if (!(await canWrite(config, identity.user as User, found.value.snippet, found.value.scope.project))) return err(errors.forbidden());
            const located = await store.storageMoves.containers.find("snippet", found.value.snippet.id);
            await store.reviews.removeSnippet(found.value.snippet.id);
            // The row is gone: its repository follows (a failure is logged, the repository is orphaned, not the row).
            if (located?.storage !== undefined && located.storage !== null) {
              await config.repositoryStorage.delete(located.storage, { kind: "snippet", id: found.value.snippet.id }).catch((cause: unknown) => {
                config.logger.log("error", "snippets.repository_removal_failed", { snippetId: found.value.snippet.id, error: cause instanceof Error ? cause.message : String(cause) });
              });
            }
            return ok({ status: 204 });
          }),
      }),
      defineRoute({
        method: "GET",
        path: `${one}/raw`,
        auth: READ,
        schema: z.object({ ...idShape }),
        handler: ({ identity, pathParams, params }) =>
          respond(async () => {
            const found = await readable(family, identity, pathParams["id"], snippetIdOf(params));
            if (found.isErr()) return err(found.error);
            const repo = await snippetRepo(config, found.value.snippet.id);
            const first = repo === null ? undefined : (await snippetFiles(repo)).paths[0];
            if (repo === null || first === undefined) return ok(rawResponse(Buffer.from(found.value.snippet.content, "utf8"), found.value.snippet.fileName));
            const data = await snippetFile(repo, await headBranch(repo), first);
            if (data === null) return err(errors.notFound("File"));
            if (data === "too_large") return err(errors.badRequestMessage("File is too large"));
            return ok(rawResponse(data, first));
          }),
      }),
      defineRoute({
        method: "GET",
        path: `${one}/files/:ref/:file_path/raw`,
        auth: READ,
        schema: z.object({ ...idShape, ref: p.string(), file_path: p.string() }),
        handler: ({ identity, pathParams, params }) =>
          respond(async () => {
            const found = await readable(family, identity, pathParams["id"], snippetIdOf(params));
            if (found.isErr()) return err(found.error);
            const repo = await snippetRepo(config, found.value.snippet.id);
            if (repo === null) return err(errors.notFound("File"));
            const ref = params.ref;
            const path = params.file_path;
            const data = await snippetFile(repo, ref, path);
            if (data === null) return err(errors.notFound("File"));
            if (data === "too_large") return err(errors.badRequestMessage("File is too large"));
            return ok(rawResponse(data, path.split("/").pop() ?? path));
          }),
      }),
    ];
  };

  return tagRoutes("Snippets", [list("personal", "/snippets/public", true), ...routesOf("personal", "/snippets", "id"), ...routesOf("project", "/projects/:id/snippets", "snippet_id")]);
}

const rank = (v: Visibility) => (v === "private" ? 0 : v === "internal" ? 1 : 2);

function refusalText(reason: string, path: string): string {
  switch (reason) {
    case "file_exists":
      return `A file with this name already exists: ${path}`;
    case "file_missing":
      return `A file with this name doesn't exist: ${path}`;
    case "branch_moved":
      return "The snippet changed while it was being updated. Please try again.";
    default:
      return `Could not change ${path}`;
  }
}
