/** Reading a repository: revisions, refs, commits, trees and blobs, each with git plumbing. */
import { remembered } from "./remembered.js";
import { isRevisionText, OBJECT_ID, splitNul, type GitRepo } from "./repo.js";

/** One commit, as `git log` reads it. */
export interface CommitInfo {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  message: string;
}

/** A branch or tag. */
export interface RefInfo {
  /** Without `refs/heads/` / `refs/tags/`. */
  name: string;
  /** What the ref points at (an annotated tag's own object for tags). */
  target: string;
  /** The commit it leads to, or null (a tag on a tree or blob). */
  commitId: string | null;
  /** Annotated tags: the message (else null). */
  message: string | null;
  /** Annotated tags: the tagger date, ISO 8601 (else null). */
  taggedDate: string | null;
}

/** One tree entry. */
export interface TreeEntry {
  id: string;
  name: string;
  type: "tree" | "blob" | "commit";
  path: string;
  mode: string;
}

const COMMIT_FORMAT = ["%H", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%B"].join("%x00");
const COMMIT_FIELDS = 9;

/** Parses `git log -z --format=COMMIT_FORMAT` output. */
export function parseCommits(out: Buffer): CommitInfo[] {
  const fields = splitNul(out);
  const commits: CommitInfo[] = [];
  for (let i = 0; i + COMMIT_FIELDS <= fields.length; i += COMMIT_FIELDS) {
    const [id, parents, an, ae, ad, cn, ce, cd, message] = fields.slice(i, i + COMMIT_FIELDS) as [string, string, string, string, string, string, string, string, string];
    commits.push({
      id: id.replace(/^\n/, ""),
      parentIds: parents === "" ? [] : parents.split(" "),
      authorName: an,
      authorEmail: ae,
      authoredDate: ad,
      committerName: cn,
      committerEmail: ce,
      committedDate: cd,
      message,
    });
  }
  return commits;
}

/**
 * The commit `ref` names: a branch first, then a tag, then any revision git understands (a
 * commit id, `main~1`), like the reference. Null when there is none or `ref` is not usable text.
 * One `cat-file --batch-check` reads all candidates from stdin.
 */
export async function resolveCommit(repo: GitRepo, ref: string): Promise<string | null> {
  if (!isRevisionText(ref)) return null;
  const candidates = [`refs/heads/${ref}^{commit}`, `refs/tags/${ref}^{commit}`, `${ref}^{commit}`];
  const r = await repo.run(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { input: candidates.join("\n") + "\n", maxOutputBytes: 64 * 1024 });
  if (r.code !== 0) return null;
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const [id, type] = line.split(" ");
    if (id !== undefined && OBJECT_ID.test(id) && type === "commit") return id;
  }
  return null;
}

/** Whether the repository has any branch. */
export async function hasBranches(repo: GitRepo): Promise<boolean> {
  const r = await repo.must(["for-each-ref", "--count=1", "--format=%(refname)", "refs/heads/"], { maxOutputBytes: 64 * 1024 });
  return r.length > 0;
}

const REF_FORMAT = ["%(refname)", "%(objectname)", "%(*objectname)", "%(*objecttype)", "%(objecttype)", "%(taggerdate:iso-strict)", "%(contents)"].join("%00") + "%00%01";

/**
 * Branches (`refs/heads/`) or tags (`refs/tags/`), sorted by name, optionally only `names`.
 * Records end with NUL + \x01 so a tag message can hold newlines.
 */
export async function listRefs(repo: GitRepo, kind: "branch" | "tag", names?: readonly string[]): Promise<RefInfo[]> {
  const prefix = kind === "branch" ? "refs/heads/" : "refs/tags/";
  const patterns = names === undefined ? [prefix] : names.map((n) => prefix + n);
  if (patterns.length === 0) return [];
  const out = await repo.must(["for-each-ref", "--sort=refname", `--format=${REF_FORMAT}`, "--end-of-options", ...patterns]);
  const refs: RefInfo[] = [];
  for (const record of out.toString("utf8").split("\0\x01")) {
    const fields = record.replace(/^\n/, "").split("\0");
    if (fields.length < 7) continue;
    const [refname, objectname, peeled, peeledType, type, taggerDate, ...rest] = fields as [string, string, string, string, string, string, ...string[]];
    if (!refname.startsWith(prefix)) continue;
    // for-each-ref patterns also match by prefix up to a slash: keep exact names only.
    const name = refname.slice(prefix.length);
    if (names !== undefined && !names.includes(name)) continue;
    const annotated = type === "tag";
    refs.push({
      name,
      target: objectname,
      commitId: annotated ? (peeledType === "commit" ? peeled : null) : type === "commit" ? objectname : null,
      message: annotated ? rest.join("\0").replace(/\n$/, "") : null,
      taggedDate: annotated && taggerDate !== "" ? taggerDate : null,
    });
  }
  return refs;
}

