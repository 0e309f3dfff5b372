/** Tables of project imports (migration 0010_imports). */
import type { Generated } from "kysely";
import type { DbDate } from "./schema-values.js";

/** One import per project; options, stats and checkpoint are JSON text. */
export interface ProjectImportsTable {
  project_id: number;
  source: string;
  import_source: string;
  url: string;
  status: string;
  error: string | null;
  job_id: number | null;
  user_id: number;
  options: string;
  credentials: string | null;
  stats: string;
  checkpoint: string | null;
  created_at: DbDate;
  updated_at: DbDate;
}

/** External id → record id, per project and kind. */
export interface ImportExternalIdsTable {
  project_id: number;
  kind: string;
  external_id: string;
  record_id: number;
}

export interface LabelsTable {
  id: Generated<number>;
  /** The project of a project label; null for a group label (0020_labels). */
  project_id: number | null;
  /** The group of a group label; null for a project label (0020_labels). */
  group_id: number | null;
  name: string;
  color: string;
  description: string;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface LabelLinksTable {
  label_id: number;
  target_type: string;
  target_id: number;
}

export interface ImportsDatabase {
  forgekit_project_imports: ProjectImportsTable;
  forgekit_import_external_ids: ImportExternalIdsTable;
  forgekit_labels: LabelsTable;
  forgekit_label_links: LabelLinksTable;
}

/** The import tables, dependants first. */
export const IMPORTS_TABLES = ["forgekit_label_links", "forgekit_labels", "forgekit_import_external_ids", "forgekit_project_imports"] as const;
