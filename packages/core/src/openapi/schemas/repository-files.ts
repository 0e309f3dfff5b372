/** Schemas of repository files, blobs and comparisons (reference `RepositoryFile` fields, `Blob`, `Compare`). */
import * as z from "zod";
import { int, url } from "./common.js";
import { commitSchema, diffSchema } from "./repository.js";

export const repositoryFileSchema = z
  .object({
    file_name: z.string(),
    file_path: z.string(),
    size: int.meta({ description: "bytes" }),
    encoding: z.literal("base64"),
    content_sha256: z.string(),
    ref: z.string(),
    blob_id: z.string(),
    commit_id: z.string().meta({ description: "the commit `ref` names" }),
    last_commit_id: z.string().meta({ description: "the newest commit that changed the file" }),
    execute_filemode: z.boolean(),
    content: z.string().meta({ description: "the bytes, base64" }),
  })
  .meta({ description: "A file of the repository with its content (reference `Files` `blob_data`); the same fields without `content` come as `X-Gitlab-*` headers of `…/raw` and `HEAD`" });

export const repositoryFileWriteSchema = z.object({ file_path: z.string(), branch: z.string() }).meta({ description: "What a file write committed to" });

export const blobSchema = z
  .object({ size: int.meta({ description: "bytes" }), encoding: z.literal("base64"), content: z.string().meta({ description: "the bytes, base64" }), sha: z.string() })
  .meta({ description: "A blob with its content (reference `GET …/repository/blobs/:sha`)" });

export const compareSchema = z
  .object({
    commit: commitSchema.nullable().meta({ description: "the newest commit of `commits`" }),
    commits: z.array(commitSchema).meta({ description: "oldest first" }),
    diffs: z.array(diffSchema),
    compare_timeout: z.boolean(),
    compare_same_ref: z.boolean(),
    web_url: url,
  })
  .meta({ description: "Comparison of two refs (reference `Compare`)" });
