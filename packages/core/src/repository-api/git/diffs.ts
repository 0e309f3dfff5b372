/**
 * Diffs between two commits (or a commit and its first parent) with `git diff-tree`: the file list
 * from `--raw -z` (exact names, modes, statuses), the patch text from `-p`, split at each
 * `diff --git` header (a hunk line never starts with it), both in git's one order. Bounded: at
 * most `maxFiles` files and `maxPatchBytes` of patch text in all; a file whose patch does not fit
 * is listed with an empty `diff` and `tooLarge`.
 */
import { OBJECT_ID, splitNul, type GitRepo } from "./repo.js";

/** One changed file. */
export interface FileDiff {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  /** The patch from its first `@@` (or git's `Binary files … differ` line). */
  diff: string;
  tooLarge: boolean;
}

/** Line counts of a diff. */
export interface DiffStats {
  additions: number;
  deletions: number;
  total: number;
}

/** Limits of {@link diffCommits}. */
export interface DiffLimits {
  maxFiles: number;
  maxPatchBytes: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxFiles: 1000, maxPatchBytes: 5 * 1024 * 1024 };

/** `from` null: against the empty tree (a root commit). */
function endpoints(repo: GitRepo, from: string | null, to: string): string[] {
  if (!OBJECT_ID.test(to) || (from !== null && !OBJECT_ID.test(from))) throw new Error("diff endpoints must be object ids");
  return from === null ? ["--root", to] : [from, to];
}

/** The files changed from `from` to `to`, with their patches. */
export async function diffCommits(repo: GitRepo, from: string | null, to: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Promise<FileDiff[]> {
  const ends = endpoints(repo, from, to);
  const raw = await repo.must(["diff-tree", "-r", "-z", "-M", "--raw", "--no-abbrev", "--no-commit-id", ...ends]);
  const files = parseRaw(raw).slice(0, limits.maxFiles);
  if (files.length === 0) return [];
  const patch = await repo.run(["diff-tree", "-r", "-p", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--no-commit-id", "--full-index", ...ends], { maxOutputBytes: limits.maxPatchBytes });
  const sections = patch.code === 0 || patch.tooLarge ? splitPatch(patch.stdout.toString("utf8")) : [];
  return files.map((file, i) => {
    const section = sections[i];
    const complete = section !== undefined && (i < sections.length - 1 || !patch.tooLarge);
    return { ...file, diff: complete ? section : "", tooLarge: !complete };
  });
}

/** Additions and deletions from `from` to `to` (binary files count 0). */
export async function diffStats(repo: GitRepo, from: string | null, to: string): Promise<DiffStats> {
  const out = await repo.must(["diff-tree", "-r", "-z", "-M", "--numstat", "--no-commit-id", ...endpoints(repo, from, to)]);
  let additions = 0;
  let deletions = 0;
  const parts = splitNul(out);
  for (let i = 0; i < parts.length; i += 1) {
    // `<added>\t<deleted>\t<path>`, or for a rename `<added>\t<deleted>\t` followed by the two paths.
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(parts[i] ?? "");
    if (m === null) continue;
    additions += m[1] === "-" ? 0 : Number(m[1]);
    deletions += m[2] === "-" ? 0 : Number(m[2]);
    if (m[3] === "") i += 2;
  }
  return { additions, deletions, total: additions + deletions };
}

type RawFile = Omit<FileDiff, "diff" | "tooLarge">;

/** `:<a mode> <b mode> <a sha> <b sha> <status>\0<path>\0[<new path>\0]` records. */
function parseRaw(out: Buffer): RawFile[] {
  const parts = splitNul(out);
  const files: RawFile[] = [];
  for (let i = 0; i < parts.length; ) {
    const header = parts[i] ?? "";
    i += 1;
    if (!header.startsWith(":")) continue;
    const [aMode, bMode, , , status = ""] = header.slice(1).split(" ");
    const first = parts[i] ?? "";
    i += 1;
    const renamed = status.startsWith("R") || status.startsWith("C");
    const second = renamed ? (parts[i] ?? "") : first;
    if (renamed) i += 1;
    files.push({
      oldPath: first,
      newPath: second,
      aMode: aMode ?? "0",
      bMode: bMode ?? "0",
      newFile: status === "A",
      deletedFile: status === "D",
      renamedFile: status.startsWith("R"),
    });
  }
  return files;
}

/** The patch text of each file, from its first `@@` or `Binary files` line. */
function splitPatch(text: string): string[] {
  const sections = text.split(/^diff --git /m).slice(1);
  return sections.map((section) => {
    const hunk = section.search(/^(?:@@|Binary files )/m);
    return hunk < 0 ? "" : section.slice(hunk);
  });
}
