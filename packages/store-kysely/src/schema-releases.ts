/** Tables of project releases (migration 0023_releases) and uploads (0024_uploads). */
import type { DbDate } from "./schema-values.js";

/** One release per tag of a project; `milestone_ids` is a JSON array of milestone ids. */
export interface ReleasesTable {
  id: number;
  project_id: number;
  tag_name: string;
  name: string;
  description: string;
  author_id: number | null;
  sha: string;
  milestone_ids: string;
  created_at: DbDate;
  released_at: DbDate;
  updated_at: DbDate;
}

/** Asset links of releases. */
export interface ReleaseLinksTable {
  id: number;
  release_id: number;
  name: string;
  url: string;
  filepath: string | null;
  link_type: string;
  created_at: DbDate;
  updated_at: DbDate;
}

/** The release tables, for the store's {@link Database}. */
export interface ReleasesDatabase {
  forgekit_releases: ReleasesTable;
  forgekit_release_links: ReleaseLinksTable;
  forgekit_uploads: UploadsTable;
}

/** Release and upload tables, dependants first. */
export const RELEASES_TABLES = ["forgekit_uploads", "forgekit_release_links", "forgekit_releases"] as const;

/** Records of project Markdown uploads (migration 0024_uploads). */
export interface UploadsTable {
  id: number;
  project_id: number;
  secret: string;
  filename: string;
  size: number | string | bigint;
  uploader_id: number | null;
  created_at: DbDate;
}
