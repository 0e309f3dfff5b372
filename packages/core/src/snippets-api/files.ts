/**
 * A snippet's files live in its bare repository (DESIGN §7): read from the default branch's tip,
 * changed by one commit per update (writes.ts plumbing, compare-and-set on the branch), so each
 * change is a commit, as the reference's `Snippets::UpdateService` makes one.
 */
import { tmpdir } from "node:os";
import type { ForgekitConfig } from "../config.js";
import { containerStorage } from "../repositories/locate.js";
import { listTree, readBlob, resolveCommit } from "../repository-api/git/reads.js";
import { gitRepo, type GitRepo } from "../repository-api/git/repo.js";
import { compareAndSetRef, createCommit, type CommitAction, type CommitRefusal, type Signature } from "../repository-api/git/writes.js";

/** Largest file content a snippet serves (reference `snippet_size_limit`: 50 MiB). */
export const SNIPPET_FILE_MAX_BYTES = 50 * 1024 * 1024;

/** The snippet's repository, or null when it has none on a local disk. */
export async function snippetRepo(config: ForgekitConfig, snippetId: number): Promise<GitRepo | null> {
  const located = await containerStorage(config, config.store, "snippet", snippetId);
  if (located.isErr() || located.value.storage === null) return null;
  const storage = config.repositoryStorage;
  const ref = { kind: "snippet" as const, id: snippetId };
  if (storage.localPath === undefined || !(await storage.exists(located.value.storage, ref))) return null;
  return gitRepo(storage.localPath(located.value.storage, ref), { home: tmpdir() });
}

/** The branch `HEAD` names (the snippet's default branch). */
export async function headBranch(repo: GitRepo): Promise<string> {
  const r = await repo.run(["symbolic-ref", "--short", "HEAD"]);
  const name = r.stdout.toString("utf8").trim();
  return r.code === 0 && name !== "" ? name : "main";
}

/** The files at `ref` (default: the default branch's tip), by path; [] for an empty repository. */
export async function snippetFiles(repo: GitRepo, ref?: string): Promise<{ commit: string | null; paths: string[] }> {
  const commit = await resolveCommit(repo, ref ?? (await headBranch(repo)));
  if (commit === null) return { commit: null, paths: [] };
  const entries = (await listTree(repo, commit, "", true)) ?? [];
  return { commit, paths: entries.filter((e) => e.type === "blob").map((e) => e.path) };
}

/** The content of `path` at `ref`, null when the ref or the file does not exist. */
export async function snippetFile(repo: GitRepo, ref: string, path: string): Promise<Buffer | "too_large" | null> {
  const commit = await resolveCommit(repo, ref);
  if (commit === null) return null;
  const entries = (await listTree(repo, commit, "", true)) ?? [];
  const entry = entries.find((e) => e.type === "blob" && e.path === path);
  if (entry === undefined) return null;
  const blob = await readBlob(repo, entry.id, SNIPPET_FILE_MAX_BYTES);
  if (blob === null) return null;
  return blob === "too_large" ? "too_large" : blob.data;
}

/** Commits `actions` on the default branch; the new commit, or the refusal. */
export async function commitSnippetChange(repo: GitRepo, actions: readonly CommitAction[], message: string, author: Signature): Promise<{ commit: string } | CommitRefusal> {
  const branch = await headBranch(repo);
  const parent = await resolveCommit(repo, branch);
  const made = await createCommit(repo, { parent, actions, message, author, committer: author }, () => Promise.resolve(null));
  if (!("commit" in made)) return made;
  if (!(await compareAndSetRef(repo, `refs/heads/${branch}`, made.commit, parent))) return { reason: "branch_moved" };
  return made;
}

/** Moves the default branch back to `to` if it is still at `from` (undoing a commit whose row did not commit). */
export async function undoSnippetChange(repo: GitRepo, from: string, to: string | null): Promise<void> {
  const branch = await headBranch(repo);
  if (to !== null) await compareAndSetRef(repo, `refs/heads/${branch}`, to, from);
}
