/** Labels by name for issues and merge requests (reference `Labels::FindOrCreateService`). */
import type { TransactionStore } from "../ports/store.js";

/** Colour of labels created by name (reference `Label::DEFAULT_COLOR`). */
export const DEFAULT_LABEL_COLOR = "#6699cc";

/**
 * Label ids for `names` in the project, in order and without repeats: the project's own label of
 * that name, else the nearest group above it that has one, else (unless `options.create` is false:
 * then the name is skipped) a new project label in the default colour (a concurrent creator's row
 * is found and used instead).
 */
export async function findOrCreateLabels(tx: TransactionStore, projectId: number, names: readonly string[], now: Date, options: { create?: boolean } = {}): Promise<number[]> {
  const project = await tx.projects.findById(projectId);
  const groupIds = project === null ? [] : (await tx.namespaces.chain(project.namespaceId)).filter((n) => n.kind === "group").map((n) => n.id);
  const ids: number[] = [];
  for (const name of new Set(names)) {
    const label =
      (await tx.imports.labels.findByName(projectId, name)) ??
      (await tx.labels.findInGroups(groupIds, name)) ??
      (options.create === false ? null : ((await tx.imports.labels.create({ projectId, name, color: DEFAULT_LABEL_COLOR, description: "" }, now)) ?? (await tx.imports.labels.findByName(projectId, name))));
    if (label !== null && !ids.includes(label.id)) ids.push(label.id);
  }
  return ids;
}
