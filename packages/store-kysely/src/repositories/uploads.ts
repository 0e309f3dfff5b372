/** SQL {@link UploadRepository}. */
import type { ProjectUpload, UploadRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { UploadsTable } from "../schema-releases.js";
import { offsetPage } from "../sql/pagination.js";
import type { SqlContext } from "./context.js";

/** The SQL upload repository over one Kysely handle. */
export function sqlUploads(ctx: SqlContext): UploadRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<UploadsTable>): ProjectUpload => ({
    id: Number(row.id),
    projectId: Number(row.project_id),
    secret: row.secret,
    filename: row.filename,
    size: Number(row.size),
    uploaderId: row.uploader_id === null ? null : Number(row.uploader_id),
    createdAt: t.fromDate(row.created_at),
  });
  const scoped = (projectId: number) => db.selectFrom("forgekit_uploads").selectAll().where("project_id", "=", projectId);
  return {
    async create(input) {
      const id = await t.insert(db, "forgekit_uploads", { project_id: input.projectId, secret: input.secret, filename: input.filename, size: input.size, uploader_id: input.uploaderId, created_at: t.toDate(input.createdAt) });
      return { ...input, id };
    },
    list(projectId, page) {
      const filtered = db.selectFrom("forgekit_uploads as u").where("u.project_id", "=", projectId);
      return offsetPage(db, filtered, (q) => q.selectAll("u").orderBy("u.created_at", "desc").orderBy("u.id", "desc") as never, page, (row) => map(row as never));
    },
    async find(projectId, id) {
      const row = await scoped(projectId).where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async findByPath(projectId, secret, filename) {
      const row = await scoped(projectId).where("secret", "=", secret).where("filename", "=", filename).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async remove(projectId, id) {
      const done = await db.deleteFrom("forgekit_uploads").where("project_id", "=", projectId).where("id", "=", id).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
  };
}
