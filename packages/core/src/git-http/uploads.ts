/**
 * A project's uploads over HTTP: `GET|HEAD /<namespace>/<project>/uploads/<secret>/<filename>`, the
 * forgekit URLs imported Markdown attachments are rewritten to (imports/attachments.ts). Served
 * next to git over HTTP, with the same reading rules as a clone (anonymous for a public project;
 * credentials as git sends them otherwise), from the project repository's `forgekit-uploads` folder.
 * Only images the browser cannot run (PNG, JPEG, GIF, WebP) are shown inline; everything else is
 * a download, never sniffed, under a sandboxing Content-Security-Policy.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { UPLOAD_FILENAME, UPLOAD_SECRET, UPLOADS_DIRECTORY } from "../imports/attachments.js";
import type { GitHttpResponse } from "./types.js";

/** A matched upload request: the project's full path (decoded) or id, the secret and the file name. */
export interface UploadRoute {
  /** The full path; empty when the request names the project by id (`/-/project/<id>/uploads/…`). */
  projectPath: string;
  /** The project id of a `/-/project/<id>/uploads/…` request, else null. */
  projectId: number | null;
  secret: string;
  filename: string;
}

const UPLOAD = /^\/(.+)\/uploads\/([0-9a-f]{32})\/([^/]+)$/;
/** `/-/project/<id>/uploads/<secret>/<filename>`: the `full_path` `POST /projects/:id/uploads` answers. */
const UPLOAD_BY_ID = /^\/-\/project\/([1-9]\d{0,15})\/uploads\/([0-9a-f]{32})\/([^/]+)$/;

/** Splits `path` (percent-encoded) into project path, secret and file name; null when it is not an upload request. */
export function matchUploadRoute(method: string, path: string): UploadRoute | null {
  const upper = method.toUpperCase();
  if (upper !== "GET" && upper !== "HEAD") return null;
  const byId = UPLOAD_BY_ID.exec(path);
  if (byId !== null) {
    const filename = safeDecode(byId[3] ?? "");
    const id = Number(byId[1]);
    if (filename === null || !UPLOAD_FILENAME.test(filename) || !Number.isSafeInteger(id)) return null;
    return { projectPath: "", projectId: id, secret: byId[2] ?? "", filename };
  }
  const m = UPLOAD.exec(path);
  if (m === null) return null;
  const decoded: string[] = [];
  try {
    for (const segment of (m[1] ?? "").split("/")) {
      const value = decodeURIComponent(segment);
      if (value === "" || value === "." || value === ".." || value.includes("/")) return null;
      decoded.push(value);
    }
    const filename = decodeURIComponent(m[3] ?? "");
    if (decoded.length < 2 || !UPLOAD_SECRET.test(m[2] ?? "") || !UPLOAD_FILENAME.test(filename)) return null;
    return { projectPath: decoded.join("/"), projectId: null, secret: m[2] ?? "", filename };
  } catch {
    return null;
  }
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const INLINE: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

/** The upload's file answered, or null when the project has no such upload. */
export async function uploadResponse(repositoryDirectory: string, route: UploadRoute, head: boolean): Promise<GitHttpResponse | null> {
  const file = join(repositoryDirectory, UPLOADS_DIRECTORY, route.secret, route.filename);
  const found = await stat(file).catch(() => null);
  if (found === null || !found.isFile()) return null;
  const extension = /\.[A-Za-z0-9]+$/.exec(route.filename)?.[0]?.toLowerCase() ?? "";
  const inline = INLINE[extension];
  const headers: Record<string, string> = {
    "content-type": inline ?? "application/octet-stream",
    "content-length": String(found.size),
    "content-disposition": `${inline === undefined ? "attachment" : "inline"}; filename="${route.filename}"`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "private, max-age=3600",
  };
  return { status: 200, headers, body: head ? "" : createReadStream(file) };
}
