/** The table of repository storage moves (migration 0009_storage_moves). */
import type { Generated } from "kysely";
import type { DbDate } from "./schema-values.js";

/** One move; `state` is the reference's integer (1 initial … 7 cleanup_failed). */
export interface RepositoryStorageMovesTable {
  id: Generated<number>;
  container_type: string;
  container_id: number;
  state: number;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  job_id: number | null;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface StorageMovesDatabase {
  forgekit_repository_storage_moves: RepositoryStorageMovesTable;
}
