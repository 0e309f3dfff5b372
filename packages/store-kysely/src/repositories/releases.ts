/** SQL {@link ReleaseRepository}. */
import type { NewReleaseLink, Release, ReleaseLink, ReleaseLinkType, ReleaseLinkWrite, ReleaseRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { ReleaseLinksTable, ReleasesTable } from "../schema-releases.js";
import { offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

/** The SQL release repository over one Kysely handle. */
export function sqlReleases(ctx: SqlContext): ReleaseRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<ReleasesTable>): Release => ({
    id: Number(row.id),
    projectId: Number(row.project_id),
    tagName: row.tag_name,
    name: row.name,
    description: row.description,
    authorId: row.author_id === null ? null : Number(row.author_id),
    sha: row.sha,
    milestoneIds: (JSON.parse(row.milestone_ids) as unknown[]).map(Number),
    createdAt: t.fromDate(row.created_at),
    releasedAt: t.fromDate(row.released_at),
    updatedAt: t.fromDate(row.updated_at),
  });
  const mapLink = (row: Selectable<ReleaseLinksTable>): ReleaseLink => ({
    id: Number(row.id),
    releaseId: Number(row.release_id),
    name: row.name,
    url: row.url,
    filepath: row.filepath,
    linkType: row.link_type as ReleaseLinkType,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  });
  const findById = async (c: SqlContext, id: number) => {
    const row = await c.db.selectFrom("forgekit_releases").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  const linkValues = (link: NewReleaseLink, now: Date) => ({ name: link.name, url: link.url, filepath: link.filepath, link_type: link.linkType, updated_at: t.toDate(now) });
  /** Locks the release's row (serialises link writes of one release); false when it is gone. */
  const lockRelease = async (c: SqlContext, releaseId: number) => {
    let q = c.db.selectFrom("forgekit_releases").select("id").where("id", "=", releaseId);
    if (c.traits.supportsForUpdate) q = q.forUpdate();
    return (await q.executeTakeFirst()) !== undefined;
  };
  /** The refusal another link of the release gives `link`, or null. */
  const clash = async (c: SqlContext, releaseId: number, link: NewReleaseLink, exceptId: number | null): Promise<ReleaseLinkWrite | null> => {
    const rows = await c.db.selectFrom("forgekit_release_links").selectAll().where("release_id", "=", releaseId).execute();
    for (const other of rows.map(mapLink)) {
      if (other.id === exceptId) continue;
      if (other.name === link.name) return { refused: "name_taken" };
      if (other.url === link.url) return { refused: "url_taken" };
      if (link.filepath !== null && other.filepath === link.filepath) return { refused: "filepath_taken" };
    }
    return null;
  };
  const findLink = async (c: SqlContext, releaseId: number, linkId: number) => {
    const row = await c.db.selectFrom("forgekit_release_links").selectAll().where("id", "=", linkId).where("release_id", "=", releaseId).executeTakeFirst();
    return row === undefined ? null : mapLink(row);
  };
  return {
    create: (input, links, now) =>
      atomic(ctx, async (tx) => {
        const values = {
          project_id: input.projectId,
          tag_name: input.tagName,
          name: input.name,
          description: input.description,
          author_id: input.authorId,
          sha: input.sha,
          milestone_ids: JSON.stringify(input.milestoneIds),
          created_at: t.toDate(input.createdAt),
          released_at: t.toDate(input.releasedAt),
          updated_at: t.toDate(now),
        };
        const id = await t.guardUnique(tx.db, (d) => t.insert(d, "forgekit_releases", values));
        if (id === null) return null;
        for (const link of links) await t.insert(tx.db, "forgekit_release_links", { release_id: id, ...linkValues(link, now), created_at: t.toDate(now) });
        return findById(tx, id);
      }),
    async find(projectId, tagName) {
      const row = await db.selectFrom("forgekit_releases").selectAll().where("project_id", "=", projectId).where("tag_name", "=", tagName).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async findByTags(projectId, tagNames) {
      if (tagNames.length === 0) return [];
      const names = new Set(tagNames);
      const rows = await db.selectFrom("forgekit_releases").selectAll().where("project_id", "=", projectId).where("tag_name", "in", [...names]).execute();
      // MySQL compares with a case-insensitive collation: keep the exact names only.
      return rows.filter((row) => names.has(row.tag_name)).map(map);
    },
    list(projectId, order, page) {
      const filtered = db.selectFrom("forgekit_releases as r").where("r.project_id", "=", projectId);
      const column = order.orderBy === "released_at" ? "r.released_at" : "r.created_at";
      return offsetPage(db, filtered, (q) => q.selectAll("r").orderBy(column, order.sort).orderBy("r.id", order.sort) as never, page, (row) => map(row as never));
    },
    async update(id, patch, now) {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.releasedAt === undefined ? {} : { released_at: t.toDate(patch.releasedAt) }),
        ...(patch.milestoneIds === undefined ? {} : { milestone_ids: JSON.stringify(patch.milestoneIds) }),
        updated_at: t.toDate(now),
      };
      await db.updateTable("forgekit_releases").set(set).where("id", "=", id).execute();
      return findById(ctx, id);
    },
    async remove(id) {
      const done = await db.deleteFrom("forgekit_releases").where("id", "=", id).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
    async links(releaseIds) {
      if (releaseIds.length === 0) return [];
      const rows = await db.selectFrom("forgekit_release_links").selectAll().where("release_id", "in", [...releaseIds]).orderBy("id").execute();
      return rows.map(mapLink);
    },
    addLink: (releaseId, input, now) =>
      atomic(ctx, async (tx) => {
        if (!(await lockRelease(tx, releaseId))) return null;
        const refused = await clash(tx, releaseId, input, null);
        if (refused !== null) return refused;
        const id = await t.guardUnique(tx.db, (d) => t.insert(d, "forgekit_release_links", { release_id: releaseId, ...linkValues(input, now), created_at: t.toDate(now) }));
        if (id === null) return { refused: "name_taken" as const };
        const link = await findLink(tx, releaseId, id);
        return link === null ? null : { link };
      }),
    updateLink: (releaseId, linkId, patch, now) =>
      atomic(ctx, async (tx) => {
        if (!(await lockRelease(tx, releaseId))) return null;
        const current = await findLink(tx, releaseId, linkId);
        if (current === null) return null;
        const next: NewReleaseLink = { name: patch.name ?? current.name, url: patch.url ?? current.url, filepath: patch.filepath === undefined ? current.filepath : patch.filepath, linkType: patch.linkType ?? current.linkType };
        const refused = await clash(tx, releaseId, next, linkId);
        if (refused !== null) return refused;
        const done = await t.guardUnique(tx.db, (d) => d.updateTable("forgekit_release_links").set(linkValues(next, now)).where("id", "=", linkId).execute());
        if (done === null) return { refused: "name_taken" as const };
        const link = await findLink(tx, releaseId, linkId);
        return link === null ? null : { link };
      }),
    async removeLink(releaseId, linkId) {
      const link = await findLink(ctx, releaseId, linkId);
      if (link === null) return null;
      const done = await db.deleteFrom("forgekit_release_links").where("id", "=", linkId).where("release_id", "=", releaseId).executeTakeFirst();
      return Number(done.numDeletedRows) > 0 ? link : null;
    },
  };
}
