/**
 * Project Markdown uploads on disk and as the reference shows them (`Projects::UploadsController`,
 * `FileUploader#to_h`): a file kept at `<repository>/forgekit-uploads/<secret>/<filename>` — the folder
 * imported attachments use, so uploads move and go with the repository — and the JSON answer
 * `{id, alt, url, full_path, markdown}`.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Project } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { UPLOADS_DIRECTORY } from "../imports/index.js";
import type { ProjectUpload } from "../ports/uploads-store.js";

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|svg|tiff?)$/i;
const VIDEO = /\.(mp4|m4v|mov|webm|ogv)$/i;

/** The name a file is stored under (reference `sanitize_filename`): letters, digits, `.`, `_`, `-`; at most 200. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._-]+/, "").slice(0, 200);
  return clean === "" ? "file" : clean;
}

/** The project's repository directory, or null when its storage is not on a local disk. */
export function repositoryDirectory(config: ForgekitConfig, project: Project): string | null {
  const storage = config.repositoryStorage;
  return storage.localPath === undefined ? null : storage.localPath(project.repositoryStorage, { kind: "project", id: project.id });
}

/** Deletes an upload's file (and its secret folder). */
export async function deleteUploadFile(directory: string, upload: ProjectUpload): Promise<void> {
  await rm(join(directory, UPLOADS_DIRECTORY, upload.secret), { recursive: true, force: true });
}

/** The answer of `POST /projects/:id/uploads` (reference `FileUploader#to_h`). */
export function uploadEntity(upload: ProjectUpload) {
  const url = `/uploads/${upload.secret}/${upload.filename}`;
  const alt = upload.filename.replace(/\.[^.]*$/, "");
  const markdown = IMAGE.test(upload.filename) || VIDEO.test(upload.filename) ? `![${alt}](${url})` : `[${upload.filename}](${url})`;
  return { id: upload.id, alt, url, full_path: `/-/project/${upload.projectId}/uploads/${upload.secret}/${upload.filename}`, markdown };
}

/** An entry of `GET /projects/:id/uploads` (reference `Entities::MarkdownUploadAdmin`). */
export function uploadListEntity(upload: ProjectUpload, uploader: { id: number; username: string; name: string } | null) {
  return { id: upload.id, size: upload.size, filename: upload.filename, created_at: upload.createdAt.toISOString(), uploaded_by: uploader === null ? null : { id: uploader.id, username: uploader.username, name: uploader.name } };
}
