/**
 * The `repositoryStorages` configuration: named shards, each a directory. Two forms are accepted:
 * the map `{ default: { path: "./data/repositories/default" }, … }` and, from before shards had
 * directories, an array of names (`["default", "other"]`), which is the map without paths.
 */
import { resolve } from "node:path";
import * as z from "zod";

/** One shard: where its repositories live. Without `path`, creating a repository on it fails (`no_path`). */
export interface RepositoryShardConfig {
  path?: string | undefined;
}

const SHARD_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const nameSchema = z
  .string()
  .regex(SHARD_NAME, "must be 1-64 characters of A-Z a-z 0-9 _ . -")
  // JavaScript orders integer-like keys first, which would silently change which shard is "the first".
  .refine((name) => !/^\d+$/.test(name), "must not be only digits");

const shardSchema = z.strictObject({ path: z.string().min(1, "must not be empty").optional() });

/** Adds an issue per name that repeats another, case-insensitively (names are compared that way in URLs and by operators). */
function checkDistinct(names: readonly string[], ctx: z.RefinementCtx, pathOf: (i: number) => (string | number)[]) {
  const seen = new Map<string, string>();
  names.forEach((name, i) => {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) ctx.addIssue({ code: "custom", path: pathOf(i), message: `duplicate repository storage name "${name}" (already "${first}")` });
    else seen.set(name.toLowerCase(), name);
  });
}

const arrayForm = z
  .array(nameSchema)
  .min(1, "must name at least one storage")
  .superRefine((names, ctx) => checkDistinct(names, ctx, (i) => [i]))
  .transform((names): Record<string, RepositoryShardConfig> => Object.fromEntries(names.map((name) => [name, {}])));

const mapForm = z
  .record(z.string(), shardSchema)
  .refine((shards) => Object.keys(shards).length > 0, "must name at least one storage")
  .superRefine((shards, ctx) => {
    const names = Object.keys(shards);
    // Keys are checked here, not by the record's key schema, whose failures zod reports only as "Invalid key in record".
    for (const name of names) {
      const problem = nameSchema.safeParse(name).error?.issues[0]?.message;
      if (problem !== undefined) ctx.addIssue({ code: "custom", path: [name], message: problem });
    }
    checkDistinct(names, ctx, (i) => [names[i] ?? i]);
    // Two shards on one directory would make a move copy a repository onto itself, then delete it.
    const byPath = new Map<string, string>();
    for (const name of names) {
      const path = shards[name]?.path;
      if (path === undefined) continue;
      const other = byPath.get(resolve(path));
      if (other !== undefined) ctx.addIssue({ code: "custom", path: [name, "path"], message: `is the directory of repository storage "${other}" too` });
      else byPath.set(resolve(path), name);
    }
  });

/**
 * `repositoryStorages`: the map form, or the array of names (no paths). Default: one shard
 * `default` without a directory (the host names one; see docs/guide/storage.md).
 */
export const repositoryStoragesSchema = z
  .custom<Record<string, RepositoryShardConfig> | readonly string[]>((v) => typeof v === "object" && v !== null, {
    message: "must be a map of storage name to { path } (or an array of names)",
  })
  // Dispatch on the form so an error speaks of the form given, not of both (as a union would).
  .transform((v, ctx): Record<string, RepositoryShardConfig> => {
    const parsed = (Array.isArray(v) ? arrayForm : mapForm).safeParse(v);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .default(() => ({ default: {} }));

/** Shard name → directory (`undefined`: none configured), for the storage implementation. */
export function shardDirectories(shards: Readonly<Record<string, RepositoryShardConfig>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(shards).map(([name, shard]) => [name, shard.path]));
}
