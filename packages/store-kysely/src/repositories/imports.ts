/** SQL import state, external-id maps and labels (ports/imports-store.ts; migration 0010_imports). */
import type { ExternalIdRepository, ImportsStore, ImportSourceKind, ImportStatus, Label, LabelRepository, ProjectImport, ProjectImportRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { LabelsTable, ProjectImportsTable } from "../schema-imports.js";
import type { SqlContext } from "./context.js";
import { runCompiled } from "../sql/compiled.js";

/** Rows per `IN (…)` list: far below every dialect's parameter limit. */
const IN_CHUNK = 500;

function sqlProjectImports(ctx: SqlContext): ProjectImportRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<ProjectImportsTable>): ProjectImport => ({
    projectId: Number(row.project_id),
    source: row.source as ImportSourceKind,
    importSource: row.import_source,
    url: row.url,
    status: row.status as ImportStatus,
    error: row.error,
    jobId: row.job_id === null ? null : Number(row.job_id),
    userId: Number(row.user_id),
    options: row.options,
    credentials: row.credentials,
    stats: row.stats,
    checkpoint: row.checkpoint,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  });
  const find = async (projectId: number) => {
    const row = await db.selectFrom("forgekit_project_imports").selectAll().where("project_id", "=", projectId).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    async create(input, now) {
      const values = {
        project_id: input.projectId,
        source: input.source,
        import_source: input.importSource,
        url: input.url,
        status: "scheduled",
        error: null,
        job_id: input.jobId ?? null,
        user_id: input.userId,
        options: input.options,
        credentials: input.credentials,
        stats: "{}",
        checkpoint: null,
        created_at: t.toDate(now),
        updated_at: t.toDate(now),
      };
      const written = await t.guardUnique(db, (d) => d.insertInto("forgekit_project_imports").values(values).execute());
      return written === null ? null : find(input.projectId);
    },
    find,
    async statuses(projectIds) {
      if (projectIds.length === 0) return new Map();
      // One project (every single-project read): one statement compiled once, not built per request.
      const rows =
        projectIds.length === 1
          ? await runCompiled(ctx, "imports.status1", [projectIds[0]], (arg) => db.selectFrom("forgekit_project_imports").select(["project_id", "status"]).where("project_id", "=", arg<number>(0)))
          : await db.selectFrom("forgekit_project_imports").select(["project_id", "status"]).where("project_id", "in", [...projectIds]).execute();
      return new Map(rows.map((row) => [Number(row.project_id), row.status as ImportStatus]));
    },
    async update(projectId, from, patch, now) {
      if (from.length === 0) return null;
      const set: Record<string, unknown> = { updated_at: t.toDate(now) };
      if (patch.status !== undefined) set["status"] = patch.status;
      if (patch.error !== undefined) set["error"] = patch.error;
      if (patch.jobId !== undefined) set["job_id"] = patch.jobId;
      if (patch.stats !== undefined) set["stats"] = patch.stats;
      if (patch.checkpoint !== undefined) set["checkpoint"] = patch.checkpoint;
      if (patch.credentials !== undefined) set["credentials"] = patch.credentials;
      // The status condition makes the write a compare-and-set: of two racing updates one matches.
      const result = await db.updateTable("forgekit_project_imports").set(set).where("project_id", "=", projectId).where("status", "in", [...from]).executeTakeFirst();
      return Number(result.numUpdatedRows) === 0 ? null : find(projectId);
    },
  };
}

function sqlExternalIds(ctx: SqlContext): ExternalIdRepository {
  const { db, traits: t } = ctx;
  return {
    async find(projectId, kind, externalIds) {
      const found = new Map<string, number>();
      for (let i = 0; i < externalIds.length; i += IN_CHUNK) {
        const chunk = externalIds.slice(i, i + IN_CHUNK);
        const rows = await db
          .selectFrom("forgekit_import_external_ids")
          .select(["external_id", "record_id"])
          .where("project_id", "=", projectId)
          .where("kind", "=", kind)
          .where("external_id", "in", chunk)
          .execute();
        for (const row of rows) found.set(row.external_id, Number(row.record_id));
      }
      return found;
    },
    async add(projectId, kind, externalId, recordId) {
      const written = await t.guardUnique(db, (d) =>
        d.insertInto("forgekit_import_external_ids").values({ project_id: projectId, kind, external_id: externalId, record_id: recordId }).execute(),
      );
      return written !== null;
    },
  };
}

/** A `forgekit_labels` row as a {@link Label}. */
export function labelFromRow(t: SqlContext["traits"], row: Selectable<LabelsTable>): Label {
  return {
    id: Number(row.id),
    projectId: row.project_id === null ? null : Number(row.project_id),
    groupId: row.group_id === null ? null : Number(row.group_id),
    name: row.name,
    color: row.color,
    description: row.description,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

function sqlLabels(ctx: SqlContext): LabelRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<LabelsTable>): Label => labelFromRow(t, row);
  return {
    async create(input, now) {
      const values = { project_id: input.projectId, name: input.name, color: input.color, description: input.description, created_at: t.toDate(now), updated_at: t.toDate(now) };
      const id = await t.guardUnique(db, (d) => t.insert(d, "forgekit_labels", values));
      return id === null ? null : { id, ...input, groupId: null, createdAt: new Date(now), updatedAt: new Date(now) };
    },
    async findByName(projectId, name) {
      const row = await db.selectFrom("forgekit_labels").selectAll().where("project_id", "=", projectId).where("name", "=", name).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async listByProject(projectId) {
      const rows = await db.selectFrom("forgekit_labels").selectAll().where("project_id", "=", projectId).orderBy("name", "asc").orderBy("id", "asc").execute();
      return rows.map(map);
    },
    async link(labelId, targetType, targetId) {
      const written = await t.guardUnique(db, (d) => d.insertInto("forgekit_label_links").values({ label_id: labelId, target_type: targetType, target_id: targetId }).execute());
      return written !== null;
    },
    async labelsOf(targetType, targetId) {
      const rows = await db
        .selectFrom("forgekit_labels as l")
        .innerJoin("forgekit_label_links as k", "k.label_id", "l.id")
        .selectAll("l")
        .where("k.target_type", "=", targetType)
        .where("k.target_id", "=", targetId)
        .orderBy("l.name", "asc")
        .orderBy("l.id", "asc")
        .execute();
      return rows.map(map);
    },
  };
}

/** The SQL {@link ImportsStore}. */
export function sqlImports(ctx: SqlContext): ImportsStore {
  return { projects: sqlProjectImports(ctx), externalIds: sqlExternalIds(ctx), labels: sqlLabels(ctx) };
}
