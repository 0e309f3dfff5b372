/**
 * The import entities: the import result (`POST /import/extforge`, `/import/extserver`, the cancel
 * result; spec "Import result", "Import cancel result"; reference ProjectImportEntity, where
 * `full_path` is a URL path with a leading slash) and the import status of `GET /projects/:id/import`.
 */
import type { Project } from "../accounts/types.js";
import type { ProjectImport } from "../ports/imports-store.js";
import { parseStats } from "./run-kit.js";

/** `full_name` of a project: its namespace names and its own, joined by " / " (reference `name_with_namespace`). */
export const fullName = (namespaceNames: readonly string[], project: Pick<Project, "name">): string => [...namespaceNames, project.name].join(" / ");

/** The import result. `import_error` appears only when the import failed. */
export function importEntity(project: Project, namespaceNames: readonly string[], record: ProjectImport, warning: string | null = null): Record<string, unknown> {
  return {
    id: project.id,
    name: project.name,
    full_path: `/${project.fullPath}`,
    full_name: fullName(namespaceNames, project),
    import_source: record.importSource,
    import_status: record.status,
    human_import_status_name: record.status,
    provider_link: `/${record.importSource}`,
    ...(record.status === "failed" ? { import_error: record.error } : {}),
    import_warning: warning,
  };
}

/** Where an import is (an extension of the reference's entity, for clients and the CLI's bar). */
export interface ImportProgress {
  /** The stage running, or `done`. */
  stage: string;
  /** 1-based position of the stage among `stages` (the last is `done`). */
  stage_number: number;
  stages: number;
  /** Records imported so far, every kind together. */
  items_imported: number;
}

/** `GET /projects/:id/import`: the project, its import state and the counts fetched / imported per kind. */
export function importStatusEntity(project: Project, namespaceNames: readonly string[], record: ProjectImport | null, progress: ImportProgress | null): Record<string, unknown> {
  const stats = record === null ? {} : parseStats(record.stats);
  const fetched: Record<string, number> = {};
  const imported: Record<string, number> = {};
  for (const [kind, counts] of Object.entries(stats)) {
    fetched[kind] = counts.fetched;
    imported[kind] = counts.imported;
  }
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: fullName(namespaceNames, project),
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: project.createdAt.toISOString(),
    import_status: record?.status ?? "none",
    import_type: record === null ? null : record.source,
    import_source: record?.importSource ?? null,
    import_error: record?.error ?? null,
    failed_relations: [],
    stats: { fetched, imported },
    progress,
  };
}