/** Filters of {@link listCommits}. */
export interface CommitFilter {
  /** Revisions to start from (commit ids); ignored when `all`. */
  from: string[];
  all?: boolean;
  /** Commits not reachable from these (a range). */
  exclude?: string[];
  since?: string;
  until?: string;
  path?: string;
  firstParent?: boolean;
  /** Commits whose author name or e-mail contains this text (a fixed string, never a regular expression). */
  author?: string;
  /** Topological order instead of date order. */
  topo?: boolean;
  /** Oldest first. */
  reverse?: boolean;
  skip?: number;
  /** At most this many (bounded by the caller). */
  limit: number;
}

/** Commits newest first (or oldest first with `reverse`), filtered. */
export async function listCommits(repo: GitRepo, filter: CommitFilter): Promise<CommitInfo[]> {
  const args = ["log", "-z", "--no-color", "--no-decorate", "--no-show-signature", `--format=${COMMIT_FORMAT}`, `--max-count=${filter.limit}`];
  if (filter.skip !== undefined && filter.skip > 0) args.push(`--skip=${filter.skip}`);
  if (filter.since !== undefined) args.push(`--since=${filter.since}`);
  if (filter.until !== undefined) args.push(`--until=${filter.until}`);
  if (filter.firstParent === true) args.push("--first-parent");
  if (filter.author !== undefined) args.push("--fixed-strings", `--author=${filter.author}`);
  if (filter.topo === true) args.push("--topo-order");
  if (filter.reverse === true) args.push("--reverse");
  args.push("--end-of-options");
  if (filter.all === true) args.push("--branches", "--tags");
  else args.push(...filter.from);
  for (const id of filter.exclude ?? []) args.push(`^${id}`);
  args.push("--");
  if (filter.path !== undefined && filter.path !== "") args.push(filter.path);
  return parseCommits(await repo.must(args));
}

/** Number of commits the filter matches (for `X-Total`). */
export async function countCommits(repo: GitRepo, filter: Omit<CommitFilter, "limit" | "skip" | "reverse" | "topo">): Promise<number> {
  const args = ["rev-list", "--count"];
  if (filter.since !== undefined) args.push(`--since=${filter.since}`);
  if (filter.until !== undefined) args.push(`--until=${filter.until}`);
  if (filter.firstParent === true) args.push("--first-parent");
  if (filter.author !== undefined) args.push("--fixed-strings", `--author=${filter.author}`);
  args.push("--end-of-options");
  if (filter.all === true) args.push("--branches", "--tags");
  else args.push(...filter.from);
  for (const id of filter.exclude ?? []) args.push(`^${id}`);
  args.push("--");
  if (filter.path !== undefined && filter.path !== "") args.push(filter.path);
  const n = Number.parseInt((await repo.must(args)).toString("utf8").trim(), 10);
  return Number.isSafeInteger(n) ? n : 0;
}

/** One commit by id (already resolved), or null. */
export async function readCommit(repo: GitRepo, id: string): Promise<CommitInfo | null> {
  if (!OBJECT_ID.test(id)) return null;
  const r = await repo.run(["log", "-z", "--no-color", "--no-show-signature", "--max-count=1", `--format=${COMMIT_FORMAT}`, "--end-of-options", id, "--"]);
  return r.code === 0 ? (parseCommits(r.stdout)[0] ?? null) : null;
}

/** The newest commit reachable from `commit` that touched `path`, or null. */
export async function lastCommitFor(repo: GitRepo, commit: string, path: string): Promise<string | null> {
  const r = await repo.must(["log", "--max-count=1", "--format=%H", "--end-of-options", commit, "--", path]);
  const id = r.toString("utf8").trim();
  return id === "" ? null : id;
}

function parseTreeRecords(out: Buffer, prefix: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of splitNul(out)) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, id] = record.slice(0, tab).split(" ") as [string, string, string];
    const path = prefix + record.slice(tab + 1);
    const slash = path.lastIndexOf("/");
    entries.push({ id, name: path.slice(slash + 1), type: type as TreeEntry["type"], path, mode });
  }
  return entries;
}

/**
 * The entry at `path` in `commit` (a file, folder or submodule), or null. `path` goes after `--`
 * with literal pathspecs, so any byte sequence but NUL names only itself.
 */
