/**
 * Writing a bare repository without a working tree: blobs with `hash-object -w --stdin`, a
 * temporary index (`GIT_INDEX_FILE`) filled by `read-tree` and `update-index -z --index-info`,
 * `write-tree`, `commit-tree`, and `update-ref <ref> <new> <old>` so a concurrent change of the
 * branch makes the write fail instead of being lost.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TreeEntry } from "./reads.js";
import { OBJECT_ID, splitNul, ZERO_OID, type GitRepo } from "./repo.js";
import { isValidRefName } from "./ref-names.js";

/** Who and when, for commits and tags. */
export interface Signature {
  name: string;
  email: string;
  date: Date;
}

/** One change of a commit (reference `actions[]`). */
export type CommitAction =
  | { action: "create" | "update"; filePath: string; content: Buffer; executable?: boolean; lastCommitId?: string }
  | { action: "delete"; filePath: string; lastCommitId?: string }
  | { action: "move"; filePath: string; previousPath: string; content?: Buffer; lastCommitId?: string }
  | { action: "chmod"; filePath: string; executable: boolean; lastCommitId?: string };

/** Why a commit was refused (the caller words it). */
export type CommitRefusal =
  | { reason: "file_exists"; path: string }
  | { reason: "file_missing"; path: string }
  | { reason: "file_changed"; path: string }
  | { reason: "not_a_file"; path: string }
  | { reason: "branch_moved" };

/** What a commit needs. */
export interface CommitInput {
  /** The commit the change starts from; null for the first commit of a branch without history. */
  parent: string | null;
  actions: readonly CommitAction[];
  message: string;
  author: Signature;
  committer: Signature;
}

/** Strips what git itself refuses in identities (`<`, `>`, newlines). */
function identity(text: string): string {
  return text.replace(/[<>\n\r\0]/g, "").trim();
}

function signatureEnv(prefix: "AUTHOR" | "COMMITTER", s: Signature): Record<string, string> {
  return {
    [`GIT_${prefix}_NAME`]: identity(s.name) || "unknown",
    [`GIT_${prefix}_EMAIL`]: identity(s.email),
    [`GIT_${prefix}_DATE`]: `@${Math.floor(s.date.getTime() / 1000)} +0000`,
  };
}

/** Writes `content` as a blob; resolves its id. */
export async function writeBlob(repo: GitRepo, content: Buffer): Promise<string> {
  return (await repo.must(["hash-object", "-w", "--stdin"], { input: content })).toString("utf8").trim();
}

/**
 * Writes many blobs with one `hash-object -w --stdin-paths` (the contents go through temporary
 * files named by forgekit, never by a user); resolves their ids in order.
 */
