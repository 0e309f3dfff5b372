/** Schemas of releases and their asset links (reference `Release`, `Releases::Link`, `Releases::Source`). */
import * as z from "zod";
import type { releaseEntity, releaseLinkEntity } from "../../releases/entity.js";
import { SOURCE_FORMATS } from "../../releases/entity.js";
import { RELEASE_LINK_TYPES } from "../../releases/types.js";
import { milestoneSchema } from "./activity.js";
import { type Fits, type Holds, int, timestamp, url, userBasicSchema } from "./common.js";
import { commitSchema } from "./repository.js";

export const releaseLinkSchema = z
  .object({
    id: int,
    name: z.string(),
    url,
    direct_asset_url: url.meta({ description: "the release's download URL plus the link's `filepath`, else `url`" }),
    link_type: z.enum(RELEASE_LINK_TYPES),
  })
  .meta({ description: "Release asset link (reference `Releases::Link`)" });

const codeOnly = "only to callers who may read the code";

export const releaseSchema = z
  .object({
    name: z.string(),
    tag_name: z.string(),
    description: z.string(),
    description_html: z.string().optional().meta({ description: "only with `include_html_description=true`" }),
    created_at: timestamp.nullable(),
    released_at: timestamp.nullable(),
    upcoming_release: z.boolean(),
    author: userBasicSchema.optional().meta({ description: "absent once the author is gone" }),
    commit: commitSchema.optional().meta({ description: `the tag's commit; ${codeOnly}` }),
    milestones: z.array(milestoneSchema).optional().meta({ description: "absent without milestones" }),
    commit_path: z.string().optional().meta({ description: codeOnly }),
    tag_path: z.string().optional().meta({ description: codeOnly }),
    assets: z.object({
      count: int,
      sources: z.array(z.object({ format: z.enum(SOURCE_FORMATS), url })).meta({ description: `archives of the tag; empty unless the caller may read the code` }),
      links: z.array(releaseLinkSchema),
    }),
    evidences: z.array(z.never()).meta({ description: "always empty: forgekit keeps no release evidence" }),
    _links: z.object({
      closed_issues_url: url,
      closed_merge_requests_url: url,
      edit_url: url.optional().meta({ description: "only to callers who may edit the release" }),
      merged_merge_requests_url: url,
      opened_issues_url: url,
      opened_merge_requests_url: url,
      self: url,
    }),
  })
  .meta({ description: "Release (reference `Release`)" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type ReleaseSchemasMatchRenderers = [Holds<Fits<typeof releaseLinkSchema, ReturnType<typeof releaseLinkEntity>>>, Holds<Fits<typeof releaseSchema, ReturnType<typeof releaseEntity>>>];