export async function entryAt(repo: GitRepo, commit: string, path: string): Promise<TreeEntry | null> {
  const clean = path.replace(/\/+$/, "");
  if (clean === "") return null;
  const out = await repo.must(["ls-tree", "-z", "-d", "--full-tree", commit, "--", clean]);
  const direct = parseTreeRecords(out, "").find((e) => e.path === clean);
  if (direct !== undefined) return direct;
  const files = await repo.must(["ls-tree", "-z", "--full-tree", commit, "--", clean]);
  return parseTreeRecords(files, "").find((e) => e.path === clean) ?? null;
}

/** Maximum entries a tree listing reads (a recursive listing of a huge repository stops there). */
export const MAX_TREE_ENTRIES = 100_000;

/**
 * The entries of the folder at `path` (root when empty) in `commit`, folders and files in git's
 * order (by name); recursive listings include the folders. Null when `path` is not a folder.
 */
export async function listTree(repo: GitRepo, commit: string, path: string, recursive: boolean): Promise<TreeEntry[] | null> {
  const clean = path.replace(/\/+$/, "");
  if (clean !== "") {
    const folder = await entryAt(repo, commit, clean);
    if (folder === null || folder.type !== "tree") return null;
  }
  const args = ["ls-tree", "-z", "--full-tree", ...(recursive ? ["-r", "-t"] : []), commit];
  if (clean !== "") args.push("--", `${clean}/`);
  const out = await repo.must(args, { maxOutputBytes: 64 * 1024 * 1024 });
  return parseTreeRecords(out, "").filter((e) => e.path !== clean).slice(0, MAX_TREE_ENTRIES);
}

/** The size and type of an object, or null when there is none. */
export async function objectInfo(repo: GitRepo, id: string): Promise<{ type: string; size: number } | null> {
  if (!isRevisionText(id)) return null;
  const r = await repo.run(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], { input: `${id}\n`, maxOutputBytes: 4096 });
  const [oid, type, size] = r.stdout.toString("utf8").trim().split(" ");
  if (r.code !== 0 || oid === undefined || !OBJECT_ID.test(oid) || type === undefined || size === undefined) return null;
  return { type, size: Number(size) };
}

/** A blob's bytes (at most `maxBytes`: larger blobs are `too_large`), or null when `id` is no blob. */
export async function readBlob(repo: GitRepo, id: string, maxBytes: number): Promise<{ id: string; data: Buffer } | "too_large" | null> {
  if (!OBJECT_ID.test(id) && !/^[0-9a-f]{4,64}$/.test(id)) return null;
  const r = await repo.run(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], { input: `${id}\n`, maxOutputBytes: 4096 });
  const [oid, type, size] = r.stdout.toString("utf8").trim().split(" ");
  if (oid === undefined || !OBJECT_ID.test(oid) || type !== "blob") return null;
  if (Number(size) > maxBytes) return "too_large";
  return { id: oid, data: await repo.must(["cat-file", "blob", oid], { maxOutputBytes: maxBytes }) };
}

/**
 * The commits branches point at, in the order asked (null for a missing branch, a name git cannot
 * read, or a branch that leads to no commit): one `cat-file --batch-check` answers all of them.
 */
export async function branchCommits(repo: GitRepo, branches: readonly string[]): Promise<(string | null)[]> {
  const usable = branches.map((b) => isRevisionText(b));
  const asked = branches.filter((_, i) => usable[i]);
  if (asked.length === 0) return branches.map(() => null);
  // Without %(rest) in the format, cat-file reads each whole line as one object name (spaces included).
  const input = asked.map((b) => `refs/heads/${b}^{commit}\n`).join("");
  const r = await repo.run(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { input, maxOutputBytes: 64 * 1024 });
  const lines = r.code === 0 ? r.stdout.toString("utf8").split("\n") : [];
  let next = 0;
  return branches.map((_, i) => {
    if (!usable[i]) return null;
    const [id, type] = (lines[next++] ?? "").split(" ");
    return id !== undefined && OBJECT_ID.test(id) && type === "commit" ? id : null;
  });
}

/** The commit a branch points at, or null. */
export async function branchCommit(repo: GitRepo, branch: string): Promise<string | null> {
  return (await branchCommits(repo, [branch]))[0] ?? null;
}

/** The merge base of two commits, or null when they share no history. */
export function mergeBase(repo: GitRepo, a: string, b: string): Promise<string | null> {
  const asked = remembered(repo, "merge-base", [a, b], async () => {
    const r = await repo.run(["merge-base", "--end-of-options", a, b]);
    const id = r.stdout.toString("utf8").trim();
    // Exit 1 with no output: the commits share no history (an answer); other exits are git failing.
    return { id: r.code === 0 && OBJECT_ID.test(id) ? id : null, answered: r.code === 0 || (r.code === 1 && id === "") };
  }, (answer) => answer.answered);
  return asked.then((answer) => answer.id);
}
