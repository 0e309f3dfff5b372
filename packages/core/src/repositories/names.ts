/** Checks of the names a repository is written with: branch names and file paths. */

/** Whether `text` has a C0 control character or DEL (git refuses them in ref names and paths). */
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Whether `name` is a branch name git accepts (`git check-ref-format --branch` rules): checked
 * before it reaches `HEAD`, so a bad default branch is a validation error, not a git failure.
 */
export function isBranchName(name: string): boolean {
  if (name === "" || name === "@" || name.length > 255 || name.startsWith("-")) return false;
  // Control characters, space and the characters refs reserve for revision syntax.
  if (hasControl(name) || /[ ~^:?*[\\]/.test(name) || name.includes("..") || name.includes("@{")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".") || name.includes("//")) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

/**
 * Whether `path` may name a file in a repository: relative, no empty, `.`, `..` or `.git`
 * component (git itself refuses those in trees), no control characters, at most 4096 bytes.
 */
export function isRepositoryFilePath(path: string): boolean {
  if (path === "" || Buffer.byteLength(path) > 4096 || hasControl(path)) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== ".." && part.toLowerCase() !== ".git");
}