export async function writeBlobs(repo: GitRepo, contents: readonly Buffer[]): Promise<string[]> {
  if (contents.length === 0) return [];
  if (contents.length === 1) return [await writeBlob(repo, contents[0] as Buffer)];
  const dir = await mkdtemp(join(tmpdir(), "forgekit-blobs-"));
  try {
    const paths = contents.map((_, i) => join(dir, String(i)));
    await Promise.all(contents.map((content, i) => writeFile(paths[i] as string, content)));
    const out = (await repo.must(["hash-object", "-w", "--no-filters", "--stdin-paths"], { input: paths.join("\n") + "\n" })).toString("utf8").trim().split("\n");
    if (out.length !== contents.length || !out.every((id) => OBJECT_ID.test(id))) throw new Error("hash-object did not write every blob");
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The entries at `paths` in `commit` (files, and folders as `tree`), read with one `ls-tree`. */
async function entriesAt(repo: GitRepo, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
  const found = new Map<string, TreeEntry>();
  if (paths.length === 0) return found;
  const out = await repo.must(["ls-tree", "-r", "-t", "-z", "--full-tree", commit, "--", ...new Set(paths)], { maxOutputBytes: 256 * 1024 * 1024 });
  const wanted = new Set(paths);
  for (const record of splitNul(out)) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const path = record.slice(tab + 1);
    if (!wanted.has(path)) continue;
    const [mode, type, id] = record.slice(0, tab).split(" ") as [string, string, string];
    found.set(path, { id, mode, path, name: path.slice(path.lastIndexOf("/") + 1), type: type as TreeEntry["type"] });
  }
  return found;
}

/** A staged file: its mode and blob (an id, or the index of a blob still to be written). */
interface Staged {
  mode: string;
  id: string | number;
  type?: string;
}

/**
 * Builds the commit of `input` (not yet on any ref). Resolves its id, or a refusal when an action
 * does not fit the tree (creating a file that exists, updating one that does not, a file changed
 * after `lastCommitId`). Git runs a fixed number of times whatever the number of actions: one
 * lookup of every named path, one write of every blob, one index update.
 */
export async function createCommit(repo: GitRepo, input: CommitInput, lastCommitOf: (path: string) => Promise<string | null>): Promise<{ commit: string } | CommitRefusal> {
  const index = join(tmpdir(), `forgekit-index-${randomBytes(12).toString("hex")}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await repo.must(input.parent === null ? ["read-tree", "--empty"] : ["read-tree", input.parent], { env });
    const named = input.actions.flatMap((a) => (a.action === "move" ? [a.filePath, a.previousPath] : [a.filePath]));
    const existingEntries = input.parent === null ? new Map<string, TreeEntry>() : await entriesAt(repo, input.parent, named);
    const blobs: Buffer[] = [];
    const blob = (content: Buffer) => blobs.push(content) - 1;
    const lines: { mode: string; id: string | number; path: string }[] = [];
    // Later actions see earlier ones (a file created then updated in one commit), as the reference.
    const staged = new Map<string, Staged | null>();
    const current = (path: string): Staged | null => (staged.has(path) ? (staged.get(path) ?? null) : (existingEntries.get(path) ?? null));
    for (const a of input.actions) {
      if (a.lastCommitId !== undefined && input.parent !== null) {
        const last = await lastCommitOf(a.action === "move" ? a.previousPath : a.filePath);
        if (last !== null && last !== a.lastCommitId) return { reason: "file_changed", path: a.filePath };
      }
      const existing = current(a.filePath);
      if (existing?.type !== undefined && existing.type !== "blob") return { reason: "not_a_file", path: a.filePath };
      switch (a.action) {
        case "create":
        case "update": {
          if (a.action === "create" && existing !== null) return { reason: "file_exists", path: a.filePath };
          if (a.action === "update" && existing === null) return { reason: "file_missing", path: a.filePath };
          const mode = a.executable === undefined ? (existing?.mode ?? "100644") : a.executable ? "100755" : "100644";
          const id = blob(a.content);
          lines.push({ mode, id, path: a.filePath });
          staged.set(a.filePath, { mode, id });
          break;
        }
        case "delete":
          if (existing === null) return { reason: "file_missing", path: a.filePath };
          lines.push({ mode: "0", id: ZERO_OID, path: a.filePath });
          staged.set(a.filePath, null);
          break;
        case "move": {
          const previous = current(a.previousPath);
          if (previous === null || (previous.type !== undefined && previous.type !== "blob")) return { reason: "file_missing", path: a.previousPath };
          if (existing !== null && a.filePath !== a.previousPath) return { reason: "file_exists", path: a.filePath };
          const id = a.content === undefined ? previous.id : blob(a.content);
          lines.push({ mode: "0", id: ZERO_OID, path: a.previousPath }, { mode: previous.mode, id, path: a.filePath });
          staged.set(a.previousPath, null);
          staged.set(a.filePath, { mode: previous.mode, id });
          break;
        }
        case "chmod": {
          if (existing === null) return { reason: "file_missing", path: a.filePath };
          const mode = a.executable ? "100755" : "100644";
          lines.push({ mode, id: existing.id, path: a.filePath });
          staged.set(a.filePath, { mode, id: existing.id });
          break;
        }
      }
    }
    const ids = await writeBlobs(repo, blobs);
    // NUL-terminated `--index-info` records: any path but NUL passes through unchanged; mode 0 removes.
    const info = lines.map((l) => `${l.mode} ${typeof l.id === "number" ? (ids[l.id] as string) : l.id}\t${l.path}\0`).join("");
    const updated = await repo.run(["update-index", "-z", "--index-info"], { env, input: info });
    if (updated.code !== 0) return { reason: "not_a_file", path: input.actions[0]?.filePath ?? "" };
    const tree = (await repo.must(["write-tree"], { env })).toString("utf8").trim();
    const args = ["commit-tree", tree, ...(input.parent === null ? [] : ["-p", input.parent]), "-F", "-"];
    const commit = (await repo.must(args, { input: input.message, env: { ...signatureEnv("AUTHOR", input.author), ...signatureEnv("COMMITTER", input.committer) } })).toString("utf8").trim();
    return { commit };
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * Sets `ref` (a full ref name) to `to`, only if it is still at `from` (null: must not exist).
 * Resolves false when the ref moved meanwhile (or exists already).
 */
export async function compareAndSetRef(repo: GitRepo, ref: string, to: string, from: string | null): Promise<boolean> {
  if (!OBJECT_ID.test(to) || !ref.startsWith("refs/")) throw new Error("compareAndSetRef: bad arguments");
  const r = await repo.run(["update-ref", "--no-deref", "--end-of-options", ref, to, from ?? ZERO_OID]);
  return r.code === 0;
}

/** Deletes `ref` if it is still at `from`; resolves whether it was deleted. */
export async function deleteRef(repo: GitRepo, ref: string, from: string): Promise<boolean> {
  if (!ref.startsWith("refs/")) throw new Error("deleteRef: bad ref");
  const r = await repo.run(["update-ref", "--no-deref", "-d", "--end-of-options", ref, from]);
  return r.code === 0;
}

/** Whether git accepts `name` as a branch or tag name (git's `check-ref-format` rules, ref-names.ts). */
export function validRefName(kind: "branch" | "tag", name: string): boolean {
  if (name === "" || name.startsWith("-") || name === "HEAD" || Buffer.byteLength(name) > 255) return false;
  return isValidRefName(`${kind === "branch" ? "refs/heads/" : "refs/tags/"}${name}`);
}

/** Writes an annotated tag object for `target` (a commit id); resolves the tag object's id. */
export async function writeTagObject(repo: GitRepo, name: string, target: string, message: string, tagger: Signature): Promise<string> {
  const who = `${identity(tagger.name) || "unknown"} <${identity(tagger.email)}> ${Math.floor(tagger.date.getTime() / 1000)} +0000`;
  const body = message.endsWith("\n") ? message : `${message}\n`;
  const text = `object ${target}\ntype commit\ntag ${name}\ntagger ${who}\n\n${body}`;
  return (await repo.must(["mktag"], { input: text })).toString("utf8").trim();
}

/** Points `HEAD` at `refs/heads/<branch>` (the first branch of an empty repository). */
export async function setHead(repo: GitRepo, branch: string): Promise<void> {
  await repo.must(["symbolic-ref", "HEAD", `refs/heads/${branch}`]);
}
