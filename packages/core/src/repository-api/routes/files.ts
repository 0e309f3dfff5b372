/**
 * `/projects/:id/repository/files/:file_path` (reference `lib/api/files.rb`): GET (base64 content
 * and the file's metadata, also as `X-Gitlab-*` headers, so HEAD answers with the headers alone),
 * `/raw`, and POST / PUT / DELETE committing one change to `branch`.
 */
import { createHash } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { errors, type ForgekitError } from "../../errors.js";
import { p, paramError, REASONS } from "../../http/params.js";
import { defineRoute, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { RouteResult } from "../../http/types.js";
import { isRepositoryFilePath } from "../../repositories/names.js";
import type { RepositoryApiDeps } from "../context.js";
import { entryAt, lastCommitFor, readBlob, resolveCommit } from "../git/reads.js";
import type { CommitAction } from "../git/writes.js";
import { commitChanges } from "../service.js";
import { decodeContent } from "./commits.js";
import { READ_AUTH, WRITE_AUTH, withRepository, type Opened } from "./kit.js";
import { MAX_BLOB_BYTES, rawHeaders } from "./reads.js";

const PATH = "/projects/:id/repository/files/:file_path";

const filePath = () => p.string().refine((v) => isRepositoryFilePath(v), { message: "should be a valid file path" });

interface FileData {
  meta: Record<string, string | number | boolean>;
  data: Buffer;
}

/** The blob at `path` in `ref` with the reference's `blob_data` fields; 404 Commit / File Not Found. */
async function fileAt(o: Opened, path: string, ref: string): Promise<Result<FileData, ForgekitError>> {
  const commit = await resolveCommit(o.repo, ref);
  if (commit === null) return err(errors.notFound("Commit"));
  const entry = await entryAt(o.repo, commit, path);
  if (entry === null || entry.type !== "blob") return err(errors.notFound("File"));
  const blob = await readBlob(o.repo, entry.id, MAX_BLOB_BYTES);
  if (blob === null) return err(errors.notFound("File"));
  if (blob === "too_large") return err(errors.payloadTooLarge());
  const meta = {
    file_name: entry.name,
    file_path: entry.path,
    size: blob.data.length,
    encoding: "base64",
    content_sha256: createHash("sha256").update(blob.data).digest("hex"),
    ref,
    blob_id: entry.id,
    commit_id: commit,
    last_commit_id: (await lastCommitFor(o.repo, commit, entry.path)) ?? commit,
    execute_filemode: entry.mode === "100755",
  };
  return ok({ meta, data: blob.data });
}

/** The metadata as the reference's `X-Gitlab-*` headers (file names percent-encoded: headers carry no newlines). */
function metaHeaders(meta: FileData["meta"]): Record<string, string> {
  const header = (key: string) => `x-gitlab-${key.replace(/_/g, "-")}`;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) out[header(key)] = key === "file_name" || key === "file_path" || key === "ref" ? encodeURIComponent(String(value)) : String(value);
  return out;
}

const writeFields = {
  file_path: filePath(),
  branch: p.string({ allowBlank: false }),
  commit_message: p.string({ allowBlank: false }),
  start_branch: p.string().optional(),
  author_email: p.string().optional(),
  author_name: p.string().optional(),
};
const contentFields = {
  ...writeFields,
  content: p.string(),
  encoding: p.enum(["text", "base64"]).default("text"),
  last_commit_id: p.string().optional(),
  execute_filemode: p.bool().optional(),
};

/** Builds the file routes. */
export function fileRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  const write = (method: "POST" | "PUT") =>
    defineRoute({
      method,
      path: PATH,
      auth: WRITE_AUTH,
      schema: z.object(contentFields),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o): Promise<Result<RouteResult, ForgekitError>> => {
            const content = decodeContent(params.content, params.encoding);
            if (content === null) return err(paramError([{ param: "content", reason: REASONS.invalid }]));
            const action: CommitAction = {
              action: method === "POST" ? "create" : "update",
              filePath: params.file_path,
              content,
              ...(params.execute_filemode === undefined ? {} : { executable: params.execute_filemode }),
              ...(params.last_commit_id === undefined || params.last_commit_id === "" ? {} : { lastCommitId: params.last_commit_id }),
            };
            const made = await commitChanges(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, { branch: params.branch, startBranch: params.start_branch, message: params.commit_message, actions: [action], authorName: params.author_name, authorEmail: params.author_email });
            if (made.isErr()) return err(made.error);
            return ok({ status: method === "POST" ? 201 : 200, body: { file_path: params.file_path, branch: params.branch } });
          }),
        ),
    });
  return [
    defineRoute({
      method: "GET",
      path: PATH,
      auth: READ_AUTH,
      schema: z.object({ file_path: filePath(), ref: p.string({ allowBlank: false }) }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const file = await fileAt(o, params.file_path, params.ref);
            if (file.isErr()) return err(file.error);
            return ok({ body: { ...file.value.meta, content: file.value.data.toString("base64") }, headers: metaHeaders(file.value.meta) });
          }),
        ),
    }),
    defineRoute({
      method: "GET",
      path: `${PATH}/raw`,
      auth: READ_AUTH,
      schema: z.object({ file_path: filePath(), ref: p.string({ allowBlank: false }).optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "read", async (o) => {
            const file = await fileAt(o, params.file_path, params.ref ?? o.project.defaultBranch ?? "HEAD");
            if (file.isErr()) return err(file.error);
            return ok({ raw: file.value.data, headers: { ...metaHeaders(file.value.meta), ...rawHeaders(file.value.data) } });
          }),
        ),
    }),
    write("POST"),
    write("PUT"),
    defineRoute({
      method: "DELETE",
      path: PATH,
      auth: WRITE_AUTH,
      schema: z.object({ ...writeFields, last_commit_id: p.string().optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(() =>
          withRepository(deps, identity, pathParams["id"], "write", async (o) => {
            const action: CommitAction = { action: "delete", filePath: params.file_path, ...(params.last_commit_id === undefined || params.last_commit_id === "" ? {} : { lastCommitId: params.last_commit_id }) };
            const made = await commitChanges(deps, o.repo, o.project, o.user as NonNullable<typeof o.user>, { branch: params.branch, startBranch: params.start_branch, message: params.commit_message, actions: [action], authorName: params.author_name, authorEmail: params.author_email });
            return made.isErr() ? err(made.error) : ok({ status: 204 });
          }),
        ),
    }),
  ];
}
