/**
 * Where a repository lives inside its shard: the reference's hashed layout, derived from the
 * container's id only (`@hashed/ab/cd/<sha256 of the id>.git`). A rename moves nothing, and since
 * the only input is an integer, no value can name a path outside the shard.
 */
import { createHash } from "node:crypto";
import type { RepositoryKind, RepositoryRef } from "../ports/repository-storage.js";

/** Top folder and suffix per kind: projects, group wikis and snippets never share a path. */
const LAYOUT: Readonly<Record<RepositoryKind, { prefix: string; suffix: string }>> = {
  project: { prefix: "@hashed", suffix: ".git" },
  "group-wiki": { prefix: "@groups", suffix: ".wiki.git" },
  snippet: { prefix: "@snippets", suffix: ".git" },
};

/** Whether `id` can name a container (a positive safe integer). */
export const isContainerId = (id: unknown): id is number => typeof id === "number" && Number.isSafeInteger(id) && id > 0;

/**
 * The repository's path relative to its shard, with `/` separators, e.g. project 1 →
 * `@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git`. Throws a
 * TypeError for an id that is not a positive integer (a programming error: ids come from rows).
 */
export function hashedRepositoryPath(repository: RepositoryRef): string {
  if (!isContainerId(repository.id)) throw new TypeError(`repository id must be a positive integer, got ${String(repository.id)}`);
  const layout = LAYOUT[repository.kind];
  if (layout === undefined) throw new TypeError(`unknown repository kind ${String(repository.kind)}`);
  const hash = createHash("sha256").update(String(repository.id)).digest("hex");
  return `${layout.prefix}/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}${layout.suffix}`;
}
