/**
 * Project Markdown uploads (reference `lib/api/project_uploads` in `projects.rb`, "Project markdown
 * uploads" API): `POST /projects/:id/uploads` (multipart `file`; anyone who may see the project and
 * is signed in, as the reference's `upload_file` for note authors), the list and deletion for
 * Maintainers. The files are served by git-http/uploads.ts.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { canAdminProject, visibleProject } from "../access/permissions.js";
import type { Project, User } from "../accounts/types.js";
import type { Identity } from "../auth/identity.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { multipartParts } from "../http/multipart.js";
import { p } from "../http/params.js";
import { findProject } from "../repository-api/index.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { HttpRequest } from "../http/types.js";
import { storeUpload } from "../imports/index.js";
import type { Result } from "neverthrow";
import { deleteUploadFile, repositoryDirectory, sanitizeFilename, uploadEntity, uploadListEntity } from "./files.js";

async function projectFor(config: ForgekitConfig, identity: Identity, id: string | undefined, admin: boolean): Promise<Result<Project, ForgekitError>> {
  const now = config.clock.now();
  const visible = await visibleProject(config.store, identity.user, await findProject(config, id ?? ""), now);
  if (visible.isErr()) return visible;
  if (admin && !(await canAdminProject(config.store, identity.user, visible.value, now))) return err(errors.forbidden());
  return ok(visible.value);
}

/** The `file` part of a multipart request: 400 `file is missing` without one. */
function filePart(request: HttpRequest): Result<{ filename: string; bytes: Uint8Array }, ForgekitError> {
  const type = request.headers["content-type"] ?? "";
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!type.toLowerCase().startsWith("multipart/form-data") || boundary === null || request.body === undefined) return err(errors.missingParam("file"));
  const part = multipartParts(request.body, boundary[1] ?? boundary[2] ?? "")?.find((x) => x.name === "file" && x.filename !== null);
  return part === undefined ? err(errors.missingParam("file")) : ok({ filename: part.filename ?? "", bytes: part.bytes });
}

/** The upload routes. */
export function uploadRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock, random, baseUrl } = config;
  return tagRoutes("Project uploads", [
    defineRoute({
      method: "POST",
      path: "/projects/:id/uploads",
      auth: { mode: "required" },
      schema: z.object({ file: p.raw().optional() }),
      handler: ({ identity, pathParams, request }) =>
        respond(async () => {
          const project = await projectFor(config, identity, pathParams["id"], false);
          if (project.isErr()) return err(project.error);
          const file = filePart(request);
          if (file.isErr()) return err(file.error);
          if (file.value.bytes.length > config.limits.uploadBytes) return err(errors.payloadTooLarge());
          const directory = repositoryDirectory(config, project.value);
          if (directory === null) return err(errors.notFound("Repository"));
          const bytes = new Uint8Array(16);
          random.read(bytes);
          const secret = Buffer.from(bytes).toString("hex");
          const filename = sanitizeFilename(file.value.filename);
          await storeUpload(directory, secret, filename, file.value.bytes);
          const upload = await store.uploads.create({ projectId: project.value.id, secret, filename, size: file.value.bytes.length, uploaderId: (identity.user as User).id, createdAt: clock.now() });
          return ok({ status: 201, body: uploadEntity(upload) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/uploads",
      auth: { mode: "required" },
      schema: z.object({ ...PAGINATION_PARAMS }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const project = await projectFor(config, identity, pathParams["id"], true);
          if (project.isErr()) return err(project.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const listed = await store.uploads.list(project.value.id, page.value);
          const body = [];
          for (const upload of listed.items) body.push(uploadListEntity(upload, upload.uploaderId === null ? null : await store.users.findById(upload.uploaderId)));
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/uploads/:upload_id",
      auth: { mode: "required" },
      schema: z.object({ upload_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const project = await projectFor(config, identity, pathParams["id"], true);
          if (project.isErr()) return err(project.error);
          const upload = await store.uploads.find(project.value.id, params.upload_id);
          if (upload === null) return err(errors.notFound("Upload"));
          const directory = repositoryDirectory(config, project.value);
          if (directory !== null) await deleteUploadFile(directory, upload);
          await store.uploads.remove(project.value.id, upload.id);
          return ok({ status: 204 });
        }),
    }),
  ]);
}
