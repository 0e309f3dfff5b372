/** Schemas of labels (reference `LabelBasic`, `GroupLabel`, `ProjectLabel`). */
import * as z from "zod";
import { int } from "./common.js";

export const labelBasicSchema = z
  .object({
    id: int,
    name: z.string(),
    color: z.string().meta({ description: "`#RRGGBB`" }),
    description: z.string().nullable().meta({ description: "null when empty" }),
    description_html: z.string().meta({ description: "the description, HTML-escaped (no Markdown is rendered)" }),
    text_color: z.string().meta({ description: "`#FFFFFF` or `#333333`, whichever reads on `color`" }),
  })
  .meta({ description: "Label summary, as issues and merge requests show it with `with_labels_details=true` (reference `LabelBasic`)" });

const counted = (description: string) => int.optional().meta({ description: `${description}; only with \`with_counts=true\`` });

export const groupLabelSchema = labelBasicSchema
  .extend({
    open_issues_count: counted("open issues with the label"),
    closed_issues_count: counted("closed issues with the label"),
    open_merge_requests_count: counted("open merge requests with the label"),
    subscribed: z.boolean().meta({ description: "whether the caller subscribed to the label" }),
  })
  .meta({ description: "Group label (reference `GroupLabel`)" });

export const projectLabelSchema = groupLabelSchema
  .extend({
    priority: int.nullable().meta({ description: "the project's priority of the label, null when unprioritized" }),
    is_project_label: z.boolean().meta({ description: "false for a label of one of the project's groups" }),
  })
  .meta({ description: "Project label (reference `ProjectLabel`)" });
