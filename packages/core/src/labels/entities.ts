/** The label entities (reference `Entities::LabelBasic`, `Label`, `ProjectLabel`). */
import type { Label, LabelRepository, LabelTargetType } from "../ports/imports-store.js";
import type { LabelCounts } from "../ports/labels-store.js";
import { textColor } from "./colors.js";

/** What a project label shows besides its row: the viewer's subscription, the project's priority, counts when asked. */
export interface LabelView {
  label: Label;
  subscribed: boolean;
  priority: number | null;
  counts?: LabelCounts;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `description_html`: the description as HTML text (forgekit renders no Markdown, so it is escaped, never interpreted). */
function descriptionHtml(description: string): string {
  return description.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** `Entities::LabelBasic`: what issues and merge requests show with `with_labels_details=true`. */
export function labelBasicEntity(label: Label): Record<string, unknown> {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    description: label.description === "" ? null : label.description,
    description_html: descriptionHtml(label.description),
    text_color: textColor(label.color),
  };
}

/** `Entities::GroupLabel` (`Label`): the basic fields, counts when asked, `subscribed`. */
export function groupLabelEntity(view: LabelView): Record<string, unknown> {
  return {
    ...labelBasicEntity(view.label),
    ...(view.counts === undefined ? {} : { open_issues_count: view.counts.openIssues, closed_issues_count: view.counts.closedIssues, open_merge_requests_count: view.counts.openMergeRequests }),
    subscribed: view.subscribed,
  };
}

/** `Entities::ProjectLabel`: the group-label fields, the project's `priority` and `is_project_label` (false for a group's label). */
export function projectLabelEntity(view: LabelView): Record<string, unknown> {
  return { ...groupLabelEntity(view), priority: view.priority, is_project_label: view.label.projectId !== null };
}

/**
 * Issue or merge-request entities with `labels` as {@link labelBasicEntity} objects instead of names
 * (reference `with_labels_details=true`), read from the stored links of each entity's `id`.
 */
export async function withLabelDetails<T extends { id: number }>(labels: Pick<LabelRepository, "labelsOf">, type: LabelTargetType, entities: readonly T[]): Promise<(T & { labels: unknown[] })[]> {
  return Promise.all(entities.map(async (entity) => ({ ...entity, labels: (await labels.labelsOf(type, entity.id)).map(labelBasicEntity) })));
}
