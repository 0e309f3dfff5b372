/**
 * Files forgekit keeps in a repository's directory next to git's own (a project's uploads), and how
 * a replica keeps them in line: `git fetch` brings refs and objects only, so a copy brought up to
 * date by a fetch mirrors these folders from the source as well.
 */
import { constants } from "node:fs";
import { copyFile, mkdir, readdir, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { repositoryStorageFailure } from "./storage-failure.js";

/** The folder of a repository's directory that holds its project's uploads (imports/attachments.ts). */
export const UPLOADS_DIRECTORY = "forgekit-uploads";

/** The folders of a repository's directory that are forgekit's, not git's. */
export const REPOSITORY_FILE_FOLDERS: readonly string[] = [UPLOADS_DIRECTORY];

/**
 * Makes `to` hold what `from` holds: missing files copied (copy-on-write where the file system can;
 * never hard links, which a later write on one shard would carry to the other), files of another
 * size replaced, files and folders the source no longer has removed. A source folder that does not
 * exist empties the target. Anything but files and folders in the source is refused.
 */
export async function mirrorFolder(from: string, to: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await rm(to, { recursive: true, force: true });
    return;
  }
  await mkdir(to, { recursive: true });
  const existing = new Map((await readdir(to, { withFileTypes: true })).map((entry) => [entry.name, entry]));
  for (const entry of entries) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    const there = existing.get(entry.name);
    existing.delete(entry.name);
    if (entry.isDirectory()) {
      if (there !== undefined && !there.isDirectory()) await rm(target, { recursive: true, force: true });
      await mirrorFolder(source, target);
      continue;
    }
    if (!entry.isFile()) throw repositoryStorageFailure("failed", `${source} is neither a file nor a folder`);
    if (there !== undefined) {
      if (there.isFile() && (await stat(source)).size === (await stat(target)).size) continue;
      await rm(target, { recursive: true, force: true });
    }
    await copyFile(source, target, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  }
  // What the source no longer has.
  for (const [name, entry] of existing) {
    if (entry.isDirectory()) await rm(join(to, name), { recursive: true, force: true });
    else await unlink(join(to, name));
  }
}
