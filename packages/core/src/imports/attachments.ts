/**
 * Markdown attachments of imported text (`optional_stages.attachments_import`, issue 10 §2): links
 * and images in issue, pull-request and comment bodies that point at the forge's attachment URLs
 * (`/user-attachments/assets|files/…`, `/<owner>/<repo>/assets|files/…` on the forge's web host,
 * `user-images.githubusercontent.com`) are downloaded through the forge client (the URL guard, the
 * token sent only to the forge's own hosts, at most {@link ATTACHMENT_MAX_BYTES}) and stored with
 * the project — in its repository's directory, `forgekit-uploads/<secret>/<filename>`, so they move
 * with storage moves and go with the project — and the text is rewritten to the forgekit URL that
 * serves them, `<base URL>/<namespace>/<project>/uploads/<secret>/<filename>` (git-http/uploads.ts).
 * A download that fails (too large, refused, gone) leaves the link as it was.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UPLOADS_DIRECTORY } from "../repositories/repository-files.js";

export { UPLOADS_DIRECTORY };
/** Largest attachment downloaded (10 MiB); larger ones stay links to the forge. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** A secret: 32 lowercase hex digits (as the reference's upload secrets). */
export const UPLOAD_SECRET = /^[0-9a-f]{32}$/;
/** A stored file name: what {@link uploadFilename} makes. */
export const UPLOAD_FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** `[text](url)` and `![alt](url)`, with an optional `<…>` around the URL and a `"title"`. */
const MARKDOWN_LINK = /(!?\[[^\]\n]*\]\(\s*)(<?)(https?:\/\/[^\s)<>]+)(>?)((?:\s+"[^"\n]*")?\s*\))/g;
/** Hosts that only serve the forge's attachments. */
const ATTACHMENT_HOSTS = new Set(["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"]);

/**
 * Whether `url` is one of the forge's attachment URLs: on `webOrigin` (the forge's web host:
 * `https://github.com`, or the custom host) under `/user-attachments/…` or `/<owner>/<repo>/assets|files/…`,
 * or on the forge's attachment hosts.
 */
export function isForgeAttachment(url: string, webOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === "https:" && ATTACHMENT_HOSTS.has(parsed.hostname)) return true;
  if (parsed.origin !== webOrigin) return false;
  return /^\/user-attachments\/(assets|files)\/[^/]+/.test(parsed.pathname) || /^\/[^/]+\/[^/]+\/(assets|files)\/[^/]+/.test(parsed.pathname);
}

/** The attachment URLs of `text`, each once, in order. */
export function attachmentUrls(text: string, isAttachment: (url: string) => boolean): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const url = match[3] ?? "";
    if (isAttachment(url) && !found.includes(url)) found.push(url);
  }
  return found;
}

/** `text` with each link whose URL `stored` maps replaced by the stored copy's URL. */
export function rewriteAttachments(text: string, stored: ReadonlyMap<string, string>): string {
  if (stored.size === 0) return text;
  return text.replace(MARKDOWN_LINK, (whole, open: string, lt: string, url: string, gt: string, close: string) => {
    const replacement = stored.get(url);
    return replacement === undefined ? whole : `${open}${lt}${replacement}${gt}${close}`;
  });
}

const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/svg+xml": ".svg",
  "application/pdf": ".pdf",
  "text/plain": ".txt",
  "application/zip": ".zip",
  "video/mp4": ".mp4",
};

/**
 * The file name an attachment is stored under: the URL's last path segment reduced to letters,
 * digits, `.`, `_` and `-` (at most 200), with an extension from the content type when it has none.
 */
export function uploadFilename(url: string, contentType: string | null): string {
  let segment = "";
  try {
    segment = decodeURIComponent(new URL(url).pathname.split("/").filter((s) => s !== "").pop() ?? "");
  } catch {
    segment = "";
  }
  let name = segment.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._-]+/, "").slice(0, 180);
  if (name === "") name = "attachment";
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  const extension = EXTENSIONS[type];
  if (!/\.[A-Za-z0-9]{1,8}$/.test(name) && extension !== undefined) name += extension;
  return name;
}

/** Writes an upload into the repository directory's uploads folder. */
export async function storeUpload(repositoryDirectory: string, secret: string, filename: string, bytes: Uint8Array): Promise<void> {
  if (!UPLOAD_SECRET.test(secret) || !UPLOAD_FILENAME.test(filename)) throw new Error("invalid upload secret or file name");
  const folder = join(repositoryDirectory, UPLOADS_DIRECTORY, secret);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, filename), bytes);
}

/** The forgekit URL that serves an upload of the project at `projectFullPath`. */
export function uploadUrl(baseUrl: string, projectFullPath: string, secret: string, filename: string): string {
  const path = projectFullPath.split("/").map(encodeURIComponent).join("/");
  return `${baseUrl.replace(/\/+$/, "")}/${path}/uploads/${secret}/${encodeURIComponent(filename)}`;
}
