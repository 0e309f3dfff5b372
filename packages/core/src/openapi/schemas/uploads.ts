/** Schemas of project Markdown uploads (reference `UploadedFile` answer, `MarkdownUploadAdmin`). */
import * as z from "zod";
import type { uploadEntity, uploadListEntity } from "../../uploads/files.js";
import { type Fits, type Holds, int, timestamp } from "./common.js";

export const uploadSchema = z
  .object({
    id: int,
    alt: z.string().meta({ description: "the file name without its extension" }),
    url: z.string().meta({ description: "`/uploads/<secret>/<filename>`, relative to the project's web URL" }),
    full_path: z.string(),
    markdown: z.string().meta({ description: "a Markdown link, an image link for images and videos" }),
  })
  .meta({ description: "An uploaded file (reference `POST /projects/:id/uploads`)" });

export const uploadListEntrySchema = z
  .object({
    id: int,
    size: int.meta({ description: "bytes" }),
    filename: z.string(),
    created_at: timestamp,
    uploaded_by: z.object({ id: int, username: z.string(), name: z.string() }).nullable().meta({ description: "null once the uploader is gone" }),
  })
  .meta({ description: "An upload as maintainers list it (reference `MarkdownUploadAdmin`)" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type UploadSchemasMatchRenderers = [Holds<Fits<typeof uploadSchema, ReturnType<typeof uploadEntity>>>, Holds<Fits<typeof uploadListEntrySchema, ReturnType<typeof uploadListEntity>>>];
