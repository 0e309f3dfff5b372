/** Schemas of repository storage moves (reference `ProjectRepositoryStorageMove`, `SnippetRepositoryStorageMove`, `GroupRepositoryStorageMove`). */
import * as z from "zod";
import type { basicGroupDetails, basicSnippet, projectIdentity } from "../../storage-moves/entities.js";
import { snippetSchema } from "./activity.js";
import { type Fits, type Holds, int, timestamp, url } from "./common.js";

export const storageMoveSchema = z
  .object({
    id: z.number().int(),
    created_at: timestamp.nullable(),
    state: z.string().meta({ description: "human state name, e.g. `scheduled`, `finished`, `cleanup failed`" }),
    source_storage_name: z.string(),
    destination_storage_name: z.string(),
    error_message: z.string().nullable(),
  })
  .meta({ description: "Repository storage move (its container follows as `project`, `snippet` or `group`)" });

const projectIdentitySchema = z
  .object({ id: int, description: z.string().nullable(), name: z.string(), name_with_namespace: z.string(), path: z.string(), path_with_namespace: z.string(), created_at: timestamp.nullable() })
  .meta({ description: "reference `ProjectIdentity`" });

const basicSnippetSchema = snippetSchema
  .omit({ file_name: true, files: true, imported: true, imported_from: true })
  .extend({ description: z.null() })
  .meta({ description: "reference `BasicSnippet`" });

const basicGroupDetailsSchema = z.object({ id: int, web_url: url, name: z.string() }).meta({ description: "reference `BasicGroupDetails`" });

const gone = "null once the container is gone";
export const projectStorageMoveSchema = storageMoveSchema.extend({ project: projectIdentitySchema.nullable().meta({ description: gone }) }).meta({ description: "Project repository storage move (reference `ProjectRepositoryStorageMove`)" });
export const snippetStorageMoveSchema = storageMoveSchema.extend({ snippet: basicSnippetSchema.nullable().meta({ description: gone }) }).meta({ description: "Snippet repository storage move (reference `SnippetRepositoryStorageMove`)" });
export const groupStorageMoveSchema = storageMoveSchema.extend({ group: basicGroupDetailsSchema.nullable().meta({ description: gone }) }).meta({ description: "Group repository storage move (reference `GroupRepositoryStorageMove`)" });

/** Compile-time: the container schemas match their renderers (a mismatch fails `tsc`). */
export type StorageMoveSchemasMatchRenderers = [
  Holds<Fits<typeof projectIdentitySchema, ReturnType<typeof projectIdentity>>>,
  Holds<Fits<typeof basicSnippetSchema, ReturnType<typeof basicSnippet>>>,
  Holds<Fits<typeof basicGroupDetailsSchema, ReturnType<typeof basicGroupDetails>>>,
];
